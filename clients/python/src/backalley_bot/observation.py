"""What a bot is shown on its turn: the same :class:`Observation` wherever it plays.

The service sends a seat's view (the engine's ``game_view``: docs/rules.md §8) with the
legal actions, to a webhook bot in each turn and to an API bot in the game's state; the local
runner makes the very same view with the engine library. An ``Observation`` reads it:

>>> import backalley_engine as ba
>>> from backalley_engine.views import game_view
>>> obs = Observation.from_view(game_view(ba.GameState.new("00" * 32), 0), game="local")
>>> obs.seat, obs.phase, obs.hand_size, len(obs.hand), obs.legal[:3]
(0, 'bidding', 13, 13, ('pass', '1', '2'))
>>> obs.is_bidding, obs.partner, obs.legal_actions[0] == ba.PASS
(True, 2, True)

``view`` is the whole dict (bids, tricks, scores, claims: docs/rules.md §8 lists them);
``hand_cards`` and ``legal_actions`` are the engine's ints, for bots that use the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import backalley_engine as ba


@dataclass(frozen=True)
class Observation:
    """One seat's turn: ``game`` (its id, ``"local"`` offline), ``seat`` (0..3), ``seq``
    (the moves made so far), ``legal`` (the legal actions as text) and the ``view``."""

    game: str
    seat: int
    seq: int
    legal: tuple[str, ...]
    view: Mapping[str, Any] = field(repr=False)

    @classmethod
    def from_view(
        cls,
        view: Mapping[str, Any],
        *,
        game: str,
        seat: int | None = None,
        legal: list[str] | None = None,
        seq: int | None = None,
    ) -> Observation:
        """From a seat's view (``legal`` and ``seq`` default to the view's own)."""
        s = view.get("viewer") if seat is None else seat
        if not isinstance(s, int):
            raise ValueError("the view is a spectator's: a bot needs its seat's view")
        return cls(
            game=game,
            seat=s,
            seq=int(view.get("move_count", 0) if seq is None else seq),
            legal=tuple(view.get("legal_actions") or () if legal is None else legal),
            view=view,
        )

    # -- the table, as text (docs/rules.md §8) -------------------------------------------
    @property
    def phase(self) -> str:
        return str(self.view["phase"])

    @property
    def is_bidding(self) -> bool:
        return self.phase == "bidding"

    @property
    def hand(self) -> tuple[str, ...]:
        return tuple(self.view.get("hand") or ())

    @property
    def hand_size(self) -> int:
        return int(self.view["hand_size"])

    @property
    def deal_number(self) -> int:
        return int(self.view["deal_number"])

    @property
    def dealer(self) -> int:
        return int(self.view["dealer"])

    @property
    def trump(self) -> str | None:
        t = self.view.get("trump")
        return None if t is None else str(t)

    @property
    def upcard(self) -> str:
        return str(self.view["upcard"])

    @property
    def bids(self) -> list[dict[str, Any]]:
        """``[{"seat": s, "bid": ...}]`` in bidding order (bid: ``"pass"``, ``"board"`` or
        a number, the JSON form)."""
        return list(self.view.get("bids") or [])

    @property
    def trick(self) -> tuple[str, ...]:
        """The cards of the trick in progress, in play order (led first)."""
        t = self.view.get("trick")
        return tuple(t["cards"]) if t else ()

    @property
    def totals(self) -> tuple[int, int]:
        t = self.view.get("totals") or (0, 0)
        return int(t[0]), int(t[1])

    @property
    def partner(self) -> int:
        return ba.partner_of(self.seat)

    @property
    def team(self) -> int:
        return ba.team_of(self.seat)

    # -- the engine's ints -----------------------------------------------------------
    @property
    def hand_cards(self) -> tuple[int, ...]:
        return tuple(ba.parse_card(c) for c in self.hand)

    @property
    def legal_actions(self) -> tuple[int, ...]:
        return tuple(ba.parse_action(a) for a in self.legal)


def action_text(action: str | int) -> str:
    """A bot's answer as the text the service takes: an engine int, or text as the engine
    writes it (``"10h"`` becomes ``"TH"``); ``ValueError`` for what is no action.

    >>> action_text("10h"), action_text(ba.PASS), action_text(" Board ")
    ('TH', 'pass', 'board')
    """
    if isinstance(action, bool) or not isinstance(action, int | str):
        raise ValueError(f"an action is a card, 'pass', 'board' or a number, not {action!r}")
    if isinstance(action, int):
        return ba.action_str(action)
    return ba.action_str(ba.parse_action(action.strip()))
