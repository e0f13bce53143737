"""The correspondence clock: per-game time control, the running turn, reserves, vacations,
reminders and in-app notifications.

Only the seat to act has a running clock, so the running turn lives on :class:`GameClock`
(one row per game); what each seat carries from turn to turn (its reserve bank, its
timeouts in a row) lives on :class:`SeatClock`. That a player abandoned a game is marked on
the game's own seat (``games.Seat.abandoned_at``), where the ladder reads it.
"""

from __future__ import annotations

from datetime import timedelta

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy

MIN_SECONDS_PER_MOVE = 60  # one minute
MAX_SECONDS_PER_MOVE = 14 * 86400  # 14 days
MAX_BANK_SECONDS = 30 * 86400  # 30 days


class GameClock(models.Model):
    """A game's time control and its one running clock (the seat to act)."""

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="clock")
    seconds_per_move = models.PositiveIntegerField(
        validators=[
            MinValueValidator(MIN_SECONDS_PER_MOVE),
            MaxValueValidator(MAX_SECONDS_PER_MOVE),
        ]
    )
    bank_seconds = models.PositiveIntegerField(
        default=0,
        validators=[MaxValueValidator(MAX_BANK_SECONDS)],
        help_text="The bank each seat starts the game with.",
    )
    # The running turn: the game's move count when it began and the seat it waits on.
    # turn_seq lags behind the game's move_count only between a move's commit and the
    # clock's after-commit sync (or when a sync was lost: the sweeper repairs it).
    turn_seq = models.PositiveIntegerField(null=True, blank=True)
    turn_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(
        null=True, blank=True, help_text="When the move's own time runs out."
    )
    expires_at = models.DateTimeField(
        null=True, blank=True, db_index=True, help_text="The deadline plus the seat's reserve."
    )
    remind_at = models.DateTimeField(null=True, blank=True, db_index=True)
    reminded_seq = models.PositiveIntegerField(null=True, blank=True)
    paused_at = models.DateTimeField(
        null=True, blank=True, help_text="Set while the player to act is on vacation."
    )

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(
                    seconds_per_move__gte=MIN_SECONDS_PER_MOVE,
                    seconds_per_move__lte=MAX_SECONDS_PER_MOVE,
                ),
                name="clock_seconds_per_move_range",
            ),
        ]

    def __str__(self) -> str:
        return f"clock of game {self.game_id}"

    @property
    def period(self) -> timedelta:
        return timedelta(seconds=self.seconds_per_move)


class SeatClock(models.Model):
    """What a seat carries from turn to turn: its reserve bank and its timeouts in a row."""

    game_clock = models.ForeignKey(GameClock, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField(validators=[MaxValueValidator(3)])
    player = models.ForeignKey("accounts.Player", on_delete=models.PROTECT, related_name="+")
    reserve_left = models.DurationField(default=timedelta(0))
    consecutive_timeouts = models.PositiveSmallIntegerField(default=0)
    timeouts = models.PositiveIntegerField(default=0, help_text="All timeouts in this game.")

    class Meta:
        ordering = ["game_clock", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game_clock", "position"], name="seat_clock_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.game_clock_id}#{self.position}"


class Vacation(models.Model):
    """A player's clocks paused in every game at once, from ``started_at`` until they stop
    it or ``planned_end`` (their balance when they left) is reached."""

    player = models.ForeignKey(
        "accounts.Player", on_delete=models.CASCADE, related_name="vacations"
    )
    started_at = models.DateTimeField()
    planned_end = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    days_charged = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["player", "-started_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["player"], condition=Q(ended_at__isnull=True), name="vacation_one_open"
            ),
        ]

    def __str__(self) -> str:
        return f"vacation of {self.player_id} from {self.started_at:%Y-%m-%d}"


class NotificationKind(models.TextChoices):
    REMINDER = "reminder", gettext_lazy("Your time is running out")
    DIGEST = "digest", gettext_lazy("Daily digest")
    TIMEOUT = "timeout", gettext_lazy("The house bot moved for you")
    INVITATION = "invitation", gettext_lazy("Invitations and their answers")
    CLAIM = "claim", gettext_lazy("Claims waiting for your answer, and their outcome")
    TOGETHER = "together", gettext_lazy("Everyone else is at your table")


class Notification(models.Model):
    """An in-app notification (the same news may also go out by e-mail)."""

    player = models.ForeignKey(
        "accounts.Player", on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=10, choices=NotificationKind.choices)
    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    title = models.CharField(max_length=200)
    body = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["player", "-created_at"], name="notification_player_new")]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.title}"


class NotificationPreference(models.Model):
    """Which notices a player wants, by kind and channel (all on by default)."""

    player = models.OneToOneField(
        "accounts.Player", on_delete=models.CASCADE, related_name="notification_preference"
    )
    reminder_email = models.BooleanField(default=True)
    reminder_inapp = models.BooleanField(default=True)
    digest_email = models.BooleanField(default=True)
    digest_inapp = models.BooleanField(default=True)
    invitation_email = models.BooleanField(default=True)
    invitation_inapp = models.BooleanField(default=True)
    # Pushed to the person's devices (the push app), by kind; a device is added only by the
    # person's own opt-in, so each kind is on until they turn it off.
    turn_push = models.BooleanField(default=True)
    over_push = models.BooleanField(default=True)
    invitation_push = models.BooleanField(default=True)
    claim_push = models.BooleanField(default=True)
    round_push = models.BooleanField(default=True)
    reminder_push = models.BooleanField(default=True)
    # Quiet hours for pushes, in the person's time zone (an IANA name): from ``quiet_from``
    # until ``quiet_until`` (across midnight when the end is the smaller); none when either
    # is empty. A push due then waits until they end.
    quiet_from = models.TimeField(null=True, blank=True)
    quiet_until = models.TimeField(null=True, blank=True)
    time_zone = models.CharField(max_length=64, default="UTC")

    def __str__(self) -> str:
        return f"preferences of {self.player_id}"


class ReminderSent(models.Model):
    """One row per reminder decided: the unique key makes a second sweep, or two racing
    beat ticks, send nothing twice (the insert that loses the race sends nothing)."""

    player = models.ForeignKey("accounts.Player", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=10, choices=NotificationKind.choices)
    key = models.CharField(max_length=64, help_text="reminder: game:seq; digest: the UTC date.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "kind", "key"], name="reminder_sent_once"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.key} to {self.player_id}"


# The person's own choices on a NotificationPreference: what the API shows and takes, and
# what their data export carries.
PREFERENCE_FIELDS: tuple[str, ...] = (
    "reminder_email",
    "reminder_inapp",
    "digest_email",
    "digest_inapp",
    "invitation_email",
    "invitation_inapp",
    "turn_push",
    "over_push",
    "invitation_push",
    "claim_push",
    "round_push",
    "reminder_push",
    "quiet_from",
    "quiet_until",
    "time_zone",
)


class OutgoingMail(models.Model):
    """One e-mail to send: written in the transaction that decides its notice, sent after
    the commit by a worker (``clock.mails``), tried again with backoff until it is sent or
    ``MAIL_MAX_ATTEMPTS`` tries have failed.

    Due while ``next_attempt_at`` is set and has come; a worker claims a row by moving it
    forward (so the beat finds a row whose worker died once that claim has lapsed).
    ``last_error`` is the kind of the last failure (an exception's class, an errno's name),
    never its text: an SMTP server's answer may quote an address or a credential."""

    player = models.ForeignKey("accounts.Player", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=10, choices=NotificationKind.choices)
    address = models.EmailField(max_length=254)
    subject = models.CharField(max_length=255)
    body = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(
        null=True, blank=True, help_text="Empty once sent, or given up after the last try."
    )
    sent_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            # The beat's query: what is due (a partial index, small once mails are sent).
            models.Index(
                fields=["next_attempt_at"],
                condition=Q(next_attempt_at__isnull=False),
                name="outgoing_mail_due",
            ),
        ]

    def __str__(self) -> str:
        return f"mail {self.pk} ({self.kind}) to player {self.player_id}"
