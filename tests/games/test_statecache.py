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
    Game.objects.filter(pk=game.pk).update(snapshot=b"BAS1garbage")
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
