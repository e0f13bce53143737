"""Helpers for strategy tests: deals from readable hands and the knowledge of one seat."""

from bots.strategies.base import heuristic_action
from bots.strategies.knowledge import SeatKnowledge
from games.engine.actions import action_str
from games.engine.deal import DealState
from tests.engine.helpers import act, deal, hand

__all__ = ["act", "deal", "hand", "heuristic_move", "knowledge"]


def knowledge(d: DealState) -> SeatKnowledge:
    """What the seat to act knows."""
    return SeatKnowledge.from_deal(d, d.to_act)


def heuristic_move(d: DealState) -> str:
    return action_str(heuristic_action(knowledge(d)))
