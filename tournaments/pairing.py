"""Pairing: who meets whom in a round (pure Python and networkx; no Django, no I/O).

Swiss rounds are a minimum-cost perfect matching (networkx's ``max_weight_matching``, the
blossom algorithm) on the entrants, with a cost per possible table that orders what we
care about lexicographically:

1. a rematch costs more than any pairing without one can (so one happens only when no
   perfect matching avoids it);
2. then the squared score difference (closest scores first, inside and across groups);
3. then the seat direction: two entrants who both need the same direction cost a little.

Round robins use the circle method; individual events match partners first (nobody
partners the same person twice while it can be avoided) and then partnerships into tables
(opponents met before cost). Byes go to the lowest-ranked entrant among those with the
fewest byes so far, so they rotate. See docs/tournaments.md for worked examples.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import networkx as nx

# Fields up to this size are matched whole. Larger ones are cut, at even positions of the
# ranking, into blocks of about BLOCK entrants matched one by one: for a convex cost of the
# score difference the best pairing joins neighbours in the ranking, so the cuts lose
# nothing there; a block that cannot avoid a rematch is merged with the next and matched
# again. This keeps 1,000 entrants near a second (the blossom algorithm is cubic).
FULL_GRAPH_MAX = 40
BLOCK = 24
SCORE_WEIGHT = 16  # > twice the largest direction cost, so a 2-swap never trades score for seats
DIRECTION_CAP = 3


@dataclass(frozen=True)
class History:
    """What pairing needs to know about one entrant (pass them best-ranked first).

    ``score`` is in whole units of the event's scoring (half points, or matchpoint tenths);
    ``side0``/``side1`` count the rounds sat at seats 0/2 and 1/3; ``opponents`` and
    ``partners`` map another entrant's id to how many times they met that way.
    """

    id: int
    score: int = 0
    side0: int = 0
    side1: int = 0
    byes: int = 0
    opponents: dict[int, int] = field(default_factory=dict)
    partners: dict[int, int] = field(default_factory=dict)

    @property
    def imbalance(self) -> int:
        """How many more times this entrant sat 0/2 than 1/3."""
        return self.side0 - self.side1


@dataclass(frozen=True)
class Table:
    """One table: the entrant ids at seats 0, 1, 2, 3 (a partnership fills both 0 and 2)."""

    seats: tuple[int, int, int, int]

    @property
    def sides(self) -> tuple[frozenset[int], frozenset[int]]:
        s = self.seats
        return frozenset((s[0], s[2])), frozenset((s[1], s[3]))


@dataclass(frozen=True)
class Round:
    tables: list[Table]
    byes: list[int]


def choose_byes(ranked: Sequence[History], count: int) -> list[int]:
    """The ``count`` lowest-ranked entrants among those with the fewest byes so far.

    >>> choose_byes([History(1), History(2, byes=1), History(3)], 1)
    [3]
    >>> choose_byes([History(1), History(2), History(3, byes=1)], 1)
    [2]
    """
    if count <= 0:
        return []
    position = {h.id: i for i, h in enumerate(ranked)}
    order = sorted(ranked, key=lambda h: (h.byes, -position[h.id]))
    return [h.id for h in order[:count]]


def _direction_cost(a: History, b: History) -> int:
    """Both entrants need the same direction: the smaller need is what one of them loses."""
    if a.imbalance * b.imbalance > 0:
        return min(abs(a.imbalance), abs(b.imbalance), DIRECTION_CAP)
    return 0


def _match_block(
    nodes: Sequence[History], cost: Callable[[History, History], int]
) -> list[tuple[int, int]]:
    graph = nx.Graph()
    costs = {
        (i, j): cost(nodes[i], nodes[j])
        for i in range(len(nodes))
        for j in range(i + 1, len(nodes))
    }
    top = max(costs.values()) + 1
    graph.add_weighted_edges_from((i, j, top - c) for (i, j), c in costs.items())
    pairs = [(min(p), max(p)) for p in nx.max_weight_matching(graph, maxcardinality=True)]
    assert len(pairs) * 2 == len(nodes)  # a complete graph on an even number of nodes
    return sorted(pairs)


def _min_cost_perfect_matching(
    nodes: Sequence[History],
    cost: Callable[[History, History], int],
    conflict: Callable[[History, History], bool],
) -> list[tuple[History, History]]:
    """A perfect matching of ``nodes`` (an even number, in rank order) of least total cost
    (exactly for fields up to FULL_GRAPH_MAX; block by block above, see BLOCK)."""
    n = len(nodes)
    if n == 0:
        return []
    size = n if n <= FULL_GRAPH_MAX else BLOCK
    cuts = list(range(0, n, size)) + [n]
    if n - cuts[-2] < size // 2 and len(cuts) > 2:
        del cuts[-2]  # no small last block
    done: list[list[tuple[History, History]]] = []  # the matched blocks, in order
    while len(done) < len(cuts) - 1:
        k = len(done)
        block = nodes[cuts[k] : cuts[k + 1]]
        pairs = _match_block(block, cost)
        if any(conflict(block[i], block[j]) for i, j in pairs) and len(cuts) > 2:
            # Merge with the next block (the last one with the one before) and try again.
            if k + 1 < len(cuts) - 1:
                del cuts[k + 1]
            else:
                del cuts[k]
                done.pop()
            continue
        done.append([(block[i], block[j]) for i, j in pairs])
    return [pair for block_pairs in done for pair in block_pairs]


def _pair_cost(repeat_weight: int) -> Callable[[History, History], int]:
    def cost(a: History, b: History) -> int:
        diff = a.score - b.score
        return (
            a.opponents.get(b.id, 0) * repeat_weight
            + SCORE_WEIGHT * diff * diff
            + _direction_cost(a, b)
        )

    return cost


def _repeat_weight(entrants: Sequence[History]) -> int:
    """More than the whole field's score and direction costs: a rematch always loses."""
    if not entrants:
        return 1
    spread = max(h.score for h in entrants) - min(h.score for h in entrants)
    return (SCORE_WEIGHT * spread * spread + DIRECTION_CAP + 1) * (len(entrants) + 1)


def _orient(a: History, b: History, round_number: int) -> tuple[int, int]:
    """(seats 0/2, seats 1/3): the one who sat 0/2 less takes it; on a tie the
    higher-ranked ``a`` takes 0/2 in odd rounds and 1/3 in even ones."""
    if a.imbalance != b.imbalance:
        return (a.id, b.id) if a.imbalance < b.imbalance else (b.id, a.id)
    return (a.id, b.id) if round_number % 2 == 1 else (b.id, a.id)


def swiss_pairs(ranked: Sequence[History], *, round_number: int) -> Round:
    """Pair partnerships for a Swiss round (``ranked`` best first).

    >>> r = swiss_pairs([History(1, 4), History(2, 4), History(3, 2), History(4, 0)],
    ...                 round_number=3)
    >>> [t.seats for t in r.tables], r.byes
    ([(1, 2, 1, 2), (3, 4, 3, 4)], [])
    """
    byes = choose_byes(ranked, len(ranked) % 2)
    field_ = [h for h in ranked if h.id not in byes]
    repeat = _repeat_weight(field_)
    pairs = _min_cost_perfect_matching(field_, _pair_cost(repeat), lambda a, b: b.id in a.opponents)
    tables = []
    for a, b in pairs:
        ns, ew = _orient(a, b, round_number)
        tables.append(Table((ns, ew, ns, ew)))
    return Round(tables, byes)


def round_robin(ids: Sequence[int]) -> list[Round]:
    """Every round of a round robin by the circle method: everyone meets everyone once.

    With an odd number of entrants one sits out (a bye) each round, each exactly once.
    Directions alternate so that nobody sits the same way more than once more than the other.

    >>> [[t.seats[:2] for t in r.tables] for r in round_robin([1, 2, 3, 4])]
    [[(1, 4), (2, 3)], [(3, 1), (4, 2)], [(1, 2), (3, 4)]]
    """
    ring: list[int | None] = list(ids)
    if len(ring) % 2:
        ring.append(None)
    n = len(ring)
    rounds = []
    side0 = {i: 0 for i in ids}
    for r in range(n - 1):
        tables: list[Table] = []
        byes: list[int] = []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if a is None or b is None:
                byes.append(b if a is None else a)  # type: ignore[arg-type]
                continue
            # The fixed entrant alternates by round; the others take 0/2 when they have
            # sat it less, the first of the pair on a tie in odd tables.
            if i == 0:
                ns, ew = (a, b) if r % 2 == 0 else (b, a)
            elif side0[a] != side0[b]:
                ns, ew = (a, b) if side0[a] < side0[b] else (b, a)
            else:
                ns, ew = (a, b) if i % 2 else (b, a)
            side0[ns] += 1
            tables.append(Table((ns, ew, ns, ew)))
        rounds.append(Round(tables, byes))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def individual_tables(ranked: Sequence[History], *, round_number: int) -> Round:
    """Seat individual entrants four to a table, choosing partners for the round.

    First partnerships (a partner met before costs more than any score difference), then
    partnerships into tables (each opponent met before costs the same way). Whoever is left
    over when the field is not a multiple of four has a bye, rotating as in Swiss.
    """
    byes = choose_byes(ranked, len(ranked) % 4)
    field_ = [h for h in ranked if h.id not in byes]
    repeat = _repeat_weight(field_) * 4

    def partner_cost(a: History, b: History) -> int:
        diff = a.score - b.score
        return a.partners.get(b.id, 0) * repeat + SCORE_WEIGHT * diff * diff

    pairs = _min_cost_perfect_matching(field_, partner_cost, lambda a, b: b.id in a.partners)
    # A partnership as one node: score = the pair's total, opponents = met by either.
    teams: list[tuple[History, tuple[int, int]]] = []
    for a, b in pairs:
        met: dict[int, int] = {}
        for h in (a, b):
            for other, k in h.opponents.items():
                met[other] = met.get(other, 0) + k
        teams.append(
            (
                History(
                    id=len(teams),
                    score=a.score + b.score,
                    side0=a.side0 + b.side0,
                    side1=a.side1 + b.side1,
                    opponents=met,
                ),
                (a.id, b.id),
            )
        )
    members = {t.id: m for t, m in teams}

    def table_cost(x: History, y: History) -> int:
        meetings = sum(x.opponents.get(p, 0) for p in members[y.id])
        diff = x.score - y.score
        return meetings * repeat + SCORE_WEIGHT * diff * diff + _direction_cost(x, y)

    matched = _min_cost_perfect_matching(
        [t for t, _ in teams],
        table_cost,
        lambda x, y: any(p in x.opponents for p in members[y.id]),
    )
    tables = []
    for x, y in matched:
        ns, ew = _orient(x, y, round_number)
        (n0, n2), (e1, e3) = members[ns], members[ew]
        tables.append(Table((n0, e1, n2, e3)))
    return Round(tables, byes)
