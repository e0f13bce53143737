"""The hub's read of a woken game: extends the watch's own feed, carries the clock."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from backalley_engine.state import GameState
from games import extensions, feed
from games.live.hub import Hub, _read_snapshot
from tests.games.conftest import Table, make_table
from tests.games.helpers import play


def test_a_snapshot_is_the_whole_feed(table: Table) -> None:
    game = play(table.game, 30)
    snap = _read_snapshot(game.pk, None)
    assert snap.seq == game.move_count == 30
    assert (snap.events, snap.seqs) == feed.events_and_seqs(game)


def test_a_later_snapshot_extends_the_previous_one_without_replaying_the_game(
    table: Table, monkeypatch: pytest.MonkeyPatch, django_assert_num_queries: Any
) -> None:
    game = play(table.game, 20)
    first = _read_snapshot(game.pk, None)
    game = play(game, 15)
    expected = feed.events_and_seqs(game)
    # However many other games pushed it out of the process's small cache, a watched game
    # is extended from its watch's entry: the engine never starts it over.
    feed.forget()

    def no_replay(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the game was replayed from its first move")

    monkeypatch.setattr(GameState, "new", no_replay)
    with django_assert_num_queries(2):  # the game row and the new moves (no clock to read)
        later = _read_snapshot(game.pk, first)
    assert (later.events, later.seqs) == expected
    assert later.seq == 35
    assert first.seq == 20 and len(first.events) < len(later.events)  # the first is unchanged


def test_a_snapshot_carries_the_clock_as_of_its_read(db: Any) -> None:
    table = make_table(time_control={"days_per_move": 2, "reserve_days": 3})
    game = play(table.game, 5)
    snap = _read_snapshot(game.pk, None)
    assert snap.clock is not None and snap.clock["running"]["seat"] == game.to_act
    assert snap.clock == extensions.game_part("clock", game)
    assert snap.timed  # so a long poll that ends without news reads the clock afresh


def test_a_game_without_a_clock_is_known_as_such(db: Any) -> None:
    table = make_table()
    snap = _read_snapshot(table.game.pk, None)
    assert snap.clock is None and not snap.timed  # nothing to read when a long poll ends


def test_a_game_that_is_gone_reads_as_gone(db: Any) -> None:
    assert _read_snapshot(10**9, None).status == "gone"


def test_a_wait_ends_at_its_timeout_or_at_the_next_wake_up() -> None:
    async def scenario() -> tuple[float, float, bool]:
        loop = asyncio.get_running_loop()
        hub = Hub(loop, inline=True)
        watch = hub.watch(7)
        started = loop.time()
        await hub._until(watch, watch.changed, 0.05)  # nothing happens: back at the timeout
        timed_out = loop.time() - started
        changed = watch.changed
        loop.call_later(0.01, hub.wake, 7, 1, "active")
        started = loop.time()
        await hub._until(watch, changed, 30.0)  # woken long before the timeout
        return timed_out, loop.time() - started, changed.done() and not watch.changed.done()

    timed_out, woken, replaced = asyncio.run(scenario())
    assert 0.05 <= timed_out < 1.0
    assert woken < 1.0
    assert replaced  # the wake-up finished this generation and opened the next


def test_long_waits_are_spread_so_polls_begun_together_come_back_apart() -> None:
    from games.api.events import SPREAD, _spread

    waits = [_spread(55) for _ in range(200)]
    assert all(55 * SPREAD <= w <= 55 for w in waits)
    assert max(waits) - min(waits) > 55 * (1 - SPREAD) / 2  # really spread, not one value
    assert _spread(5) == 5.0 and _spread(0) == 0.0  # a short wait is kept as asked
