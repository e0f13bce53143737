"""A Back Alley bot on the kit (clients/python): one method, ``choose(observation)``.

    pip install ./engine ./clients/python
    cd examples && python -m backalley_bot.play --bot mybot:MyBot --against heuristic --pairs 50

The same class plays at the club as an API bot (api_bot.py) or a webhook bot
(webhook_bot.py), unchanged. Cards are text: rank then suit ("AS", "TH"), the jokers "LB"
and "BB" (the Bloopers, the top trumps); bids are "pass", "board" or a number.
"""

from __future__ import annotations

from backalley_bot import Bot, Observation

RANKS = "23456789TJQKA"


def strength(card: str, trump: str | None) -> int:
    """Higher is stronger: the Bloopers, then trumps, then the other suits by rank."""
    if card in ("LB", "BB"):
        return 40 + (card == "BB")
    return RANKS.index(card[0]) + (20 if card[1] == trump else 0)


class MyBot(Bot):
    """Bids its sure winners (Bloopers, aces, high trumps); leads its strongest card, and
    otherwise wins with its strongest card or gives its weakest."""

    def choose(self, observation: Observation) -> str:
        legal, trump = observation.legal, observation.trump
        if observation.is_bidding:
            sure = sum(strength(c, trump) >= 31 or c[0] == "A" for c in observation.hand)
            numbers = [int(a) for a in legal if a.isdigit()]
            fitting = [n for n in numbers if n <= sure]
            if fitting:
                return str(max(fitting))
            return "pass" if "pass" in legal else legal[0]
        ranked = sorted(legal, key=lambda c: strength(c, trump))
        if not observation.trick:
            return ranked[-1]
        best_so_far = max(strength(c, trump) for c in observation.trick)
        return ranked[-1] if strength(ranked[-1], trump) > best_so_far else ranked[0]
