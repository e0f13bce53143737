"""Invariants over random games (hypothesis): termination, conservation, turn order, hidden
information, records that rebuild the game, and a validator that accepts every selfplay record
and rejects single alterations."""

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backalley_engine.cards import FULL_DECK_MASK, card_str, mask_to_cards, parse_card
from backalley_engine.errors import NotYourTurn
from backalley_engine.records import record_actions, validate_record
from backalley_engine.state import MAX_DEALS, MAX_MOVES, GameState, state_from_record

seeds = st.binary(min_size=32, max_size=32).map(bytes.hex)
rng_seeds = st.integers(min_value=0, max_value=2**32)
SETTINGS = settings(max_examples=25, deadline=None)


def random_game(seed: str, rng_seed: int, stop: int | None = None) -> GameState:
    rng = random.Random(rng_seed)
    g = GameState.new(seed)
    while g.seat_to_act is not None and (stop is None or g.move_count < stop):
        g.apply(rng.choice(g.legal_actions()))
    return g


@SETTINGS
@given(seeds, rng_seeds)
def test_every_game_ends_within_its_bound(seed: str, rng_seed: int) -> None:
    g = random_game(seed, rng_seed)
    assert g.is_terminal() and g.outcome is not None
    assert len(g.deals) <= MAX_DEALS and g.move_count <= MAX_MOVES
    assert sum(d.status in ("played", "passed_out") for d in g.deals) == 25


@SETTINGS
@given(seeds, rng_seeds)
def test_the_54_cards_are_conserved(seed: str, rng_seed: int) -> None:
    rng = random.Random(rng_seed)
    g = GameState.new(seed)
    while g.seat_to_act is not None:
        played = 0
        for _, cards, _ in g.tricks:
            for c in cards:
                played |= 1 << c
        for c in g.trick:
            played |= 1 << c
        held = 0
        for h in g.hands:
            assert not held & h
            held |= h
        assert not held & played
        start = 0
        for h in g.start_hands:
            start |= h
        assert held | played == start
        out = 1 << g.upcard
        if g.swap is not None:
            out |= 1 << g.swap.discarded
        assert not start & out
        assert (start | out).bit_count() == 4 * g.n + 1 + (g.swap is not None)
        assert (start | out) & ~FULL_DECK_MASK == 0
        g.apply(rng.choice(g.legal_actions()))


@SETTINGS
@given(seeds, rng_seeds)
def test_exactly_one_seat_can_act(seed: str, rng_seed: int) -> None:
    rng = random.Random(rng_seed)
    g = GameState.new(seed)
    while g.seat_to_act is not None:
        actions = g.legal_actions()
        assert actions
        if rng.random() < 0.05:
            other = (g.seat_to_act + rng.randrange(1, 4)) % 4
            with pytest.raises(NotYourTurn):
                g.apply(actions[0], seat=other)
        g.apply(rng.choice(actions), seat=g.seat_to_act)
    assert g.legal_actions() == []


@settings(max_examples=15, deadline=None)
@given(seeds, rng_seeds, st.integers(min_value=0, max_value=900))
def test_a_seat_view_holds_no_unplayed_card_of_another_hand(
    seed: str, rng_seed: int, stop: int
) -> None:
    g = random_game(seed, rng_seed, stop)
    if g.is_terminal():
        return
    for seat in [*range(4), None]:
        text = json.dumps(g.view(seat))
        shown = {parse_card(w) for w in _words(text) if _is_card(w)}
        for other in range(4):
            if other != seat:
                assert not shown & set(mask_to_cards(g.hands[other]))
        # Earlier deals' cards are public history; the deal in progress must hide other hands.
        rec = json.dumps(g.record(seat)["deals"][-1])
        shown = {parse_card(w) for w in _words(rec) if _is_card(w)}
        for other in range(4):
            if other != seat:
                assert not shown & set(mask_to_cards(g.hands[other]))
        assert g.seed not in text and g.seed not in rec


def _words(text: str) -> list[str]:
    return [
        w.strip('"') for w in text.replace(",", " ").replace("]", " ").replace("[", " ").split()
    ]


def _is_card(w: str) -> bool:
    return len(w) == 2 and w.upper() == w and w[0] in "23456789TJQKALB" and w[1] in "SHDCB"


@SETTINGS
@given(seeds, rng_seeds, st.integers(min_value=0, max_value=1000))
def test_a_record_rebuilds_the_same_state(seed: str, rng_seed: int, stop: int) -> None:
    g = random_game(seed, rng_seed, stop)
    rec = json.loads(json.dumps(g.record("all")))
    assert record_actions(rec) == g.history
    r = state_from_record(rec) if g.is_terminal() else GameState.replay(seed, record_actions(rec))
    assert r.history == g.history and r.totals == g.totals and r.hands == g.hands
    assert r.record("all") == g.record("all")


@settings(max_examples=20, deadline=None)
@given(seeds, rng_seeds, st.integers(min_value=0, max_value=1000))
def test_validate_accepts_every_selfplay_record(seed: str, rng_seed: int, stop: int) -> None:
    finished = random_game(seed, rng_seed)
    assert validate_record(json.loads(json.dumps(finished.record("all")))) == []
    g = random_game(seed, rng_seed, stop)
    for viewer in (0, 3, None, "all"):
        assert validate_record(json.loads(json.dumps(g.record(viewer)))) == []


def _mutations(rec: dict, rng: random.Random) -> list[tuple[str, dict]]:
    out = []
    played = [d for d in rec["deals"] if d["tricks"]]
    d_i = rec["deals"].index(rng.choice(played))
    # a card
    r = copy.deepcopy(rec)
    t = rng.choice(r["deals"][d_i]["tricks"])
    j = rng.randrange(4)
    t["cards"][j] = rng.choice([card_str(c) for c in range(54) if card_str(c) != t["cards"][j]])
    out.append(("card", r))
    # a trick winner
    r = copy.deepcopy(rec)
    t = rng.choice(r["deals"][d_i]["tricks"])
    t["winner"] = (t["winner"] + rng.randrange(1, 4)) % 4
    out.append(("winner", r))
    # a score
    r = copy.deepcopy(rec)
    deal = rng.choice(r["deals"])
    deal["score"][rng.randrange(2)] += rng.choice([-10, -1, 1, 5])
    out.append(("score", r))
    # a bid that matters (a number beside a partner's board counts for nothing: docs/rules.md §4)
    r = copy.deepcopy(rec)
    deal = r["deals"][d_i]
    k = rng.randrange(4)
    opts = ["pass", "board", *range(1, deal["hand_size"])]
    opts.remove(deal["bids"][k]["bid"])
    if deal["bids"][(k + 2) % 4]["bid"] == "board" and deal["bids"][k]["bid"] != "board":
        opts = ["board"]
    deal["bids"][k]["bid"] = rng.choice(opts)
    out.append(("bid", r))
    return out


@settings(max_examples=20, deadline=None)
@given(seeds, rng_seeds)
def test_validate_rejects_any_single_altered_card_bid_winner_or_score(
    seed: str, rng_seed: int
) -> None:
    g = random_game(seed, rng_seed)
    rec = g.record("all")
    for kind, bad in _mutations(rec, random.Random(rng_seed)):
        errors = validate_record(bad)
        assert errors, f"altered {kind} accepted"
        assert errors[0].deal is not None
