"""Pairing properties (hypothesis): everyone once per round or a bye, no avoidable
rematch, closest scores first, byes rotate, round robins meet everyone exactly once."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import History, Round, individual_tables, round_robin, swiss_pairs


class Field:
    """A simulated event: histories evolve with random results, round after round."""

    def __init__(self, n: int, rng: random.Random) -> None:
        self.ids = list(range(1, n + 1))
        self.rng = rng
        self.score = Counter[int]()
        self.opp: dict[int, Counter[int]] = {i: Counter() for i in self.ids}
        self.partner: dict[int, Counter[int]] = {i: Counter() for i in self.ids}
        self.side = {i: [0, 0] for i in self.ids}
        self.byes = Counter[int]()

    def ranked(self) -> list[History]:
        order = sorted(self.ids, key=lambda i: (-self.score[i], i))
        return [
            History(
                i,
                self.score[i],
                self.side[i][0],
                self.side[i][1],
                self.byes[i],
                dict(self.opp[i]),
                dict(self.partner[i]),
            )
            for i in order
        ]

    def play(self, rnd: Round) -> None:
        for b in rnd.byes:
            self.byes[b] += 1
            self.score[b] += 2
        for t in rnd.tables:
            s = t.seats
            for pos, e in enumerate(s):
                if pos < 2 or s[pos] != s[pos - 2]:
                    self.side[e][pos % 2] += 1
            for a, b in itertools.product(set(s[0::2]), set(s[1::2])):
                self.opp[a][b] += 1
                self.opp[b][a] += 1
            for side in (s[0::2], s[1::2]):
                if side[0] != side[1]:
                    self.partner[side[0]][side[1]] += 1
                    self.partner[side[1]][side[0]] += 1
            x = self.rng.choice([0, 1, 2])
            for e in set(s[0::2]):
                self.score[e] += x
            for e in set(s[1::2]):
                self.score[e] += 2 - x


def _everyone_once(rnd: Round, ids: list[int]) -> None:
    seen = [e for t in rnd.tables for e in set(t.seats)] + rnd.byes
    assert sorted(seen) == sorted(ids)


def _rematch_free_matching_exists(ranked: list[History]) -> bool:
    graph = nx.Graph()
    graph.add_nodes_from(h.id for h in ranked)
    graph.add_edges_from(
        (a.id, b.id) for a, b in itertools.combinations(ranked, 2) if b.id not in a.opponents
    )
    return len(nx.max_weight_matching(graph, maxcardinality=True)) * 2 == len(ranked)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 24), rounds=st.integers(1, 7), seed=st.integers(0, 10**6))
def test_swiss_seats_everyone_once_without_an_avoidable_rematch(
    n: int, rounds: int, seed: int
) -> None:
    field = Field(n, random.Random(seed))
    for r in range(1, rounds + 1):
        ranked = field.ranked()
        rnd = swiss_pairs(ranked, round_number=r)
        _everyone_once(rnd, field.ids)
        assert len(rnd.byes) == n % 2
        rematches = [t for t in rnd.tables if field.opp[t.seats[0]][t.seats[1]]]
        if rematches:
            playing = [h for h in ranked if h.id not in rnd.byes]
            assert not _rematch_free_matching_exists(playing)
        field.play(rnd)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(4, 20), rounds=st.integers(1, 5), seed=st.integers(0, 10**6))
def test_swiss_pairs_closest_scores_first(n: int, rounds: int, seed: int) -> None:
    """No swap of opponents between two tables brings scores closer without a rematch."""
    field = Field(n, random.Random(seed))
    for r in range(1, rounds + 1):
        ranked = field.ranked()
        score = {h.id: h.score for h in ranked}
        rnd = swiss_pairs(ranked, round_number=r)
        pairs = [(t.seats[0], t.seats[1]) for t in rnd.tables]
        for (a, b), (c, d) in itertools.combinations(pairs, 2):
            now = (score[a] - score[b]) ** 2 + (score[c] - score[d]) ** 2
            clash_now = field.opp[a][b] + field.opp[c][d]
            for (w, x), (y, z) in (((a, c), (b, d)), ((a, d), (b, c))):
                swapped = (score[w] - score[x]) ** 2 + (score[y] - score[z]) ** 2
                if field.opp[w][x] + field.opp[y][z] <= clash_now:
                    assert swapped >= now or field.opp[w][x] + field.opp[y][z] < clash_now
        field.play(rnd)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(3, 15).filter(lambda k: k % 2 == 1), seed=st.integers(0, 10**6))
def test_byes_rotate(n: int, seed: int) -> None:
    field = Field(n, random.Random(seed))
    for r in range(1, n + 1):
        rnd = swiss_pairs(field.ranked(), round_number=r)
        field.play(rnd)
        assert max(field.byes.values()) - min(field.byes[i] for i in field.ids) <= 1
    assert all(field.byes[i] == 1 for i in field.ids)


def test_swiss_gives_the_direction_to_whoever_sat_it_less() -> None:
    a = History(1, 2, side0=2, side1=0)
    b = History(2, 2, side0=0, side1=2)
    (table,) = swiss_pairs([a, b], round_number=3).tables
    assert table.seats == (2, 1, 2, 1)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(2, 22))
def test_round_robin_meets_everyone_exactly_once(n: int) -> None:
    ids = list(range(10, 10 + n))
    rounds = round_robin(ids)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met = Counter[frozenset[int]]()
    side0 = Counter[int]()
    byes = Counter[int]()
    for rnd in rounds:
        _everyone_once(rnd, ids)
        byes.update(rnd.byes)
        for t in rnd.tables:
            met[frozenset((t.seats[0], t.seats[1]))] += 1
            side0[t.seats[0]] += 1
    assert set(met) == {frozenset(p) for p in itertools.combinations(ids, 2)}
    assert set(met.values()) == {1}
    assert all(byes[i] == (n % 2) for i in ids)
    games = len(rounds) - (n % 2)
    # Directions as even as the number of games allows (within one either way of half).
    assert all(abs(2 * side0[i] - games) <= 2 for i in ids)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(4, 21), rounds=st.integers(1, 5), seed=st.integers(0, 10**6))
def test_individual_events_seat_everyone_once_in_fours(n: int, rounds: int, seed: int) -> None:
    field = Field(n, random.Random(seed))
    for r in range(1, rounds + 1):
        rnd = individual_tables(field.ranked(), round_number=r)
        _everyone_once(rnd, field.ids)
        assert len(rnd.byes) == n % 4
        assert all(len(set(t.seats)) == 4 for t in rnd.tables)
        field.play(rnd)


@settings(max_examples=25, deadline=None)
@given(k=st.integers(2, 4), seed=st.integers(0, 10**6))
def test_individual_events_never_repeat_a_partner_while_avoidable(k: int, seed: int) -> None:
    """With 4k players, k ≥ 2, the first 2k - 1 rounds can always have new partners
    (the unused-partner graph keeps a perfect matching while its degree is ≥ n/2)."""
    n = 4 * k
    field = Field(n, random.Random(seed))
    for r in range(1, n // 2 + 1):
        rnd = individual_tables(field.ranked(), round_number=r)
        for t in rnd.tables:
            for a, b in ((t.seats[0], t.seats[2]), (t.seats[1], t.seats[3])):
                assert field.partner[a][b] == 0, f"round {r}: {a} and {b} partnered before"
        field.play(rnd)
