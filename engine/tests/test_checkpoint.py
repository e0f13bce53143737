"""A checkpoint is plain data that resumes to the very same game."""

from __future__ import annotations

import json
import random

import pytest

from backalley_engine.checkpoint import CheckpointError
from backalley_engine.state import GameState

SEED = "c4" * 32


def _random_game(seed: str, rng: random.Random, moves: int | None = None) -> GameState:
    g = GameState.new(seed)
    while not g.is_terminal() and (moves is None or g.move_count < moves):
        g.apply(rng.choice(g.legal_actions()))
    return g


def test_a_checkpoint_resumes_to_the_same_game_at_every_move() -> None:
    rng = random.Random(5)
    g = GameState.new(SEED)
    while True:
        data = json.loads(json.dumps(g.checkpoint()))  # plain data: survives JSON
        r = GameState.resume(SEED, data)
        assert r.record("all") == g.record("all")
        assert r.view(r.seat_to_act) == g.view(g.seat_to_act)
        assert r.legal_actions() == g.legal_actions()
        if g.is_terminal():
            assert r.outcome == g.outcome and r.seat_to_act is None
            break
        action = rng.choice(g.legal_actions())
        g.apply(action)
        r.apply(action)  # the resumed game goes on exactly like the original
        assert r.record("all") == g.record("all")


def test_a_resumed_game_refuses_what_the_original_refuses() -> None:
    g = _random_game(SEED, random.Random(2), moves=300)
    while not g.trick:
        g.apply(g.legal_actions()[0])
    r = GameState.resume(SEED, g.checkpoint())
    illegal = [c for c in range(54) if c not in g.legal_actions()]
    for c in illegal[:10]:
        with pytest.raises(Exception) as a:
            g.clone().apply(c)
        with pytest.raises(Exception) as b:
            r.clone().apply(c)
        assert type(a.value) is type(b.value)


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(version=2),
        lambda d: d.update(commitment="00" * 32),
        lambda d: d.pop("current"),
        lambda d: d.update(moves=d["moves"] + 1),
        lambda d: d["current"].update(trick="x"),
    ],
)
def test_an_unreadable_checkpoint_is_refused(change) -> None:  # type: ignore[no-untyped-def]
    data = _random_game(SEED, random.Random(3), moves=40).checkpoint()
    change(data)
    with pytest.raises(CheckpointError):
        GameState.resume(SEED, data)
