"""The strategy interface and the two simple strategies (random, heuristic)."""

from __future__ import annotations

import random
from typing import Protocol

from backalley_engine.heuristic import heuristic_action
from bots.strategies.knowledge import SeatKnowledge

__all__ = ["HeuristicStrategy", "RandomStrategy", "Strategy", "heuristic_action"]


class Strategy(Protocol):
    """Picks an engine action for the seat whose knowledge it is given.

    ``info`` is all the strategy may use: the seat's own hand and the public table. ``rng`` is
    the only source of randomness, so a seeded ``rng`` makes the choice reproducible.
    """

    name: str

    def choose(self, info: SeatKnowledge, rng: random.Random) -> int: ...


def _require_turn(info: SeatKnowledge) -> None:
    if not info.legal:
        raise ValueError(f"it is not seat {info.seat}'s turn: there is no action to choose")


class RandomStrategy:
    """A uniformly random legal action."""

    name = "random"

    def choose(self, info: SeatKnowledge, rng: random.Random) -> int:
        _require_turn(info)
        return rng.choice(info.legal)


class HeuristicStrategy:
    """Bids from an estimate of its tricks; plays by simple card sense (the engine's
    ``backalley_engine.heuristic``, where bot authors play against it offline)."""

    name = "heuristic"

    def choose(self, info: SeatKnowledge, rng: random.Random) -> int:
        return heuristic_action(info)
