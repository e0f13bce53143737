"""What a game holds beside its current deal: ``GameCore``, with ``DealInfo`` (a dealt deal)
and ``Outcome`` (the end).

``GameCore`` is the base of ``backalley_engine.state.GameState``: the game's fields and
the reads of them, without the rules that change them. The modules that read a game or
write it out (``views``, ``records``, ``checkpoint``, ``events``, ``observation``,
``claims``) take a ``GameCore``, so they sit below ``state`` and ``GameState`` calls them
without a circle of imports (the layers are in the import-linter contracts,
docs/layers.md).

>>> from backalley_engine.state import GameState
>>> g = GameState.new("00" * 32)
>>> isinstance(g, GameCore), g.move_count, [d.status for d in g.all_deals()]
(True, 0, ['in_progress'])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from backalley_engine.constants import IN_PROGRESS
from backalley_engine.deal import DealCore, DealState
from backalley_engine.schedule import Schedule
from backalley_engine.shuffle import HmacKey, JokerSwap

# Who a record or view is for: a seat 0..3, None (a spectator) or "all".
Viewer = int | None | Literal["all"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: both totals and the winning team (None for a draw)."""

    totals: tuple[int, int]
    winner: int | None


@dataclass(slots=True)
class DealInfo:
    """One dealt deal: its number and attempt, the joker swap, its play, how it ended."""

    number: int
    attempt: int
    swap: JokerSwap | None
    state: DealState
    status: str  # played | voided | passed_out | in_progress
    score: tuple[int, int]
    totals: tuple[int, int]


class GameCore(DealCore):
    """A game's fields (its current deal is the ``DealCore`` it extends) and their reads.
    ``seat_to_act`` is None once the game is finished."""

    __slots__ = (
        "seed",
        "schedule",
        "commitment",
        "first_dealer",
        "deal_number",
        "attempt",
        "swap",
        "deals",
        "history",
        "totals",
        "seat_to_act",
        "outcome",
        "_scored",
        "_key",
    )
    seed: str
    schedule: Schedule
    commitment: str
    first_dealer: int
    deal_number: int
    attempt: int
    swap: JokerSwap | None
    deals: list[DealInfo]  # finished deals only
    history: list[int]
    totals: tuple[int, int]
    seat_to_act: int | None
    outcome: Outcome | None
    _scored: int  # deals scored so far (played or passed out)
    _key: HmacKey

    @property
    def move_count(self) -> int:
        return len(self.history)

    @property
    def hand_size(self) -> int:
        return self.n

    def is_terminal(self) -> bool:
        return self.outcome is not None

    def all_deals(self) -> list[DealInfo]:
        """Every deal dealt so far, the one in progress last (as a snapshot)."""
        if self.outcome is not None:
            return self.deals[:]
        live = DealInfo(
            self.deal_number,
            self.attempt,
            self.swap,
            DealState.copy_of(self),
            IN_PROGRESS,
            (0, 0),
            self.totals,
        )
        return [*self.deals, live]
