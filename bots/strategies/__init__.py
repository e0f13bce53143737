"""Built-in strategies for bot seats (pure Python: no Django, no I/O, no global random).

>>> from backalley_engine.state import GameState
>>> g = GameState.new("00" * 32)
>>> a = choose_action("heuristic", {}, g, g.seat_to_act, seed=1)
>>> a in g.legal_actions()
True

A strategy sees only a :class:`SeatKnowledge` (its own hand and the public table), built
here from the engine state; randomness comes from a ``random.Random`` seeded by the caller.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from typing import Any

from backalley_engine.state import GameState
from bots.strategies.base import HeuristicStrategy, RandomStrategy, Strategy
from bots.strategies.knowledge import SeatKnowledge
from bots.strategies.strong import StrongStrategy

# name -> {param: (default, validator returning the clean value or raising ValueError)}
_Param = tuple[Any, Callable[[str, Any], Any]]


def _int_in(lo: int, hi: int) -> Callable[[str, Any], int]:
    def check(name: str, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise ValueError(f"{name} must be a whole number from {lo} to {hi}, not {value!r}.")
        return value

    return check


def _float_in(lo: float, hi: float) -> Callable[[str, Any], float]:
    def check(name: str, value: Any) -> float:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        if not ok or not math.isfinite(value) or not lo <= value <= hi:
            raise ValueError(
                f"{name} must be a number of seconds from {lo} to {hi}, not {value!r}."
            )
        return float(value)

    return check


PARAMS: dict[str, dict[str, _Param]] = {
    "random": {},
    "heuristic": {},
    "strong": {
        "samples": (48, _int_in(1, 1000)),
        "time_budget": (0.3, _float_in(0.001, 5.0)),
    },
}

STRATEGIES: dict[str, Callable[..., Strategy]] = {
    "random": RandomStrategy,
    "heuristic": HeuristicStrategy,
    "strong": StrongStrategy,
}


def available() -> dict[str, dict[str, Any]]:
    """Each strategy's name -> {param: default}."""
    return {name: {p: spec[0] for p, spec in params.items()} for name, params in PARAMS.items()}


def validate_params(name: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """The params to store for ``name`` (defaults filled in); ValueError says what is wrong."""
    if name not in STRATEGIES:
        raise ValueError(
            f"Unknown strategy {name!r}; choose one of {', '.join(sorted(STRATEGIES))}."
        )
    if not isinstance(params, Mapping):
        raise ValueError("The params are a JSON object.")
    spec = PARAMS[name]
    unknown = sorted(set(params) - set(spec))
    if unknown:
        accepted = ", ".join(sorted(spec)) or "none"
        raise ValueError(
            f"Strategy {name!r} takes no parameter {', '.join(map(str, unknown))} "
            f"(accepted: {accepted})."
        )
    return {
        p: check(p, params[p]) if p in params else default for p, (default, check) in spec.items()
    }


def get_strategy(name: str, params: Mapping[str, Any] | None = None) -> Strategy:
    """A strategy by name with validated params; raises ValueError on bad input."""
    clean = validate_params(name, params or {})
    return STRATEGIES[name](**clean)


def choose_action(
    name: str, params: Mapping[str, Any] | None, state: GameState, seat: int, seed: int
) -> int:
    """The action ``seat`` takes in ``state`` by strategy ``name`` (state is not changed).

    The strategy sees only ``SeatKnowledge.from_state(state, seat)``.
    """
    if state.seat_to_act != seat:
        raise ValueError(f"It is not seat {seat}'s turn.")
    strategy = get_strategy(name, params)
    return strategy.choose(SeatKnowledge.from_state(state, seat), random.Random(seed))


__all__ = [
    "STRATEGIES",
    "PARAMS",
    "HeuristicStrategy",
    "RandomStrategy",
    "SeatKnowledge",
    "Strategy",
    "StrongStrategy",
    "available",
    "choose_action",
    "get_strategy",
    "validate_params",
]
