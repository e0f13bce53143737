"""The exact search of the service's own rules (settled deals, proven claims) against plain
exhaustive play on small positions, and its budget."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from backalley_engine import solver
from backalley_engine.actions import BOARD, PASS, bid_action
from backalley_engine.deal import DealState
from backalley_engine.state import GameState
from helpers import act, deal

seeds = st.binary(min_size=32, max_size=32).map(bytes.hex)
rng_seeds = st.integers(min_value=0, max_value=2**32)


def exhaustive(d: DealState, team: int) -> set[int]:
    """Every number of tricks ``team`` takes from here, over every legal continuation: the
    reference, with no reduction and no memory."""
    if d.phase != "playing":
        t = d.team_tricks()
        return {t[team]}
    out: set[int] = set()
    for a in d.legal_actions():
        c = d.clone()
        c.apply(a)
        out |= exhaustive(c, team)
    return out


def small_position(seed: str, rng_seed: int, tricks_left: int) -> DealState:
    """A random game's deal in play with ``tricks_left`` tricks to go (some cards of the
    current trick possibly played)."""
    rng = random.Random(rng_seed)
    g = GameState.new(seed)
    while True:
        while g.phase == "bidding":
            legal = g.legal_actions()
            g.apply(rng.choice([a for a in legal if a != PASS] or legal))
        n = g.n
        if g.phase == "playing" and n >= tricks_left:
            break
        g.apply(rng.choice(g.legal_actions()))
    d = DealState.copy_of(g)
    while d.n - len(d.tricks) > tricks_left:
        d.apply(rng.choice(d.legal_actions()))
    for _ in range(rng.randrange(4)):
        if d.phase == "playing" and d.n - len(d.tricks) == tricks_left:
            d.apply(rng.choice(d.legal_actions()))
    return d


@settings(max_examples=60, deadline=None)
@given(seeds, rng_seeds, st.integers(min_value=1, max_value=3))
def test_bounds_and_settled_match_exhaustive_play(seed: str, rng_seed: int, left: int) -> None:
    d = small_position(seed, rng_seed, left)
    if d.phase != "playing":
        return
    done = d.team_tricks()
    for team in (0, 1):
        outcomes = {t - done[team] for t in exhaustive(d, team)}
        assert solver.trick_bounds(d, team=team, budget=10**7) == (min(outcomes), max(outcomes))
    settled = len(exhaustive(d, 0)) == 1
    assert solver.is_settled(d, budget=10**7) is settled
    for seat in range(4):
        least = min(exhaustive(d, seat & 1)) - done[seat & 1]
        for k in range(0, d.n - len(d.tricks) + 1):
            assert solver.claim_holds(d, seat=seat, tricks=k, budget=10**7) is (least >= k)


def test_the_search_leaves_the_position_as_it_was() -> None:
    d = small_position("ab" * 32, 7, 3)
    before = (d.hands[:], d.trick[:], d.tricks[:], d.to_act)
    solver.trick_bounds(d, team=0)
    solver.is_settled(d)
    assert (d.hands, d.trick, d.tricks, d.to_act) == before


def test_a_search_over_budget_answers_unknown() -> None:
    d = small_position("cd" * 32, 3, 8)
    assert solver.trick_bounds(d, team=0, budget=10) is None
    assert solver.claim_holds(d, seat=0, tricks=3, budget=10) is None
    assert solver.trick_bounds(d, team=0, budget=10**7) is not None


def test_answers_are_the_same_for_the_same_position_and_budget() -> None:
    d = small_position("ef" * 32, 11, 6)
    first = [solver.trick_bounds(d, team=0, budget=b) for b in (100, 1000, 10**6)]
    assert first == [solver.trick_bounds(d, team=0, budget=b) for b in (100, 1000, 10**6)]


def test_top_trumps_in_one_hand_settle_the_deal() -> None:
    # Seat 0 holds the top trumps (spades) and leads: whatever anyone plays, each trick is its.
    d = deal(["BB LB AS", "2H 3H 4H", "5H 6H 7H", "8H 9H TH"], "2S", dealer=3)
    act(d, "board", "pass", "pass", "pass")
    assert solver.is_settled(d) is True
    assert solver.trick_bounds(d, team=0) == (3, 3)
    assert solver.claim_holds(d, seat=2, tricks=3) is True


def test_a_deal_that_play_can_change_is_not_settled() -> None:
    # Diamonds are trump. Seat 0 leads AH: seat 1, out of hearts, may ruff it or not.
    d = deal(["AH 2S", "3D 3S", "KH 4S", "QH 5S"], "9D", dealer=3)
    act(d, "1", "pass", "pass", "pass")
    assert solver.trick_bounds(d, team=0) == (0, 1)
    assert solver.trick_bounds(d, team=1) == (1, 2)
    assert solver.is_settled(d) is False
    assert solver.claim_holds(d, seat=0, tricks=0) is True
    assert solver.claim_holds(d, seat=0, tricks=1) is False
    assert solver.claim_holds(d, seat=3, tricks=1) is True


def test_the_settled_card_is_the_first_legal_card() -> None:
    d = deal(["AH 2S", "KH 3S", "QH 4S", "JH 5S"], "9D", dealer=3)
    act(d, "1", "pass", "pass", "pass")
    assert solver.settled_card(d) == min(d.legal_actions())


def test_nothing_is_known_outside_the_play_phase() -> None:
    d = DealState([1 << 0, 1 << 1, 1 << 2, 1 << 3], upcard=20, dealer=3)
    assert solver.is_settled(d) is None
    assert solver.trick_bounds(d, team=0) is None
    for a in (BOARD, PASS, PASS, PASS):
        d.apply(a)
    assert solver.is_settled(d) is True  # one card each: nothing to choose
    assert bid_action(1) == PASS + 1
