"""What one seat (or a spectator) may see of a game, as plain data (docs/rules.md §8).

Public: dealer, hand size, deal number, upcard and trump, the discarded joker and its
discarder, bids, cards played, tricks won, scores, whose turn, the commitment. Private: a
seat's own hand and the card it drew for a joker. The seed only once the game is over, and
not even then while ``reveal`` is False (a seed dealt to other games still in play).
"""

from __future__ import annotations

from typing import Any

from backalley_engine.actions import action_str, bid_json
from backalley_engine.cards import card_str, cards_str, mask_to_cards
from backalley_engine.claims import claim_entry, pending, public_hands, waiting_for
from backalley_engine.deal import DealCore
from backalley_engine.events import trump_str
from backalley_engine.game import GameCore


def _claim_view(d: DealCore) -> dict[str, Any] | None:
    p = pending(d)
    if p is not None:
        return {
            "seat": p[0],
            "tricks": p[1],
            "remaining": d.n - len(d.tricks),
            "status": "pending",
            "waiting_for": waiting_for(d),
        }
    end = claim_entry(d)
    return None if end is None else {**end, "status": "ended"}


def game_view(game: GameCore, seat: int | None, *, reveal: bool | None = None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) may see. ``reveal``: whether the game's secrets
    (its seed, the card drawn for a Blooper) are public; by default once the game is over.
    A service that deals one seed to several games passes False until the last of them is
    over (docs/rules.md §8); True never reveals a game still in play."""
    if seat is not None and seat not in (0, 1, 2, 3):
        raise ValueError("seat must be 0..3 or None")
    info = game.all_deals()[-1]
    d = info.state
    finished = game.outcome is not None and reveal is not False
    swap = None
    if info.swap is not None:
        s = info.swap
        swap = {
            "seat": s.seat,
            "discarded": card_str(s.discarded),
            "drawn": card_str(s.drawn) if finished or seat == s.seat else None,
        }
    last = d.tricks[-1] if d.tricks else None
    to_act = game.seat_to_act
    mine = seat is not None and to_act == seat
    return {
        "viewer": seat,
        "phase": game.phase,
        "commitment": game.commitment,
        "seed": game.seed if finished else None,
        "first_dealer": game.first_dealer,
        "schedule": game.schedule.to_json(),
        "move_count": game.move_count,
        "deal_number": info.number,
        "attempt": info.attempt,
        "hand_size": d.n,
        "dealer": d.dealer,
        "upcard": card_str(d.upcard),
        "trump": trump_str(d.trump),
        "joker_swap": swap,
        "hand": None if seat is None else cards_str(mask_to_cards(d.hands[seat])),
        "bids": [{"seat": d.bid_seat(i), "bid": bid_json(b)} for i, b in enumerate(d.bids)],
        "board_levels": list(d.board_level),
        "trick": {"leader": d.leader, "cards": cards_str(d.trick)} if d.trick else None,
        "last_trick": (
            {"leader": last[0], "cards": cards_str(last[1]), "winner": last[2]} if last else None
        ),
        "tricks": [{"leader": t[0], "cards": cards_str(t[1]), "winner": t[2]} for t in d.tricks],
        "trump_broken": d.broken,
        "tricks_won": list(d.won),
        "team_tricks": list(d.team_tricks()),
        "deals": [
            {
                "number": i.number,
                "attempt": i.attempt,
                "status": i.status,
                "score": list(i.score),
                "totals": list(i.totals),
            }
            for i in game.all_deals()
        ],
        "totals": list(game.totals),
        # Claims (docs/rules.md §10): the one waiting for answers, how one ended the deal,
        # and the hands made public by claiming (as they are now).
        "claim": _claim_view(d),
        "shown_hands": {
            str(s): cards_str(mask_to_cards(m)) for s, m in public_hands(d).items() if s != seat
        },
        "seat_to_act": to_act,
        "legal_actions": [action_str(a) for a in game.legal_actions()] if mine else [],
        "result": (
            {"totals": list(game.outcome.totals), "winner": game.outcome.winner}
            if game.outcome
            else None
        ),
    }
