"""Helpers for engine tests: deals from readable hands."""

from backalley_engine.actions import parse_action
from backalley_engine.cards import card_mask, parse_card
from backalley_engine.deal import DealState


def hand(text: str) -> int:
    return card_mask(parse_card(c) for c in text.split())


def deal(hands: list[str], upcard: str, dealer: int = 3) -> DealState:
    """A deal from four space-separated hands (seat 0 first); seat dealer+1 bids first."""
    return DealState([hand(h) for h in hands], parse_card(upcard), dealer)


def act(d: DealState, *moves: str) -> None:
    for m in moves:
        d.apply(parse_action(m))


def legal(d: DealState) -> set[str]:
    from backalley_engine.actions import action_str

    return {action_str(a) for a in d.legal_actions()}
