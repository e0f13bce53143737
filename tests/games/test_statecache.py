"""The engine state served without a full replay is the full replay's state."""

from __future__ import annotations

from typing import Any

import pytest

from games import statecache
from games.models import Game
from tests.games.conftest import make_table
from tests.games.helpers import play

pytestmark = pytest.mark.django_db


def test_state_from_snapshot_plus_log_equals_a_full_replay(monkeypatch: Any) -> None:
    game = make_table().game
    full_replays: list[int] = []
    real_replay = statecache.replay

    def counting_replay(g: Game, upto: int | None = None) -> Any:
        full_replays.append(g.move_count)
        return real_replay(g, upto)

    for step in (7, 30, 41, 60):  # mid-bidding, mid-deal, across deal ends
        game = play(game, step)
        statecache.forget()
        monkeypatch.setattr(statecache, "replay", counting_replay)
        served = statecache.state_for(game)
        monkeypatch.setattr(statecache, "replay", real_replay)
        truth = real_replay(game)
        assert served.move_count == game.move_count == truth.move_count
        assert served.history == truth.history
        assert served.record("all") == truth.record("all")
        assert served.legal_actions() == truth.legal_actions()
        assert game.snapshot_seq is not None and game.snapshot_seq <= game.move_count
        # At most one deal's moves are replayed on top of the snapshot.
        assert game.move_count - game.snapshot_seq <= 4 * 13 + 4
    assert full_replays == []


def test_a_snapshot_out_of_step_falls_back_to_a_replay() -> None:
    game = play(make_table().game, 12)
    Game.objects.filter(pk=game.pk).update(snapshot={"version": 1, "moves": 12})
    game.refresh_from_db()
    statecache.forget()
    assert statecache.state_for(game).history == statecache.replay(game).history


def test_the_process_cache_is_keyed_by_move_count() -> None:
    game = play(make_table().game, 3)
    first = statecache.state_for(game)
    assert statecache.state_for(game) is first
    game = play(game, 1)
    second = statecache.state_for(game)
    assert second is not first and second.move_count == first.move_count + 1


def test_a_snapshot_of_another_version_falls_back_to_a_replay() -> None:
    game = play(make_table().game, 60)
    data = dict(game.snapshot)
    data["version"] = 99
    Game.objects.filter(pk=game.pk).update(snapshot=data)
    game.refresh_from_db()
    statecache.forget()
    assert statecache.state_for(game).record("all") == statecache.replay(game).record("all")


def test_a_snapshot_stays_small_and_keeps_the_engine_tables_shared() -> None:
    """A snapshot holds the game's own data only: late in a game it is still a few KB of
    JSON, and the engine's lookup tables come back as the very same shared objects."""
    import hashlib
    import json
    import random

    from backalley_engine import cards
    from backalley_engine.state import GameState

    seed = hashlib.sha256(b"snapshot-size").hexdigest()
    state = GameState.new(seed)
    rng = random.Random(7)
    while state.move_count < 600 or not state.trick:  # late, and mid-trick
        state.apply(rng.choice(state.legal_actions()))
    data = json.loads(json.dumps(statecache.dump(state)))
    assert len(json.dumps(data)) < 64 * 1024
    loaded = statecache.load(data, seed, state.move_count)
    assert loaded is not None
    assert loaded.record("all") == state.record("all")
    assert loaded.legal_actions() == state.legal_actions()
    if loaded.led_list is not None:
        assert any(loaded.led_list is table for table in cards.SUIT_LISTS)
