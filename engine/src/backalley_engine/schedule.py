"""Which deals of the schedule a game plays (docs/rules.md §2): all 25, or a run of
consecutive ones, played as a short game; and whether a deal is dealt again after an
all-pass (``redeal``; False for duplicate play, docs/rules.md §4).

A run keeps each deal's number, and with it the deal's hand size and its cards from the
seed (docs/rules.md §9): deals 6 to 10 of a short game are dealt exactly as deals 6 to 10 of
a whole game. Its first deal is dealt by seat ``first_dealer + first - 1`` (mod 4), the seat
that deals it in a whole game where no deal was redealt, and the deal passes to the left
after every deal, as always.

>>> Schedule.parse("6-10")
Schedule(first=6, last=10)
>>> s = Schedule(11, 15); str(s), len(s), s.numbers, s.is_whole_game
('11-15', 5, (11, 12, 13, 14, 15), False)
>>> [hand_size_of(n) for n in s.numbers]
[3, 2, 1, 2, 3]
>>> Schedule.from_json(s.to_json()) == s, Schedule().is_whole_game
(True, True)
>>> s.first_deal_dealer(first_dealer=3)
1
>>> d = Schedule(redeal=False); d.is_whole_game, d == WHOLE_GAME, d.to_json()
(True, False, {'first': 1, 'last': 25, 'redeal': False})
>>> Schedule.from_json(d.to_json()) == d
True
>>> Schedule(0, 4)
Traceback (most recent call last):
...
backalley_engine.errors.BadSchedule: A run of deals goes from deal 1..25 to a later or equal deal 1..25, not 0-4.
"""

from __future__ import annotations

from dataclasses import dataclass

from backalley_engine.constants import NUM_DEALS
from backalley_engine.errors import BadSchedule
from backalley_engine.shuffle import hand_size_of

__all__ = ["Schedule", "WHOLE_GAME", "hand_size_of"]


_KEYS = frozenset({"first", "last", "redeal"})


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


@dataclass(frozen=True, slots=True, repr=False)
class Schedule:
    """Deals ``first`` to ``last`` (1 ≤ first ≤ last ≤ 25) of the game's schedule.

    ``redeal``: whether a deal all four passed is dealt again by the next dealer (§4). In
    duplicate play (tables dealt from one seed) it is False: an all-pass deal is passed out
    at once, so every table holds the same cards, with the same dealer, on every deal.
    """

    first: int = 1
    last: int = NUM_DEALS
    redeal: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.redeal, bool):
            raise BadSchedule("A schedule's redeal is true or false.", {})
        if not (
            _is_int(self.first) and _is_int(self.last) and 1 <= self.first <= self.last <= NUM_DEALS
        ):
            raise BadSchedule(
                f"A run of deals goes from deal 1..{NUM_DEALS} to a later or equal deal "
                f"1..{NUM_DEALS}, not {self.first}-{self.last}.",
                {"first": repr(self.first)[:8], "last": repr(self.last)[:8]},
            )

    def __repr__(self) -> str:
        tail = "" if self.redeal else ", redeal=False"
        return f"Schedule(first={self.first}, last={self.last}{tail})"

    def __len__(self) -> int:
        return self.last - self.first + 1

    def __str__(self) -> str:
        return f"{self.first}-{self.last}"

    @property
    def count(self) -> int:
        """How many deals the game scores."""
        return self.last - self.first + 1

    @property
    def numbers(self) -> tuple[int, ...]:
        return tuple(range(self.first, self.last + 1))

    @property
    def is_whole_game(self) -> bool:
        """All 25 deals (whatever ``redeal``): not a short game."""
        return self.first == 1 and self.last == NUM_DEALS

    @property
    def is_default(self) -> bool:
        """All 25 deals, redealt after an all-pass: what a record or checkpoint leaves out."""
        return self.is_whole_game and self.redeal

    def first_deal_dealer(self, *, first_dealer: int) -> int:
        """The seat that deals the run's first deal, given the seed's first dealer."""
        return (first_dealer + self.first - 1) % 4

    def to_json(self) -> dict[str, int | bool]:
        """The record's ``schedule`` member (docs/record-format.md); ``redeal`` only when
        False."""
        out: dict[str, int | bool] = {"first": self.first, "last": self.last}
        if not self.redeal:
            out["redeal"] = False
        return out

    @classmethod
    def from_json(cls, data: object) -> Schedule:
        """The inverse of :meth:`to_json`; ``None`` is the whole game."""
        if data is None:
            return WHOLE_GAME
        if not isinstance(data, dict) or not {"first", "last"} <= set(data) <= _KEYS:
            raise BadSchedule('A schedule is {"first": deal, "last": deal, "redeal": bool}.', {})
        return cls(data["first"], data["last"], data.get("redeal", True))

    @classmethod
    def parse(cls, text: str) -> Schedule:
        """``"6-10"`` (deals 6 to 10) or ``"7"`` (deal 7 alone)."""
        first, sep, last = text.strip().partition("-")
        try:
            a = int(first)
            b = int(last) if sep else a
        except ValueError:
            raise BadSchedule(f"Not a run of deals: {text[:12]!r} (write it 6-10).", {}) from None
        return cls(a, b)


WHOLE_GAME = Schedule()
