"""The house bot that moves for a seat out of time is the heuristic strategy."""

from __future__ import annotations

from backalley_engine.state import GameState
from bots import strategies
from clock import substitute

SEED = "ab" * 32


def test_the_substitute_move_is_the_heuristic_strategys_legal_choice() -> None:
    state = GameState.new(SEED)
    for step in range(12):
        seat = state.seat_to_act
        assert seat is not None
        before = state.move_count
        action = substitute.house_action(state, seat, rng_seed=step)
        assert state.move_count == before  # the state it was shown is left as it was
        assert action in state.legal_actions()
        assert action == strategies.choose_action("heuristic", {}, state.clone(), seat, step)
        state.apply(action, seat=seat)
