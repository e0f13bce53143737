"""The strategy interface and the two simple strategies (random, heuristic)."""

from __future__ import annotations

import random
from typing import Protocol

from backalley_engine.cards import card_mask
from backalley_engine.constants import team_of
from backalley_engine.deal import BIDDING
from bots.strategies.heuristic import choose_bid, choose_card
from bots.strategies.knowledge import SeatKnowledge


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


def heuristic_action(info: SeatKnowledge) -> int:
    """The heuristic's action for ``info`` (deterministic)."""
    _require_turn(info)
    tm = info.trump_mask
    if info.phase == BIDDING:
        return choose_bid(
            info.hand, tm, info.hand_size, info.unseen, info.seat, info.dealer, info.bids
        )
    team = team_of(info.seat)
    our_board = info.contracts()[team][1] > 0
    return choose_card(
        info.seat,
        info.hand,
        card_mask(info.legal),
        info.trick,
        info.trick_leader,
        tm,
        info.unseen,
        our_board,
    )


class HeuristicStrategy:
    """Bids from an estimate of its tricks; plays by simple card sense (see ``heuristic``)."""

    name = "heuristic"

    def choose(self, info: SeatKnowledge, rng: random.Random) -> int:
        return heuristic_action(info)
