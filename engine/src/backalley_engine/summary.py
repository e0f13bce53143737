"""A finished deal told as plain data: the bids, each team's contract, its tricks, its points
and which scoring rule (docs/rules.md §6) gave them. Public information only (docs/rules.md §8).

>>> from backalley_engine.state import GameState
>>> g = GameState.new("00" * 32)
>>> while g.deal_number == 1 and g.attempt == 0:
...     g.apply(g.legal_actions()[0])
>>> s = deal_summary(g.deals[-1])
>>> s["status"], [t["rule"] for t in s["teams"]]
('voided', ['void', 'void'])
"""

from __future__ import annotations

from typing import Any

from backalley_engine.actions import bid_json
from backalley_engine.cards import cards_str
from backalley_engine.events import trump_str
from backalley_engine.game import DealInfo


def _rule(status: str, number: int, board: int, score: int) -> str:
    """Which line of the scoring table applied; "made" is read off the engine's own score."""
    if status != "played":
        return "void" if status == "voided" else status
    if board:
        return "board_made" if score > 0 else "board_failed"
    if number == 0:
        return "zero"
    return "number_made" if score > 0 else "number_failed"


def deal_summary(info: DealInfo) -> dict[str, Any]:
    """Bids, contracts, tricks, points and rules of one deal (finished or not)."""
    d = info.state
    contracts = d.contracts()
    tricks = d.team_tricks()
    last = d.tricks[-1] if d.tricks else None
    return {
        "number": info.number,
        "attempt": info.attempt,
        "status": info.status,
        "hand_size": d.n,
        "dealer": d.dealer,
        "trump": trump_str(d.trump),
        "bids": [
            {"seat": d.bid_seat(i), "bid": bid_json(b), "level": d.board_level[d.bid_seat(i)]}
            for i, b in enumerate(d.bids)
        ],
        "teams": [
            {
                "number": contracts[t][0],
                "board": contracts[t][1],
                "tricks": tricks[t],
                "score": info.score[t],
                "rule": _rule(info.status, contracts[t][0], contracts[t][1], info.score[t]),
            }
            for t in (0, 1)
        ],
        "last_trick": (
            {"leader": last[0], "cards": cards_str(last[1]), "winner": last[2]} if last else None
        ),
        "totals": list(info.totals),
    }
