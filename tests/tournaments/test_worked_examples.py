"""The worked examples of docs/tournaments.md, computed by the code."""

from __future__ import annotations

from decimal import Decimal

from tournaments import scoring
from tournaments.pairing import History, round_robin, swiss_pairs

A, B, C, D, E, F = 1, 2, 3, 4, 5, 6
NAMES = dict(zip(range(1, 7), "ABCDEF", strict=True))


def test_swiss_round_3_avoids_the_rematches_and_balances_directions() -> None:
    ranked = [
        History(A, 4, side0=1, side1=1, opponents={C: 1, B: 1}),
        History(B, 2, side0=2, side1=0, opponents={D: 1, A: 1}),
        History(C, 2, side0=1, side1=1, opponents={A: 1, E: 1}),
        History(D, 2, side0=1, side1=1, opponents={B: 1, F: 1}),
        History(E, 1, side0=1, side1=1, opponents={F: 1, C: 1}),
        History(F, 1, side0=0, side1=2, opponents={E: 1, D: 1}),
    ]
    rnd = swiss_pairs(ranked, round_number=3)
    got = [(NAMES[t.seats[0]], NAMES[t.seats[1]]) for t in rnd.tables]
    assert got == [("A", "D"), ("E", "B"), ("F", "C")]


def test_round_robin_of_five_by_the_circle_method() -> None:
    rounds = round_robin([A, B, C, D, E])
    got = [
        ([(NAMES[t.seats[0]], NAMES[t.seats[1]]) for t in r.tables], NAMES[r.byes[0]])
        for r in rounds
    ]
    assert got == [
        ([("B", "E"), ("D", "C")], "A"),
        ([("E", "A"), ("C", "B")], "D"),
        ([("A", "D"), ("E", "C")], "B"),
        ([("C", "A"), ("D", "B")], "E"),
        ([("A", "B"), ("E", "D")], "C"),
    ]


def test_duplicate_matchpoints_of_one_direction() -> None:
    sides = [
        scoring.TableScore(1, 120),
        scoring.TableScore(2, 80),
        scoring.TableScore(3, 80),
        scoring.TableScore(4, -40),
    ]
    got = {k: (mp, top) for k, (mp, top) in scoring.matchpoints(sides, 4).items()}
    assert got == {1: (6, 6), 2: (3, 6), 3: (3, 6), 4: (0, 6)}
    assert scoring.percentage(Decimal(3), Decimal(6)) == Decimal("50.00")


def test_a_forfeited_table_scores_sixty_and_zero_and_leaves_the_comparisons() -> None:
    sides = [
        scoring.TableScore(1, 120),
        scoring.TableScore(2, 80),
        scoring.TableScore(3, 200, forfeited=True),
    ]
    got = {k: mp for k, (mp, _) in scoring.matchpoints(sides, 3).items()}
    # Two tables compared: 2 of 2 scaled to the round's top of 4.
    assert got == {1: Decimal("4.00"), 2: Decimal("0.00"), 3: Decimal(0)}
    awarded = scoring.matchpoints([scoring.TableScore(1, 0, awarded=True)], 3)
    assert awarded[1] == (Decimal("2.40"), Decimal(4))


def test_standings_ties_are_broken_by_buchholz_then_sonneborn_berger() -> None:
    # R1: A beat B, C drew D. R2: A drew C, B beat D. R3: D beat A, B beat C.
    results = [
        [(A, 0, 2), (B, 1, 0)], [(C, 0, 1), (D, 1, 1)],
        [(A, 0, 1), (C, 1, 1)], [(B, 0, 2), (D, 1, 0)],
        [(A, 0, 0), (D, 1, 2)], [(B, 0, 2), (C, 1, 0)],
    ]  # fmt: skip
    lines = {e: scoring.Line(e) for e in (A, B, C, D)}
    for table in results:
        for entrant, _, hp in table:
            lines[entrant].half_points += hp
    scoring.tie_breaks(lines, results)
    ranked = scoring.rank(list(lines.values()), duplicate=False)
    table = [
        (NAMES[x.entrant_id], x.rank, x.half_points, x.buchholz, x.sonneborn_berger) for x in ranked
    ]
    # Points in halves, Buchholz in halves, Sonneborn-Berger in quarters.
    assert table == [
        ("B", 1, 4, 8, 10),  # 2 points; Buchholz 4; S-B 2.5 (beat D 1.5 and C 1)
        ("A", 2, 3, 9, 10),  # 1.5; Buchholz 4.5; S-B 2.5 (beat B 2, drew C: half of 1)
        ("D", 3, 3, 9, 8),   # 1.5; Buchholz 4.5; S-B 2 (beat A 1.5, drew C: half of 1)
        ("C", 4, 2, 10, 6),  # 1; Buchholz 5; S-B 1.5 (drew D and A: half of 1.5 each)
    ]  # fmt: skip
