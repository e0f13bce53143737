"""Tournaments: the event, its entrants, its rounds, the tables of a round, and each
entrant's result in each round (the rows standings and pairing are computed from)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy


class Format(models.TextChoices):
    SWISS = "swiss", gettext_lazy("Swiss")
    ROUND_ROBIN = "round_robin", gettext_lazy("Round robin")


class Entry(models.TextChoices):
    PAIRS = "pairs", gettext_lazy("Fixed partnerships")
    INDIVIDUAL = "individual", gettext_lazy("Individual (partners chosen each round)")


class Scoring(models.TextChoices):
    GAME = "game", gettext_lazy("Game points (win 1, draw ½, loss 0)")
    DUPLICATE = "duplicate", gettext_lazy("Duplicate matchpoints")


class Status(models.TextChoices):
    REGISTERING = "registering", gettext_lazy("Registering")
    RUNNING = "running", gettext_lazy("Running")
    FINISHED = "finished", gettext_lazy("Finished")
    CANCELLED = "cancelled", gettext_lazy("Cancelled")


class Tournament(models.Model):
    name = models.CharField(max_length=100)
    description = models.TextField(blank=True)
    organiser = models.ForeignKey(
        "accounts.Player", on_delete=models.PROTECT, related_name="organised_tournaments"
    )
    format = models.CharField(max_length=12, choices=Format.choices, default=Format.SWISS)
    entry = models.CharField(max_length=10, choices=Entry.choices, default=Entry.PAIRS)
    scoring = models.CharField(max_length=10, choices=Scoring.choices, default=Scoring.GAME)
    rounds = models.PositiveSmallIntegerField(
        default=3, help_text="Swiss: as set. Round robin: fixed at the start by the field."
    )
    rated = models.BooleanField(default=False)
    time_control = models.JSONField(null=True, blank=True)
    registration_opens_at = models.DateTimeField(null=True, blank=True)
    registration_closes_at = models.DateTimeField(null=True, blank=True)
    starts_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # Conditions of entry (each applies to every player of an entrant).
    min_rating = models.IntegerField(null=True, blank=True)
    max_rating = models.IntegerField(null=True, blank=True)
    min_rated_games = models.PositiveIntegerField(default=0)
    max_entrants = models.PositiveIntegerField(null=True, blank=True)
    bots_allowed = models.BooleanField(default=False)

    status = models.CharField(
        max_length=12, choices=Status.choices, default=Status.REGISTERING, db_index=True
    )
    current_round = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(format="round_robin", entry="individual"),
                name="tournament_round_robin_pairs_only",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_duplicate(self) -> bool:
        return self.scoring == Scoring.DUPLICATE


class EntrantStatus(models.TextChoices):
    PENDING = "pending", gettext_lazy("Waiting for the partner's confirmation")
    ACTIVE = "active", gettext_lazy("Entered")
    WITHDRAWN = "withdrawn", gettext_lazy("Withdrawn")


class Entrant(models.Model):
    """A partnership (``player_b`` set) or, in individual events, one player."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    player_a = models.ForeignKey("accounts.Player", on_delete=models.PROTECT, related_name="+")
    player_b = models.ForeignKey(
        "accounts.Player", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    status = models.CharField(
        max_length=10, choices=EntrantStatus.choices, default=EntrantStatus.ACTIVE
    )
    registered_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawn_after_round = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player_a"], name="entrant_unique_a"),
            models.UniqueConstraint(
                fields=["tournament", "player_b"],
                condition=Q(player_b__isnull=False),
                name="entrant_unique_b",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        if self.player_b_id is None:
            return self.player_a.name
        return f"{self.player_a.name} & {self.player_b.name}"  # type: ignore[union-attr]

    @property
    def player_ids(self) -> list[int]:
        return [p for p in (self.player_a_id, self.player_b_id) if p is not None]


class RoundStatus(models.TextChoices):
    RUNNING = "running", gettext_lazy("Being played")
    FINISHED = "finished", gettext_lazy("Finished")


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(
        max_length=10, choices=RoundStatus.choices, default=RoundStatus.RUNNING
    )
    # Duplicate scoring: every table of the round plays this seed (secret until the
    # round is over, like a game's seed).
    seed = models.CharField(max_length=64, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} round {self.number}"


class Table(models.Model):
    """One game of a round."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField(
        "games.Game", on_delete=models.PROTECT, related_name="tournament_table"
    )
    scored_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.round} table {self.number}"


class Result(models.Model):
    """An entrant's place and result in one round: a seat at a table, or a bye.

    Points are kept in halves (``half_points``: win 2, draw 1, loss 0) so they stay exact;
    ``matchpoints``/``matchpoints_top`` are the duplicate comparison (2 per partnership
    beaten in the same direction, 1 per tie). A partnership sits at its side's low seat
    (0 or 1) and also holds the seat opposite.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="results")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="results")
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, null=True, blank=True, related_name="results"
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    bye = models.BooleanField(default=False)
    forfeit = models.BooleanField(default=False, help_text="Abandoned the game (clock).")
    scored = models.BooleanField(default=False)
    half_points = models.PositiveSmallIntegerField(default=0)
    total = models.IntegerField(default=0, help_text="The side's game total.")
    against = models.IntegerField(default=0, help_text="The other side's game total.")
    matchpoints = models.DecimalField(max_digits=8, decimal_places=2, default=0)
    matchpoints_top = models.DecimalField(max_digits=8, decimal_places=2, default=0)

    class Meta:
        ordering = ["round", "table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entrant"], name="result_once_per_round"),
            models.CheckConstraint(
                condition=Q(bye=True, table__isnull=True) | Q(bye=False, table__isnull=False),
                name="result_bye_or_table",
            ),
        ]
        indexes = [models.Index(fields=["entrant", "round"], name="result_entrant_round")]

    def __str__(self) -> str:
        return f"{self.entrant_id} in {self.round_id}"

    @property
    def side(self) -> int | None:
        return None if self.seat is None else self.seat % 2
