"""Choosing tables of four among the bots that may play now (pure Python, no database).

Bots are ordered by rating plus a random jitter (so close ratings meet most often, yet the
same four do not meet every time) and taken in that order into tables of four. A table never
seats two bots of one controller (one account may hold one seat of a rated game); a bot that
would be the second of its controller waits for the next table. Each table's partnerships
are drawn at random.

>>> import random
>>> cands = [Candidate(i, controller=i, rating=1500 + 10 * i) for i in range(9)]
>>> tables = choose_tables(cands, random.Random(1), jitter=0)
>>> [sorted(t) for t in tables]
[[0, 1, 2, 3], [4, 5, 6, 7]]
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

DEFAULT_JITTER = 100.0  # rating points (one standard deviation)


@dataclass(frozen=True, slots=True)
class Candidate:
    bot_id: int
    controller: int  # the account behind the bot; one seat per controller at a table
    rating: float


def choose_tables(
    candidates: Sequence[Candidate],
    rng: random.Random,
    *,
    jitter: float = DEFAULT_JITTER,
    limit: int | None = None,
) -> list[tuple[int, int, int, int]]:
    """Tables of four bot ids (A = positions 0 and 2, B = 1 and 3), at most ``limit``.

    Linear after the sort: each bot is looked at a bounded number of times (a bot that waits
    goes to the front of the next table).
    """
    order = sorted(candidates, key=lambda c: (c.rating + rng.gauss(0.0, jitter), c.bot_id))
    tables: list[tuple[int, int, int, int]] = []
    waiting: list[Candidate] = []
    table: list[Candidate] = []
    for cand in order:
        if limit is not None and len(tables) >= limit:
            break
        table, waiting = _seat(table, waiting, cand)
        if len(table) == 4:
            tables.append(_partnerships(table, rng))
            table = []
            # Bots that waited (a controller already at the full table) start the next one.
            pending, waiting = waiting, []
            for w in pending:
                table, waiting = _seat(table, waiting, w)
                if len(table) == 4:  # cannot happen with < 4 waiting, but stay correct
                    tables.append(_partnerships(table, rng))
                    table = []
    return tables[:limit] if limit is not None else tables


def _seat(
    table: list[Candidate], waiting: list[Candidate], cand: Candidate
) -> tuple[list[Candidate], list[Candidate]]:
    if any(c.controller == cand.controller for c in table):
        return table, [*waiting, cand]
    return [*table, cand], waiting


def _partnerships(table: list[Candidate], rng: random.Random) -> tuple[int, int, int, int]:
    ids = [c.bot_id for c in table]
    rng.shuffle(ids)
    return ids[0], ids[1], ids[2], ids[3]
