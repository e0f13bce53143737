"""Events: plain JSON-able dicts describing what an action caused.

Each has ``type`` and ``private_to`` (a seat, or None when public). They are built only when
a caller passes an ``events`` list to ``GameState.apply``, so the hot path pays nothing.
"""

from __future__ import annotations

from typing import Any

from backalley_engine.actions import bid_json
from backalley_engine.cards import NUM_CARDS, SUITS, card_str, cards_str, mask_to_cards
from backalley_engine.game import DealInfo, GameCore


def trump_str(trump: int | None) -> str | None:
    return None if trump is None else SUITS[trump]


def play_events(game: GameCore, seat: int, action: int) -> list[dict[str, Any]]:
    d = game
    if action >= NUM_CARDS:
        return [{"type": "bid", "private_to": None, "seat": seat, "bid": bid_json(action)}]
    out: list[dict[str, Any]] = [
        {"type": "play", "private_to": None, "seat": seat, "card": card_str(action)}
    ]
    if not d.trick:  # this card completed a trick
        leader, cards, winner = d.tricks[-1]
        out.append(
            {
                "type": "trick",
                "private_to": None,
                "leader": leader,
                "cards": cards_str(cards),
                "winner": winner,
            }
        )
    return out


def deal_start_events(game: GameCore) -> list[dict[str, Any]]:
    d = game
    out: list[dict[str, Any]] = [
        {
            "type": "deal_start",
            "private_to": None,
            "number": game.deal_number,
            "attempt": game.attempt,
            "dealer": d.dealer,
            "hand_size": d.n,
            "upcard": card_str(d.upcard),
            "trump": trump_str(d.trump),
        }
    ]
    swap = game.swap
    if swap is not None:
        out.append(
            {
                "type": "joker_swap",
                "private_to": None,
                "seat": swap.seat,
                "discarded": card_str(swap.discarded),
            }
        )
    for seat in range(4):
        out.append(
            {
                "type": "hand",
                "private_to": seat,
                "seat": seat,
                "cards": cards_str(mask_to_cards(d.start_hands[seat])),
            }
        )
    if swap is not None:
        out.append(
            {
                "type": "joker_swap",
                "private_to": swap.seat,
                "seat": swap.seat,
                "discarded": card_str(swap.discarded),
                "drawn": card_str(swap.drawn),
            }
        )
    return out


def deal_end_events(info: DealInfo) -> list[dict[str, Any]]:
    return [
        {
            "type": "deal_end",
            "private_to": None,
            "number": info.number,
            "attempt": info.attempt,
            "status": info.status,
            "tricks_won": list(info.state.team_tricks()),
            "score": list(info.score),
            "totals": list(info.totals),
        }
    ]
