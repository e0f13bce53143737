"""Daylongs: an event of a few boards open for a day, each entrant at a table of their own
with three house bots, compared with everyone who held the same cards (docs/daylong.md).

A *board* is a run of deals of the game's schedule (deals 1 to 5, say), played as a short
game. Each board is dealt in ``pool_size`` *instances* (each a deal set: one seed, open
while the window is); an entrant plays one instance of each board, drawn at random, and is
compared only with those who held the same instance.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy


class Event(models.Model):
    title = models.CharField(max_length=100)
    starts_at = models.DateTimeField(db_index=True)
    ends_at = models.DateTimeField(db_index=True)
    # The house bots' strength (bots.house.STRENGTHS): the partner, and both opponents.
    partner_strength = models.CharField(max_length=10, default="medium")
    opponent_strength = models.CharField(max_length=10, default="medium")
    # Whether its games count on the ladder: only when every board is a whole game (a short
    # game is never rated, docs/rules.md §2).
    rated = models.BooleanField(default=False)
    pool_size = models.PositiveSmallIntegerField(default=4)
    # The day of a daily event made by the beat (one per day: the beat may run twice).
    daily_for = models.DateField(null=True, blank=True, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Set when the window's end was processed: deal sets closed, tables ended, standings final.
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-starts_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_at__gt=models.F("starts_at")), name="daylong_window"
            ),
            models.CheckConstraint(condition=Q(pool_size__gte=1), name="daylong_pool_size"),
        ]

    def __str__(self) -> str:
        return self.title


class Board(models.Model):
    """Deals ``first_deal`` to ``last_deal`` of the schedule, played as one short game."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="boards")
    number = models.PositiveSmallIntegerField()
    first_deal = models.PositiveSmallIntegerField()
    last_deal = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="daylong_board_number"),
        ]

    def __str__(self) -> str:
        return f"{self.event_id} board {self.number}"

    @property
    def schedule(self) -> dict[str, int]:
        return {"first": self.first_deal, "last": self.last_deal}


class BoardInstance(models.Model):
    """One of a board's ``pool_size`` deals: a deal set that every table of it is dealt from.

    Its row is the lock under which its tables are scored (one rescore at a time)."""

    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="instances")
    number = models.PositiveSmallIntegerField()
    deal_set = models.OneToOneField(
        "games.DealSet", on_delete=models.PROTECT, related_name="daylong_instance"
    )

    class Meta:
        ordering = ["board", "number"]
        constraints = [
            models.UniqueConstraint(fields=["board", "number"], name="daylong_instance_number"),
        ]

    def __str__(self) -> str:
        return f"{self.board} #{self.number}"


class Entry(models.Model):
    """One entrant (a person or a bot) in one event. ``rank`` and ``percent`` are written
    when the window ends (the final standings); live standings are read from the tables."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(
        "accounts.Player", on_delete=models.PROTECT, related_name="daylong_entries"
    )
    entered_at = models.DateTimeField(auto_now_add=True)
    rank = models.PositiveIntegerField(null=True, blank=True)
    percent = models.DecimalField(max_digits=6, decimal_places=2, null=True, blank=True)

    class Meta:
        ordering = ["event", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="daylong_entry_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.event_id}"


class TableStatus(models.TextChoices):
    PLAYING = "playing", gettext_lazy("Being played")
    FINISHED = "finished", gettext_lazy("Finished")
    # The window ended with the board unplayed to its end: the game was called off and the
    # board scores 0% for the entrant (docs/daylong.md).
    UNFINISHED = "unfinished", gettext_lazy("Not finished in time")


class Table(models.Model):
    """An entrant's game of one board: the entrant in seat 0, house bots in the others.

    ``total`` is the entrant's side's score (seats 0 and 2); ``matchpoints`` and ``top``
    compare it with the other finished tables of the same instance, ``percent`` is their
    ratio. They change while the field grows, each time under the instance's lock."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="tables")
    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="tables")
    instance = models.ForeignKey(BoardInstance, on_delete=models.CASCADE, related_name="tables")
    game = models.OneToOneField(
        "games.Game", on_delete=models.PROTECT, related_name="daylong_table"
    )
    status = models.CharField(
        max_length=10, choices=TableStatus.choices, default=TableStatus.PLAYING, db_index=True
    )
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    total = models.IntegerField(null=True, blank=True)
    matchpoints = models.DecimalField(max_digits=9, decimal_places=2, null=True, blank=True)
    top = models.DecimalField(max_digits=9, decimal_places=2, null=True, blank=True)
    percent = models.DecimalField(max_digits=6, decimal_places=2, null=True, blank=True)

    class Meta:
        ordering = ["entry", "board"]
        constraints = [
            models.UniqueConstraint(fields=["entry", "board"], name="daylong_table_once"),
        ]
        indexes = [models.Index(fields=["instance", "status"], name="daylong_table_instance")]

    def __str__(self) -> str:
        return f"{self.entry} board {self.board_id}"
