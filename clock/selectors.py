"""Reads of the clock: what a game's clock shows, who abandoned, a player's notifications."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db.models import QuerySet

from accounts.models import Player
from clock import services, timecontrol
from clock.models import GameClock, Notification, SeatClock, Vacation
from games.errors import BadGameSetup
from games.models import Game, GameStatus, Seat


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def _seconds(value: timedelta) -> int:
    return int(value.total_seconds())


def clock_info(game: Game) -> dict[str, Any] | None:
    """The game's clock as every seat may see it (None for a game without a time control).

    ``running`` is the turn of the seat to act: its ``deadline`` (the move's own time),
    ``final_deadline`` (with the seat's reserve; the house bot moves then) and whether it
    is ``paused`` (the player is on vacation). ``seats`` shows each seat's reserve left,
    timeouts in a row, abandonment and vacation. Right after a move commits, before the
    clock's own sync has run, the running turn is computed the same way the sync will
    store it.
    """
    if not game.time_control:
        return None
    try:
        tc = timecontrol.time_control_parse(game.time_control)
    except BadGameSetup:
        return None
    clock = GameClock.objects.filter(game=game).first()
    seat_clocks: dict[int, SeatClock] = (
        {sc.position: sc for sc in clock.seats.all()} if clock is not None else {}
    )
    seats = list(Seat.objects.filter(game=game).order_by("position"))
    away = {
        v.player_id: v
        for v in Vacation.objects.filter(
            player_id__in=[s.player_id for s in seats], ended_at__isnull=True
        )
    }
    running = None
    if game.status == GameStatus.ACTIVE and game.to_act is not None and game.started_at:
        running = _running(game, clock, seat_clocks, seats, away, tc)
    days = tc.option() if tc.in_days else {}
    return {
        "seconds_per_move": tc.seconds_per_move,
        "bank_seconds": tc.bank_seconds,
        "preset": tc.preset(),
        # The days form, for a control in whole days (null otherwise).
        "days_per_move": days.get("days_per_move"),
        "reserve_days": days.get("reserve_days"),
        "running": running,
        "seats": [
            {
                "position": s.position,
                "reserve_left_seconds": _seconds(
                    seat_clocks[s.position].reserve_left if s.position in seat_clocks else tc.bank
                ),
                "consecutive_timeouts": (
                    seat_clocks[s.position].consecutive_timeouts if s.position in seat_clocks else 0
                ),
                "abandoned": s.abandoned_at is not None,
                "on_vacation": s.player_id in away,
                "vacation_until": _iso(away[s.player_id].planned_end)
                if s.player_id in away
                else None,
            }
            for s in seats
        ],
    }


def _running(
    game: Game,
    clock: GameClock | None,
    seat_clocks: dict[int, SeatClock],
    seats: list[Seat],
    away: dict[int, Vacation],
    tc: timecontrol.TimeControl,
) -> dict[str, Any]:
    seat = next(s for s in seats if s.position == game.to_act)
    if clock is not None and clock.turn_seq == game.move_count and clock.turn_seat == game.to_act:
        started, deadline, final = clock.turn_started_at, clock.deadline, clock.expires_at
        paused_at = clock.paused_at
    else:  # the sync after this move has not run yet: show what it will store
        sc = seat_clocks.get(seat.position)
        reserve = sc.reserve_left if sc is not None else tc.bank
        times = services.plan_turn(game, tc.period, reserve, seat.abandoned_at is not None)
        started, deadline, final = times.started_at, times.deadline, times.expires_at
        vacation = away.get(seat.player_id)
        paused_at = started if vacation is not None and vacation.started_at <= started else None
    return {
        "seat": seat.position,
        "started_at": _iso(started),
        "deadline": _iso(deadline),
        "final_deadline": _iso(final),
        "paused": paused_at is not None,
        # While paused the clock stands still: this much is left when it runs again.
        "time_left_seconds": (
            _seconds(final - paused_at) if paused_at is not None and final is not None else None
        ),
    }


def abandoned_players(game: Game) -> list[int]:
    """Ids of the players who abandoned ``game`` (the ladder rates each as a loss)."""
    return list(
        Seat.objects.filter(game=game, abandoned_at__isnull=False)
        .order_by("position")
        .values_list("player_id", flat=True)
    )


def notifications_for(player: Player, *, unread_only: bool = False) -> QuerySet[Notification]:
    qs = Notification.objects.filter(player=player).select_related("game")
    if unread_only:
        qs = qs.filter(read_at__isnull=True)
    return qs.order_by("-created_at", "-id")
