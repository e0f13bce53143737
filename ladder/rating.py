"""Elo arithmetic for the ladder: pure Python, no Django.

Ratings are `Decimal` values kept to four decimal places, expected scores to six. Every
step runs in one fixed decimal context and is quantized the same way, so the same games in
the same order give the same numbers to the last digit wherever they are computed: the
incremental task, `recompute_ratings`, or a test. (Binary floats would also be repeatable
on one machine, but `10 ** x` goes through the platform's libm; Decimal's exp is done by
libmpdec, correctly rounded, and is the same everywhere. The stored columns are exact `numeric`s, so a value
read back from the database is exactly the value written.)

>>> a, b = Standing(START, 0), Standing(START, 0)
>>> [c.delta for c in rate_game([a, b, a, b], winner=0)]
[Decimal('20.0000'), Decimal('-20.0000'), Decimal('20.0000'), Decimal('-20.0000')]
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from decimal import ROUND_HALF_EVEN, Context, Decimal
from typing import NamedTuple, Protocol

from backalley_engine.constants import team_of

START = Decimal("1500.0000")
K_PROVISIONAL = Decimal(40)
K_ESTABLISHED = Decimal(20)
#: A player (or pair) with fewer rated games than this is provisional ("?" on the ladder).
PROVISIONAL_GAMES = 20
SCALE = Decimal(400)

RATING_STEP = Decimal("0.0001")
EXPECTED_STEP = Decimal("0.000001")
# One context for every operation: results never depend on the caller's decimal context.
CONTEXT = Context(prec=28, rounding=ROUND_HALF_EVEN)
# ln 10 to 40 significant digits (a constant, so no platform computes it differently).
LN10 = Decimal("2.302585092994045684017991454684364207601")
ONE = Decimal(1)
TWO = Decimal(2)

WIN = Decimal(1)
DRAW = Decimal("0.5")
LOSS = Decimal(0)

#: Team of each seat (docs/rules.md §1).
SEAT_TEAM = tuple(team_of(seat) for seat in range(4))


class Rated(Protocol):
    """Anything with a rating and a count of rated games (a `Standing`, a ledger tally)."""

    @property
    def rating(self) -> Decimal: ...

    @property
    def games(self) -> int: ...


# Named tuples rather than frozen dataclasses: a rebuild makes a million of them.
class Standing(NamedTuple):
    """A rated entity's state before a game: its rating and its number of rated games."""

    rating: Decimal
    games: int

    @property
    def provisional(self) -> bool:
        return is_provisional(self.games)


class Change(NamedTuple):
    """One entity's rating change from one game (stored as one row)."""

    before: Decimal
    after: Decimal
    delta: Decimal
    k: Decimal
    expected: Decimal
    result: Decimal


def is_provisional(games: int) -> bool:
    """Fewer than PROVISIONAL_GAMES rated games.

    >>> is_provisional(19), is_provisional(20)
    (True, False)
    """
    return games < PROVISIONAL_GAMES


def k_factor(games: int) -> Decimal:
    """K for an entity that has `games` rated games before this one.

    >>> k_factor(0), k_factor(19), k_factor(20)
    (Decimal('40'), Decimal('40'), Decimal('20'))
    """
    return K_PROVISIONAL if is_provisional(games) else K_ESTABLISHED


def expected_score(r_us: Decimal, r_them: Decimal) -> Decimal:
    """E = 1 / (1 + 10^((R_them − R_us)/400)), to six decimal places.

    >>> expected_score(Decimal(1500), Decimal(1500))
    Decimal('0.500000')
    >>> expected_score(Decimal(1600), Decimal(1400))
    Decimal('0.759747')
    """
    c = CONTEXT
    # 10^x as exp(x·ln 10): libmpdec's exp is correctly rounded (so the same everywhere)
    # and several times faster than a power with a fractional exponent.
    power = c.exp(c.multiply(c.divide(c.subtract(r_them, r_us), SCALE), LN10))
    return c.divide(ONE, c.add(ONE, power)).quantize(EXPECTED_STEP, context=c)


def team_rating(a: Decimal, b: Decimal) -> Decimal:
    """A partnership's rating for the individual ladder: the mean of the partners'.

    Exact: halving a four-place decimal needs at most five places.

    >>> team_rating(Decimal("1500.0001"), Decimal("1600"))
    Decimal('1550.00005')
    """
    return CONTEXT.divide(CONTEXT.add(a, b), TWO)


def team_result(winner: int | None, team: int) -> Decimal:
    """1 for the winning team, 0 for the losing team, ½ each for a draw (winner None)."""
    if winner is None:
        return DRAW
    if winner not in (0, 1):
        raise ValueError(f"winner must be 0, 1 or None, not {winner!r}")
    return WIN if winner == team else LOSS


def apply_change(before: Rated, expected: Decimal, result: Decimal) -> Change:
    """Move one entity by K·(result − E), rounded to four places."""
    k = k_factor(before.games)
    c = CONTEXT
    delta = c.multiply(k, c.subtract(result, expected)).quantize(RATING_STEP, context=c)
    return Change(before.rating, c.add(before.rating, delta), delta, k, expected, result)


def _expected_pair(r0: Decimal, r1: Decimal) -> tuple[Decimal, Decimal]:
    # E1 = 1 − E0 exactly, so the two sides' expectations always sum to one.
    e0 = expected_score(r0, r1)
    return e0, CONTEXT.subtract(ONE, e0)


def rate_game(
    seats: Sequence[Rated],
    winner: int | None,
    abandoned: Collection[int] = (),
) -> list[Change]:
    """The individual changes for one finished game, by seat 0..3.

    Each seat's expected score is its team's (the mean of the partners' ratings against
    the mean of the opponents'); its K is its own. A seat in `abandoned` is rated as a
    loss whatever the result; the other three are rated on the real result.

    >>> s = [Standing(Decimal(1500), 0)] * 4
    >>> [str(c.delta) for c in rate_game(s, winner=None, abandoned={1})]
    ['0.0000', '-20.0000', '0.0000', '0.0000']
    """
    if len(seats) != 4:
        raise ValueError("a game has four seats")
    if any(seat not in range(4) for seat in abandoned):
        raise ValueError("abandoned seats are numbered 0..3")
    teams = (
        team_rating(seats[0].rating, seats[2].rating),
        team_rating(seats[1].rating, seats[3].rating),
    )
    expected = _expected_pair(*teams)
    changes = []
    for seat, standing in enumerate(seats):
        team = SEAT_TEAM[seat]
        result = LOSS if seat in abandoned else team_result(winner, team)
        changes.append(apply_change(standing, expected[team], result))
    return changes


def rate_pairs(
    pairs: Sequence[Rated],
    winner: int | None,
    abandoned_teams: Collection[int] = (),
) -> list[Change]:
    """The pair-ladder changes for one game: each partnership rated as one entity.

    A partnership whose member abandoned the game is rated as a loss; the other on the
    real result.

    >>> p = [Standing(Decimal(1500), 0), Standing(Decimal(1500), 25)]
    >>> [str(c.delta) for c in rate_pairs(p, winner=1)]
    ['-20.0000', '10.0000']
    """
    if len(pairs) != 2:
        raise ValueError("a game has two partnerships")
    expected = _expected_pair(pairs[0].rating, pairs[1].rating)
    return [
        apply_change(
            standing,
            expected[team],
            LOSS if team in abandoned_teams else team_result(winner, team),
        )
        for team, standing in enumerate(pairs)
    ]


def result_label(result: Decimal) -> str:
    """The letter W, D or L for a stored result."""
    if result == WIN:
        return "W"
    if result == LOSS:
        return "L"
    return "D"
