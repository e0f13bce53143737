"""Helpers for strategy tests: deals from readable hands and the knowledge of one seat."""

from backalley_engine.actions import action_str, parse_action
from backalley_engine.cards import card_mask, parse_card
from backalley_engine.deal import DealState
from bots.strategies.base import heuristic_action
from bots.strategies.knowledge import SeatKnowledge

__all__ = ["act", "deal", "hand", "heuristic_move", "knowledge"]


def hand(text: str) -> int:
    return card_mask(parse_card(c) for c in text.split())


def deal(hands: list[str], upcard: str, dealer: int = 3) -> DealState:
    """A deal from four space-separated hands (seat 0 first); seat dealer+1 bids first."""
    return DealState([hand(h) for h in hands], parse_card(upcard), dealer)


def act(d: DealState, *moves: str) -> None:
    for m in moves:
        d.apply(parse_action(m))


def knowledge(d: DealState) -> SeatKnowledge:
    """What the seat to act knows."""
    return SeatKnowledge.from_deal(d, d.to_act)


def heuristic_move(d: DealState) -> str:
    return action_str(heuristic_action(knowledge(d)))
