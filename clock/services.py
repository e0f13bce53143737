"""Writes of the clock: follow a game's turns, pause and resume its running clock.

Lock order, everywhere: the game row first (as the games services do), then its
``GameClock``, then its ``SeatClock`` rows. Every function re-reads and is safe to repeat.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from clock import enqueue, timecontrol
from clock.models import GameClock, SeatClock, Vacation
from games.models import Game, GameStatus, Move, Seat, SubmittedBy

logger = logging.getLogger(__name__)

# A turn's timeout and reminder due within this long are enqueued as tasks with that ETA;
# kept well under the broker's visibility timeout (an hour), past which Redis hands an
# unacknowledged ETA task out again.
ETA_HORIZON = timedelta(minutes=30)


def on_vacation(player_id: int, at: datetime) -> Vacation | None:
    """The player's vacation running at ``at``, if any."""
    return (
        Vacation.objects.filter(
            player_id=player_id, ended_at__isnull=True, started_at__lte=at, planned_end__gt=at
        )
        .order_by("-started_at")
        .first()
    )


def turn_start_time(game: Game) -> datetime:
    """A turn starts when the move before it was committed (or when the game started)."""
    started = game.last_move_at if game.move_count else game.started_at
    assert started is not None
    return started


def plan_turn(
    game: Game, period: timedelta, reserve_left: timedelta, abandoned: bool
) -> timecontrol.TurnTimes:
    """The times of the turn the game is at now (the seat to act)."""
    start = turn_start_time(game)
    if abandoned:
        return timecontrol.abandoned_turn(start)
    return timecontrol.turn_times(start, period, reserve_left)


def _create_clock(game: Game, tc: timecontrol.TimeControl) -> GameClock:
    clock = GameClock.objects.create(
        game=game, seconds_per_move=tc.seconds_per_move, bank_seconds=tc.bank_seconds
    )
    SeatClock.objects.bulk_create(
        SeatClock(
            game_clock=clock,
            position=seat.position,
            player_id=seat.player_id,
            reserve_left=tc.bank,
        )
        for seat in Seat.objects.filter(game=game).order_by("position")
    )
    return clock


def _settle(clock: GameClock, game: Game, seat_clocks: dict[int, SeatClock]) -> None:
    """Close the turn that was running: charge the reserve and, for a move the seat's
    player (or their bot) made, reset its timeouts in a row."""
    if clock.turn_seq is None or clock.turn_seat is None or clock.deadline is None:
        return
    move = (
        Move.objects.filter(game=game, seq=clock.turn_seq + 1)
        .only("seat", "submitted_by", "created_at")
        .first()
    )
    if move is None or move.seat != clock.turn_seat or move.submitted_by == SubmittedBy.SYSTEM:
        return  # a substituted move: the sweeper already did the bookkeeping
    seat_clock = seat_clocks[clock.turn_seat]
    moved_at = move.created_at
    if clock.paused_at is not None:  # moved while on vacation: the pause stops the clock
        moved_at = min(moved_at, clock.paused_at)
    spent = timecontrol.reserve_used(moved_at, clock.deadline, seat_clock.reserve_left)
    if spent or seat_clock.consecutive_timeouts:
        seat_clock.reserve_left -= spent
        seat_clock.consecutive_timeouts = 0
        seat_clock.save(update_fields=["reserve_left", "consecutive_timeouts"])


def clock_sync(*, game_id: int) -> GameClock | None:
    """Bring a game's clock up to its move log: settle the turn just played and start the
    next one. Games without a time control have no clock (None)."""
    options = Game.objects.filter(pk=game_id).values_list("options", flat=True).first()
    if not isinstance(options, dict) or not options.get("time_control"):
        return None  # an untimed game: no lock taken on its move path
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.time_control is None or game.started_at is None:
            return None
        clock = GameClock.objects.select_for_update().filter(game=game).first()
        if clock is None:
            clock = _create_clock(game, timecontrol.time_control_parse(game.time_control))
        if clock.turn_seq == game.move_count and (
            clock.turn_seat == game.to_act or game.status != GameStatus.ACTIVE
        ):
            return clock  # already in step
        # The seat whose turn ends and the seat whose turn starts (often the same one row).
        wanted = {p for p in (clock.turn_seat, game.to_act) if p is not None}
        seat_clocks = {
            sc.position: sc
            for sc in SeatClock.objects.select_for_update()
            .filter(game_clock=clock, position__in=wanted)
            .order_by("position")
        }
        _settle(clock, game, seat_clocks)
        clock.turn_seq = game.move_count
        fields = [
            "turn_seq",
            "turn_seat",
            "turn_started_at",
            "deadline",
            "expires_at",
            "remind_at",
            "paused_at",
        ]
        if game.status != GameStatus.ACTIVE or game.to_act is None:
            clock.turn_seat = clock.turn_started_at = clock.deadline = None
            clock.expires_at = clock.remind_at = clock.paused_at = None
            clock.save(update_fields=fields)
            return clock
        seat = Seat.objects.get(game=game, position=game.to_act)
        seat_clock = seat_clocks[game.to_act]
        abandoned = seat.abandoned_at is not None
        times = plan_turn(game, clock.period, seat_clock.reserve_left, abandoned)
        clock.turn_seat = game.to_act
        clock.turn_started_at = times.started_at
        clock.deadline, clock.expires_at, clock.remind_at = (
            times.deadline,
            times.expires_at,
            times.remind_at,
        )
        away = None if abandoned else on_vacation(seat.player_id, times.started_at)
        clock.paused_at = times.started_at if away is not None else None
        clock.save(update_fields=fields)
        if abandoned:
            _enqueue_substitute(game.pk, game.move_count)
        else:
            schedule_turn(clock)
        return clock


def schedule_turn(clock: GameClock, *, now: datetime | None = None) -> None:
    """Enqueue, on commit, the running turn's own tasks: its timeout at ``expires_at`` and
    its reminder at ``remind_at``, each when it is still to come and due within
    ``ETA_HORIZON`` (so a live game's two minutes are kept to the second, not to the
    sweeper's minute). Later ones, and any already past, are left to the beat's sweeps,
    which stay the fallback for every turn: a task lost, or run before its time, costs at
    most a minute. A paused clock schedules nothing (its resume does)."""
    if clock.paused_at is not None or clock.turn_seq is None:
        return
    now = now or timezone.now()
    horizon = now + ETA_HORIZON
    due = [(enqueue.EXPIRE_TURN, "expire", clock.expires_at)]
    if clock.reminded_seq != clock.turn_seq:
        due.append((enqueue.REMIND_TURN, "remind", clock.remind_at))
    for name, what, at in due:
        if at is None or at <= now or at > horizon:
            continue
        enqueue.on_commit(
            name,
            args=(clock.game_id, clock.turn_seq),
            # The same turn rescheduled (a resume) is new work: the time is in its id.
            task_id=f"clock-{what}:{clock.game_id}:{clock.turn_seq}:{int(at.timestamp())}",
            eta=at,
        )


def _enqueue_substitute(game_id: int, seq: int) -> None:
    enqueue.on_commit(
        enqueue.PLAY_ABANDONED_SEAT, args=(game_id, seq), task_id=f"clock-abandoned:{game_id}:{seq}"
    )


def clock_pause(*, game_id: int, player_id: int, at: datetime) -> bool:
    """Pause the game's running clock from ``at`` if it waits on ``player_id``."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        clock = GameClock.objects.select_for_update().filter(game_id=game_id).first()
        if game is None or clock is None or clock.paused_at is not None:
            return False
        if clock.turn_seq != game.move_count or clock.turn_seat is None:
            return False  # the turn changed: its sync looks at the vacation itself
        if not SeatClock.objects.filter(
            game_clock=clock, position=clock.turn_seat, player_id=player_id
        ).exists():
            return False
        if Seat.objects.filter(
            game=game, position=clock.turn_seat, abandoned_at__isnull=False
        ).exists():
            return False
        clock.paused_at = max(at, clock.turn_started_at or at)
        clock.save(update_fields=["paused_at"])
        return True


def clock_resume(*, game_id: int, at: datetime) -> bool:
    """Restart a paused clock at ``at``: its deadlines move on by the time it was paused."""
    with transaction.atomic():
        Game.objects.select_for_update().filter(pk=game_id).first()
        clock = GameClock.objects.select_for_update().filter(game_id=game_id).first()
        if clock is None or clock.paused_at is None:
            return False
        shift = max(at - clock.paused_at, timedelta(0))
        for name in ("deadline", "expires_at", "remind_at"):
            value = getattr(clock, name)
            if value is not None:
                setattr(clock, name, value + shift)
        clock.paused_at = None
        clock.save(update_fields=["deadline", "expires_at", "remind_at", "paused_at"])
        schedule_turn(clock, now=at)
        return True
