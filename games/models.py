"""What happened in a game: options, seats, the seed, the seeded deals and the move log.

The state of a game is what the engine computes from the seed and the move log. The
``snapshot`` column on :class:`Game` is the engine state as of move ``snapshot_seq`` (taken
at the start of each deal, in the same transaction as the move), so loading a game costs
one snapshot plus at most one deal's moves, never a replay of the whole game. It is never
the only truth (``manage.py verify_games`` checks it against a full replay).
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy

from backalley_engine.schedule import Schedule

SEAT_POSITIONS = (0, 1, 2, 3)


def new_public_id() -> str:
    """A short, unguessable id for URLs (``g_`` + 10 URL-safe characters)."""
    return "g_" + secrets.token_urlsafe(8)[:10]


class Team(models.Model):
    """A partnership of two players, kept across games for pair statistics.

    The pair is unordered: it is stored with the lower player id first, so one pair has one row.
    """

    player_low = models.ForeignKey("accounts.Player", on_delete=models.PROTECT, related_name="+")
    player_high = models.ForeignKey("accounts.Player", on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player_low", "player_high"], name="team_unique_pair"),
            models.CheckConstraint(
                condition=Q(player_low__lt=F("player_high")), name="team_pair_ordered"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_low} & {self.player_high}"


class DealSet(models.Model):
    """Games dealt from one seed: duplicate play (a tournament round's tables, an arena
    pair, an event that deals one seed to many tables over a day, or any games created with
    the same given seed). Games share a seed exactly when they share a deal set.

    The seed, and everything derived from it that a seat could not see at the table, stays
    secret while any game of the set is unfinished, and while the set is open (``closed_at``
    empty: more games may still join it). One rule, read through
    :func:`games.dealsets.seed_is_public` (docs/rules.md §8). Create one with
    ``games.services.deal_set_create`` and pass it to ``game_create(deal_set=...)``.
    """

    seed = models.CharField(max_length=64, unique=True)
    commitment = models.CharField(max_length=64)
    # Who deals it, for people reading the admin: "tournament_round", "arena_pair", ...
    kind = models.CharField(max_length=32)
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(
        null=True, blank=True, help_text="No game joins the set after this; empty: still open."
    )

    def __str__(self) -> str:
        return f"{self.kind} {self.commitment[:12]}"


class GameStatus(models.TextChoices):
    WAITING = "waiting", gettext_lazy("Waiting for players")
    ACTIVE = "active", gettext_lazy("Being played")
    FINISHED = "finished", gettext_lazy("Finished")
    ABORTED = "aborted", gettext_lazy("Aborted")


class Game(models.Model):
    """One game of 25 deals between four seats.

    ``options`` holds what was chosen at creation: ``{"rated": bool, "time_control":
    {...} | null}``; ``rated`` is mirrored in its own column so the ladder can filter on it.
    """

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id)
    status = models.CharField(
        max_length=10, choices=GameStatus.choices, default=GameStatus.WAITING, db_index=True
    )
    options = models.JSONField(default=dict, blank=True)
    rated = models.BooleanField(default=False)
    creator = models.ForeignKey(
        "accounts.Player",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="created_games",
    )
    # The seed stays secret until the game ends (and every game of its deal set with it);
    # the commitment (SHA-256 of it) is public.
    seed = models.CharField(max_length=64)
    deal_set = models.ForeignKey(
        DealSet, on_delete=models.PROTECT, null=True, blank=True, related_name="games"
    )
    commitment = models.CharField(max_length=64)
    first_dealer = models.PositiveSmallIntegerField(validators=[MaxValueValidator(3)])

    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True, db_index=True)
    last_move_at = models.DateTimeField(null=True, blank=True)

    # Kept in step with the move log on every move (same transaction).
    move_count = models.PositiveIntegerField(default=0)
    to_act = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Seat whose turn it is; empty unless active."
    )
    deal_number = models.PositiveSmallIntegerField(default=0)
    snapshot = models.JSONField(
        null=True,
        blank=True,
        editable=False,
        help_text="The engine's plain-data checkpoint as of move snapshot_seq (a cache; "
        "see games.statecache).",
    )
    snapshot_seq = models.PositiveIntegerField(null=True, blank=True, editable=False)
    # Seats with a queued premove, as a bitmask (bit s = seat s), kept with the Premove rows
    # so that a move with none queued (nearly all) pays no look-up for them.
    premove_seats = models.PositiveSmallIntegerField(default=0, editable=False)

    # The result, once finished: totals by team (team 0 = seats 0 and 2) and the winner
    # (0, 1, or empty for a draw).
    total_0 = models.IntegerField(null=True, blank=True)
    total_1 = models.IntegerField(null=True, blank=True)
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    team_0 = models.ForeignKey(
        Team, on_delete=models.PROTECT, null=True, blank=True, related_name="games_as_team_0"
    )
    team_1 = models.ForeignKey(
        Team, on_delete=models.PROTECT, null=True, blank=True, related_name="games_as_team_1"
    )
    # A fork (games.forks): the finished game it was forked from, and how many of that
    # game's moves its log begins with (copies, ``submitted_by`` "fork"). Empty otherwise.
    forked_from = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="forks"
    )
    forked_at_move = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "-created_at"], name="game_status_created")]
        constraints = [
            models.CheckConstraint(
                condition=Q(winner__isnull=True) | Q(winner__in=[0, 1]), name="game_winner_team"
            ),
        ]

    def __str__(self) -> str:
        return self.public_id

    @property
    def totals(self) -> tuple[int, int] | None:
        if self.total_0 is None or self.total_1 is None:
            return None
        return (self.total_0, self.total_1)

    @property
    def schedule(self) -> Schedule:
        """The deals the game plays: all 25, or a run of them (a short game, ``"schedule"``
        in its options, docs/rules.md §2). Part of its rules: every replay deals by it."""
        return Schedule.from_json((self.options or {}).get("schedule"))

    @property
    def time_control(self) -> dict[str, Any] | None:
        tc = (self.options or {}).get("time_control")
        return tc if isinstance(tc, dict) else None


class Seat(models.Model):
    """A player in a position (0..3) of a game; partners sit opposite (0 & 2, 1 & 3)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(0), MaxValueValidator(3)]
    )
    player = models.ForeignKey("accounts.Player", on_delete=models.PROTECT, related_name="seats")
    joined_at = models.DateTimeField(auto_now_add=True)
    # Set by the clock after three timeouts in a row; the ladder rates the leaver as a loss.
    abandoned_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_unique_position"),
            models.UniqueConstraint(fields=["game", "player"], name="seat_unique_player"),
            models.CheckConstraint(condition=Q(position__lte=3), name="seat_position_range"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.position}: {self.player_id}"


class SeededDeal(models.Model):
    """One deal as the seed made it, stored for audit when the game reaches it.

    ``hands`` are the four hands (card text) as held when bidding began; ``joker_swap`` is
    ``{"seat", "discarded", "drawn"}`` or empty. Secret until the game ends.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField()
    attempt = models.PositiveSmallIntegerField()
    dealer = models.PositiveSmallIntegerField()
    hand_size = models.PositiveSmallIntegerField()
    upcard = models.CharField(max_length=3)
    hands = models.JSONField()
    joker_swap = models.JSONField(null=True, blank=True)
    first_seq = models.PositiveIntegerField(help_text="The move count when this deal was dealt.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "first_seq", "number", "attempt"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "number", "attempt"], name="seeded_deal_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} deal {self.number}.{self.attempt}"


class SubmittedBy(models.TextChoices):
    PLAYER = "player", gettext_lazy("The seat's player")
    BOT = "bot", gettext_lazy("A bot")
    SYSTEM = "system", gettext_lazy("The system (substitution)")
    AUTO = "auto", gettext_lazy("The service: a forced action or a settled deal")
    PREMOVE = "premove", gettext_lazy("The seat's premove, played when its turn came")
    FORK = "fork", gettext_lazy("Copied from the game this one was forked from")


class Move(models.Model):
    """The append-only move log: ``seq`` runs 1, 2, 3, … per game with no gap.

    ``action`` is the engine's JSON form ({"bid": 3} / {"card": "AS"}); ``action_code`` the
    engine's int, used to replay. ``response`` is the body answered to the submitter, so a
    retried request with the same ``idempotency_key`` gets the same answer.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    action_code = models.PositiveSmallIntegerField()
    submitted_by = models.CharField(max_length=7, choices=SubmittedBy.choices)
    actor = models.ForeignKey(
        "accounts.Player",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="The player (or bot) who made the move; empty for the system.",
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="The authenticated user who sent it, if any.",
    )
    # NULL (not ""): the unique constraint applies only to requests that sent a key.
    idempotency_key = models.CharField(max_length=100, null=True, blank=True)  # noqa: DJ001
    response = models.JSONField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="move_unique_seq"),
            models.UniqueConstraint(
                fields=["game", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="move_unique_idempotency_key",
            ),
            models.CheckConstraint(condition=Q(seq__gte=1), name="move_seq_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq} seat {self.seat}: {self.action}"


class PremoveStatus(models.TextChoices):
    QUEUED = "queued", "Queued: played when the seat's turn comes, if legal then"
    DROPPED = "dropped", "Dropped: it was not legal when the turn came"


class Premove(models.Model):
    """A seat's next action, queued before its turn (docs/rules.md §10, premoves).

    One row per seat at most: queuing again replaces it, and a played premove's row is
    deleted. A premove that was not legal when the turn came stays as ``dropped`` with the
    reason, so that seat (and only that seat) is told why. Private to its seat: nothing
    else reads this table but the seat's own API calls and the move path.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField(validators=[MaxValueValidator(3)])
    action_code = models.PositiveSmallIntegerField()
    # The deal it was queued in (a premove never carries over into the next deal).
    deal_number = models.PositiveSmallIntegerField()
    attempt = models.PositiveSmallIntegerField()
    status = models.CharField(
        max_length=8, choices=PremoveStatus.choices, default=PremoveStatus.QUEUED
    )
    reason_code = models.CharField(max_length=40, blank=True, default="")
    reason = models.CharField(max_length=300, blank=True, default="")
    # The engine's code and details of why it was not legal, so that the reason is retold
    # in the reader's language when it is read (games.messages), not kept in English.
    reason_detail = models.JSONField(blank=True, default=dict)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="premove_one_per_seat"),
            models.CheckConstraint(condition=Q(seat__lte=3), name="premove_seat_range"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seat} premove ({self.status})"


class InvitationStatus(models.TextChoices):
    PENDING = "pending", gettext_lazy("Waiting for an answer")
    ACCEPTED = "accepted", gettext_lazy("Accepted: the seat is taken")
    DECLINED = "declined", gettext_lazy("Declined")
    EXPIRED = "expired", gettext_lazy("Expired unanswered")


class Invitation(models.Model):
    """An offer of one seat in a waiting game to a named player (a person or another
    owner's bot). The seat is held for the invitee until they answer or ``expires_at``
    passes; only an accepted invitation seats them (see :mod:`games.invitations`).

    A pending invitation whose ``expires_at`` has passed is dead whether or not the sweep
    has marked it ``expired`` yet: every read and write checks the time itself.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    position = models.PositiveSmallIntegerField(validators=[MaxValueValidator(3)])
    player = models.ForeignKey(
        "accounts.Player", on_delete=models.CASCADE, related_name="invitations"
    )
    invited_by = models.ForeignKey(
        "accounts.Player", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    status = models.CharField(
        max_length=10, choices=InvitationStatus.choices, default=InvitationStatus.PENDING
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(db_index=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["player", "status"], name="invitation_player_status")]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "position"],
                condition=Q(status="pending"),
                name="invitation_one_pending_per_seat",
            ),
            models.UniqueConstraint(
                fields=["game", "player"],
                condition=Q(status="pending"),
                name="invitation_one_pending_per_player",
            ),
            models.CheckConstraint(condition=Q(position__lte=3), name="invitation_position"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.position} → {self.player_id} ({self.status})"


class AcceptFrom(models.TextChoices):
    NOBODY = "nobody", gettext_lazy("Ask the owner every time")
    ANYONE = "anyone", gettext_lazy("Accept every invitation")
    LISTED = "listed", gettext_lazy("Accept invitations from the listed players")


class InvitationRule(models.Model):
    """A bot owner's standing answer to invitations of their bot: accepted at once from
    anyone, from the listed players only, or (no row, or ``nobody``) asked each time."""

    player = models.OneToOneField(
        "accounts.Player", on_delete=models.CASCADE, related_name="invitation_rule"
    )
    accept_from = models.CharField(
        max_length=8, choices=AcceptFrom.choices, default=AcceptFrom.NOBODY
    )
    listed = models.ManyToManyField("accounts.Player", blank=True, related_name="+")

    def __str__(self) -> str:
        return f"{self.player_id} accepts from {self.accept_from}"


class Event(models.Model):
    """The outbox: one row per domain event, written in the transaction that caused it.

    :mod:`games.outbox` delivers it to every consumer registered in :mod:`games.hooks` and
    sets ``delivered_at`` once all of them have acknowledged it; until then the relay tries
    again from ``next_try_at`` on (which also leaves the committing process a head start).
    Delivered rows are pruned after ``GAMES_EVENTS_KEEP_DAYS`` (``games.tasks.prune``).
    """

    kind = models.CharField(max_length=20)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    public_id = models.CharField(max_length=16)
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    to_act = models.PositiveSmallIntegerField(null=True, blank=True)
    # Whether the seat to act has been abandoned (its player left: timeouts, a deleted
    # account): the house bot plays it (clock/). Known under the move's lock at no cost.
    to_act_abandoned = models.BooleanField(default=False)
    status = models.CharField(max_length=10)
    created_at = models.DateTimeField()
    next_try_at = models.DateTimeField()
    attempts = models.PositiveSmallIntegerField(default=0)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            # The relay's scan: only undelivered rows are in it.
            models.Index(
                fields=["next_try_at"],
                condition=Q(delivered_at__isnull=True),
                name="event_pending",
            ),
            models.Index(fields=["delivered_at"], name="event_delivered"),
        ]

    def __str__(self) -> str:
        return f"{self.kind}:{self.game_id}:{self.seq}"


class EventDelivery(models.Model):
    """One consumer's acknowledgement of an event that is not yet delivered to all.

    Written only when a delivery is partial (a consumer raised), so the retry calls only
    the consumers that have not acknowledged it.
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="deliveries")
    consumer = models.CharField(max_length=200)
    delivered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["event", "consumer"], name="event_delivery_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.event_id} → {self.consumer}"
