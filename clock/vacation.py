"""Vacations: days earned by playing, spent pausing every clock at once.

**Days played** are the distinct calendar days (UTC) on which the player made a move
themselves (a move in the log with ``submitted_by = "player"`` and the player as actor;
moves their bots made or the house bot made for them do not count). One vacation day is
earned per eight days played; the days available are what was earned less what was
spent, and never more than 30 at a time.

A vacation is charged by the started day: stopping after 26 hours costs two days. It ends
by itself when the days available at its start run out (the sweeper ends it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import F, Sum
from django.db.models.functions import TruncDate
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Player
from backalley_site.errors import ConflictError, DomainError
from clock import services
from clock.models import GameClock, Vacation
from games.models import GameStatus, Move, SubmittedBy

DAYS_PLAYED_PER_VACATION_DAY = 8
MAX_VACATION_DAYS = 30
DAY = timedelta(days=1)


class NoVacationDays(DomainError):
    code = "no_vacation_days"
    http_status = 400


class AlreadyOnVacation(ConflictError):
    code = "already_on_vacation"


class NotOnVacation(ConflictError):
    code = "not_on_vacation"


@dataclass(frozen=True, slots=True)
class Balance:
    days_played: int
    earned: int
    used: int
    available: int


def days_played(player: Player) -> int:
    return (
        Move.objects.filter(actor=player, submitted_by=SubmittedBy.PLAYER)
        .annotate(day=TruncDate("created_at"))
        .values("day")
        .distinct()
        .count()
    )


def charged_days(started_at: datetime, ended_at: datetime) -> int:
    """Whole days charged for a vacation (any started day counts; at least one).

    >>> from datetime import datetime, UTC
    >>> charged_days(datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 1, 2, 2, tzinfo=UTC))
    2
    """
    return max(1, math.ceil((ended_at - started_at) / DAY))


def balance(player: Player) -> Balance:
    played = days_played(player)
    earned = played // DAYS_PLAYED_PER_VACATION_DAY
    used = (
        Vacation.objects.filter(player=player, ended_at__isnull=False).aggregate(
            n=Sum("days_charged")
        )["n"]
        or 0
    )
    return Balance(played, earned, used, max(0, min(MAX_VACATION_DAYS, earned - used)))


def current_vacation(player: Player) -> Vacation | None:
    return Vacation.objects.filter(player=player, ended_at__isnull=True).first()


def _games_waiting_on(player: Player) -> list[int]:
    return list(
        GameClock.objects.filter(
            game__status=GameStatus.ACTIVE,
            seats__player=player,
            seats__position=F("turn_seat"),
        )
        .order_by("game_id")
        .values_list("game_id", flat=True)
        .distinct()
    )


def vacation_start(*, player: Player, now: datetime | None = None) -> Vacation:
    """Pause the player's clock in every game now waiting on them (and in every turn that
    comes to them until the vacation ends)."""
    now = now or timezone.now()
    with transaction.atomic():
        Player.objects.select_for_update().get(pk=player.pk)  # one vacation change at a time
        if current_vacation(player) is not None:
            raise AlreadyOnVacation(message=_("You are already on vacation."))
        days = balance(player).available
        if days < 1:
            raise NoVacationDays(
                message=(
                    _(
                        "You have no vacation days: you earn one for every %(days_played_per_vacation_day)s days on which you made a move."
                    )
                    % {"days_played_per_vacation_day": DAYS_PLAYED_PER_VACATION_DAY}
                ),
                extra={"available": 0},
            )
        vacation = Vacation.objects.create(
            player=player, started_at=now, planned_end=now + days * DAY
        )
    # Each game is paused in its own short transaction (game row, then clock).
    for game_id in _games_waiting_on(player):
        services.clock_pause(game_id=game_id, player_id=player.pk, at=now)
    return vacation


def vacation_stop(*, player: Player, now: datetime | None = None) -> Vacation:
    """End the player's vacation: their paused clocks run again from ``now``."""
    now = now or timezone.now()
    with transaction.atomic():
        Player.objects.select_for_update().get(pk=player.pk)
        vacation = current_vacation(player)
        if vacation is None:
            raise NotOnVacation(message=_("You are not on vacation."))
        _close(vacation, min(now, vacation.planned_end))
    _resume_games(player, vacation.ended_at or now)
    return vacation


def _close(vacation: Vacation, ended_at: datetime) -> None:
    vacation.ended_at = ended_at
    planned = charged_days(vacation.started_at, vacation.planned_end)
    vacation.days_charged = min(planned, charged_days(vacation.started_at, ended_at))
    vacation.save(update_fields=["ended_at", "days_charged"])


def _resume_games(player: Player, at: datetime) -> None:
    paused = (
        GameClock.objects.filter(
            paused_at__isnull=False, seats__player=player, seats__position=F("turn_seat")
        )
        .order_by("game_id")
        .values_list("game_id", flat=True)
        .distinct()
    )
    for game_id in list(paused):
        services.clock_resume(game_id=game_id, at=at)


def vacations_expire(*, now: datetime | None = None) -> int:
    """End every vacation whose days ran out (the sweeper calls this); returns how many."""
    now = now or timezone.now()
    ended = 0
    due = Vacation.objects.filter(ended_at__isnull=True, planned_end__lte=now).values_list(
        "pk", "player_id"
    )
    for pk, player_id in list(due):
        with transaction.atomic():
            player = Player.objects.select_for_update().get(pk=player_id)
            vacation = Vacation.objects.filter(pk=pk, ended_at__isnull=True).first()
            if vacation is None:
                continue  # stopped meanwhile
            _close(vacation, vacation.planned_end)
        _resume_games(player, vacation.planned_end)
        ended += 1
    return ended
