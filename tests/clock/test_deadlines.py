"""Deadlines through time: the running clock, the reserve, timeouts and abandonment."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine

from clock.models import GameClock, Notification, SeatClock
from clock.selectors import clock_info
from clock.sweeper import idempotency_key, sweep
from games.models import Game, Move, Seat, SubmittedBy
from tests.clock.helpers import DAY, T0, play, timed_game
from tests.games.conftest import client_for

pytestmark = pytest.mark.django_db(transaction=True)


def seat_clock(game: Game, position: int) -> SeatClock:
    return SeatClock.objects.get(game_clock__game=game, position=position)


def play_until(game_id: int, seat: int) -> None:
    """The other seats move (promptly, through the services) until ``seat`` is to act."""
    for _ in range(12):
        if Game.objects.get(pk=game_id).to_act == seat:
            return
        play(game_id)
    raise AssertionError(f"seat {seat} never came to act")


def test_game_view_and_events_carry_the_running_deadline() -> None:
    with time_machine.travel(T0, tick=False):
        game = timed_game(days=2, reserve=1)
        client = client_for(game.seats.get(position=0).player.user)
        body = client.get(f"/api/v1/games/{game.public_id}/").json()
        events = client.get(f"/api/v1/games/{game.public_id}/events/").json()
    clock = body["clock"]
    assert clock["days_per_move"] == 2 and clock["reserve_days"] == 1
    assert clock["running"]["seat"] == game.to_act
    assert clock["running"]["deadline"] == (T0 + 2 * DAY).isoformat()
    assert clock["running"]["final_deadline"] == (T0 + 3 * DAY).isoformat()
    assert clock["running"]["paused"] is False
    assert [s["reserve_left_seconds"] for s in clock["seats"]] == [86400] * 4
    assert events["clock"] == clock


def test_only_the_seat_to_act_has_a_running_clock_and_it_restarts_each_move() -> None:
    with time_machine.travel(T0, tick=False) as traveller:
        game = timed_game(days=3)
        first = game.to_act
        traveller.move_to(T0 + timedelta(hours=5))
        play(game.pk)
        game.refresh_from_db()
    assert game.to_act != first
    stored = GameClock.objects.get(game=game)
    assert (stored.turn_seq, stored.turn_seat) == (1, game.to_act)
    assert stored.deadline == T0 + timedelta(hours=5) + 3 * DAY
    assert stored.remind_at == T0 + timedelta(hours=5) + 3 * DAY * 0.8
    running = clock_info(game)["running"]  # type: ignore[index]
    assert running["seat"] == game.to_act
    assert running["deadline"] == stored.deadline.isoformat()


def test_an_untimed_game_has_no_clock() -> None:
    from games.services import game_create
    from tests.factories import PlayerFactory

    players = [PlayerFactory() for _ in range(4)]
    game = game_create(creator=players[0], seats=players, options={"rated": False})
    play(game.pk)
    assert not GameClock.objects.filter(game=game).exists()
    assert clock_info(Game.objects.get(pk=game.pk)) is None


def test_the_sweeper_uses_the_reserve_first_then_the_house_bot_moves() -> None:
    with time_machine.travel(T0, tick=False) as traveller:
        game = timed_game(days=1, reserve=2)
        seat = game.to_act
        assert seat is not None
        traveller.move_to(T0 + DAY + timedelta(hours=1))  # past the deadline, inside the bank
        assert sweep().moved == []
        assert Game.objects.get(pk=game.pk).move_count == 0
        traveller.move_to(T0 + 3 * DAY + timedelta(seconds=1))  # the bank is spent too
        report = sweep()
    assert report.moved == [(game.pk, 1)]
    move = Move.objects.get(game=game, seq=1)
    assert move.seat == seat
    assert move.submitted_by == SubmittedBy.SYSTEM
    assert move.actor is None
    assert move.idempotency_key == idempotency_key(game.pk, 0)
    sc = seat_clock(game, seat)
    assert (sc.consecutive_timeouts, sc.timeouts, sc.reserve_left) == (1, 1, timedelta(0))
    note = Notification.objects.get(player=sc.player)
    assert note.kind == "timeout" and game.public_id in note.title
    # The next seat's turn started when the house bot moved.
    stored = GameClock.objects.get(game=game)
    assert stored.turn_seq == 1 and stored.turn_started_at == T0 + 3 * DAY + timedelta(seconds=1)


def test_a_late_move_spends_that_much_of_the_reserve() -> None:
    with time_machine.travel(T0, tick=False) as traveller:
        game = timed_game(days=2, reserve=1)
        seat = game.to_act
        assert seat is not None
        traveller.move_to(T0 + 2 * DAY + timedelta(hours=6))
        play(game.pk)
    sc = seat_clock(game, seat)
    assert sc.reserve_left == timedelta(hours=18)
    assert sc.consecutive_timeouts == 0


def test_a_move_by_the_player_resets_the_timeouts_in_a_row() -> None:
    with time_machine.travel(T0, tick=False) as traveller:
        game = timed_game(days=1)
        seat = game.to_act
        assert seat is not None
        traveller.shift(DAY + timedelta(minutes=1))
        sweep()
        assert seat_clock(game, seat).consecutive_timeouts == 1
        play_until(game.pk, seat)
        play(game.pk)  # the player is back in time
        assert seat_clock(game, seat).consecutive_timeouts == 0
        assert seat_clock(game, seat).timeouts == 1


def test_three_timeouts_in_a_row_abandon_the_seat_and_the_house_bot_takes_it() -> None:
    with time_machine.travel(T0, tick=False) as traveller:
        game = timed_game(days=1)
        leaver = game.to_act
        assert leaver is not None
        for n in (1, 2, 3):
            play_until(game.pk, leaver)
            traveller.shift(DAY + timedelta(minutes=1))
            report = sweep()
            assert len(report.moved) == 1
            assert report.abandoned == ([(game.pk, leaver)] if n == 3 else [])
        seat = Seat.objects.get(game=game, position=leaver)
        assert seat.abandoned_at is not None
        assert seat_clock(game, leaver).consecutive_timeouts == 3
        # From now on the house bot answers the abandoned seat at once, without a sweep:
        # the people move, and the leaver's turn is never left waiting.
        start = Game.objects.get(pk=game.pk).move_count
        for _ in range(8):
            play(game.pk)
            assert Game.objects.get(pk=game.pk).to_act != leaver
    game.refresh_from_db()
    answered = Move.objects.filter(game=game, seq__gt=start, seat=leaver)
    assert answered.exists()
    assert set(answered.values_list("submitted_by", flat=True)) == {SubmittedBy.SYSTEM}
    info = clock_info(game)
    assert info is not None and info["seats"][leaver]["abandoned"] is True
    titles = list(Notification.objects.filter(player=seat.player).values_list("title", flat=True))
    assert any("taken your seat" in t for t in titles)


def test_a_failed_clock_sync_is_delivered_again_by_the_relay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from clock.hooks import follow_game
    from clock.tasks import sync_clock
    from games import hooks as game_hooks
    from games import outbox

    with time_machine.travel(T0, tick=False) as traveller:
        game = timed_game(days=1)

        def broker_down(*args: object, **kwargs: object) -> None:
            raise ConnectionError("broker unreachable")

        with monkeypatch.context() as m:
            m.setattr(sync_clock, "apply_async", broker_down)
            traveller.shift(timedelta(hours=2))
            play(game.pk)
        assert GameClock.objects.get(game=game).turn_seq == 0  # behind the log
        assert outbox.relay() == 0  # not due yet: the committing process had its try
        traveller.shift(timedelta(minutes=1))
        assert outbox.relay() == 1
        stored = GameClock.objects.get(game=game)
        assert stored.turn_seq == 1 and stored.deadline == T0 + timedelta(hours=2) + DAY
        traveller.shift(DAY + timedelta(minutes=1))
        assert sweep().moved == [(game.pk, 2)]
    assert game_hooks.registered(follow_game, "game_started")
    assert game_hooks.registered(follow_game, "move_committed")


def test_one_game_failing_does_not_stop_the_sweep_for_the_others(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bots.brain import turn_seed
    from clock import substitute

    with time_machine.travel(T0, tick=False) as traveller:
        broken, fine = timed_game(days=1), timed_game(days=1)
        assert broken.to_act is not None
        poisoned = turn_seed(broken.pk, 0, broken.to_act)  # the broken game's first turn
        real = substitute.house_action

        def flaky(state: Any, seat: int, rng_seed: int) -> int:
            if rng_seed == poisoned:
                raise RuntimeError("strategy crashed")
            return real(state, seat, rng_seed)

        monkeypatch.setattr(substitute, "house_action", flaky)
        traveller.shift(DAY + timedelta(minutes=1))
        report = sweep()
    assert report.moved == [(fine.pk, 1)] and report.skipped == 1
    assert Game.objects.get(pk=broken.pk).move_count == 0  # nothing half-written
    assert SeatClock.objects.get(game_clock__game=broken, position=broken.to_act).timeouts == 0
