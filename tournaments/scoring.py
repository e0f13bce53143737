"""Scoring a table and a duplicate round, and ordering standings (pure functions).

Game scoring counts half points (win 2, draw 1, loss 0) so they stay exact. Duplicate
scoring compares each side with the sides that sat the same way at the other tables of
the round (they played the same cards): 2 matchpoints for each one beaten, 1 for each tie.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal

WIN, DRAW, LOSS = 2, 1, 0
# A side whose table was forfeited scores 60% ("average plus"), the forfeiting side 0;
# a bye scores a win (game scoring) or 50% (duplicate).
FORFEIT_WINNER_SHARE = Decimal("0.6")
BYE_SHARE = Decimal("0.5")


def side_half_points(winner: int | None, forfeits: tuple[bool, bool]) -> tuple[int, int]:
    """Half points of sides 0 and 1 from the game's winner and who forfeited.

    >>> side_half_points(0, (False, False)), side_half_points(None, (False, False))
    ((2, 0), (1, 1))
    >>> side_half_points(0, (True, False)), side_half_points(1, (True, True))
    ((0, 2), (0, 0))
    """
    if forfeits[0] or forfeits[1]:
        return (LOSS if forfeits[0] else WIN, LOSS if forfeits[1] else WIN)
    if winner is None:
        return (DRAW, DRAW)
    return (WIN, LOSS) if winner == 0 else (LOSS, WIN)


@dataclass(frozen=True)
class TableScore:
    """One side of one table of a duplicate round: its game total, and whether the table
    was forfeited (by this side: ``forfeited``; by the other side: ``awarded``)."""

    key: object
    total: int
    forfeited: bool = False
    awarded: bool = False


def matchpoints(sides: Sequence[TableScore], tables: int) -> dict[object, tuple[Decimal, Decimal]]:
    """(matchpoints, top) of each side that sat one direction of a duplicate round.

    ``tables`` is the number of tables in the round; the top is 2 for each other table.
    Forfeited tables are left out of the comparisons.

    >>> mp = matchpoints([TableScore("A", 120), TableScore("B", 80), TableScore("C", 80)], 3)
    >>> {k: str(v[0]) for k, v in mp.items()}
    {'A': '4', 'B': '1', 'C': '1'}
    """
    top = Decimal(2 * max(tables - 1, 0))
    played = [s for s in sides if not (s.forfeited or s.awarded)]
    out: dict[object, tuple[Decimal, Decimal]] = {}
    for s in sides:
        if s.forfeited:
            out[s.key] = (Decimal(0), top)
        elif s.awarded:
            out[s.key] = ((top * FORFEIT_WINNER_SHARE).quantize(Decimal("0.01")), top)
        else:
            mp = sum(
                (2 if s.total > o.total else 1 if s.total == o.total else 0)
                for o in played
                if o is not s
            )
            # With forfeits the comparisons are fewer: scale to the round's top.
            compared = 2 * (len(played) - 1)
            value = (
                Decimal(mp)
                if compared == top or compared == 0
                else (Decimal(mp) * top / compared).quantize(Decimal("0.01"))
            )
            out[s.key] = (value, top)
    return out


def percentage(mp: Decimal, top: Decimal) -> Decimal:
    """Matchpoints as a percentage of the top (50 when nothing was compared)."""
    if top == 0:
        return Decimal(50)
    return (Decimal(100) * mp / top).quantize(Decimal("0.01"))


@dataclass(slots=True)
class Line:
    """One entrant's line in the standings."""

    entrant_id: int
    half_points: int = 0
    buchholz: int = 0  # in half points
    sonneborn_berger: int = 0  # in quarter points (half points x half points)
    total: int = 0
    matchpoints: Decimal = Decimal(0)
    top: Decimal = Decimal(0)
    byes: int = 0
    played: int = 0
    rank: int = 0

    @property
    def points(self) -> Decimal:
        return Decimal(self.half_points) / 2

    @property
    def percent(self) -> Decimal:
        return percentage(self.matchpoints, self.top)


Seated = tuple[int, int, int]  # (entrant id, side 0 or 1, half points) at one table


def tie_breaks(lines: dict[int, Line], tables: Iterable[Sequence[Seated]]) -> None:
    """Fill Buchholz (sum of the opponents' points) and Sonneborn-Berger (the points of
    the opponents beaten, plus half those of the opponents drawn), from who sat at each
    table. Byes add nothing. Entrants missing from ``lines`` are skipped.

    >>> lines = {1: Line(1, half_points=4), 2: Line(2, half_points=1)}
    >>> tie_breaks(lines, [[(1, 0, 2), (2, 1, 0)]])
    >>> lines[1].buchholz, lines[1].sonneborn_berger, lines[2].buchholz
    (1, 2, 4)
    """
    for seated in tables:
        for me, side, hp in seated:
            line = lines.get(me)
            if line is None:
                continue
            for other, other_side, _ in seated:
                if other_side != side and other in lines:
                    points = lines[other].half_points
                    line.buchholz += points
                    line.sonneborn_berger += points * hp


def rank(lines: Sequence[Line], *, duplicate: bool) -> list[Line]:
    """Order the standings and number them (equal on every key share a rank).

    Swiss and round robin: points, Buchholz, Sonneborn-Berger, total score. Duplicate:
    matchpoint percentage, then total score.
    """

    def key(line: Line) -> tuple[object, ...]:
        if duplicate:
            return (-line.percent, -line.total)
        return (-line.half_points, -line.buchholz, -line.sonneborn_berger, -line.total)

    ordered = sorted(lines, key=lambda line: (key(line), line.entrant_id))
    previous: tuple[object, ...] | None = None
    current = 0
    for i, line in enumerate(ordered, start=1):
        k = key(line)
        if k != previous:
            current, previous = i, k
        line.rank = current
    return ordered
