"""Duplicate play (docs/rules.md §4): without redeals an all-pass deal is passed out at once,
so two games of one seed hold the same cards, with the same dealer, on every deal, whatever
one table bids; carried by replays, checkpoints and records, checked by the validator."""

from __future__ import annotations

import copy
import random

from backalley_engine import GameState, Schedule, state_from_record, validate_record
from backalley_engine.actions import PASS

SEED = "d1" * 32
DUPLICATE = Schedule(redeal=False)


def _deal_keys(g: GameState) -> dict[int, tuple[int, int, tuple[int, ...]]]:
    """Deal number -> (dealer, upcard, hands as dealt) of the last attempt at each number."""
    return {i.number: (i.state.dealer, i.state.upcard, i.state.start_hands) for i in g.all_deals()}


def _play(g: GameState, rng: random.Random, pass_out: set[int]) -> GameState:
    """Random legal play, except that every seat passes on the deal numbers ``pass_out`` and
    nobody passes on the others when a number is possible (so those are played)."""
    while not g.is_terminal():
        legal = g.legal_actions()
        if g.phase == "bidding" and g.deal_number in pass_out:
            g.apply(PASS)
        elif g.phase == "bidding" and len(legal) > 1:
            g.apply(rng.choice([a for a in legal if a != PASS]))
        else:
            g.apply(rng.choice(legal))
    return g


def test_an_all_pass_is_passed_out_at_once_and_the_deal_moves_on() -> None:
    g = GameState.new(SEED, schedule=DUPLICATE)
    dealer = g.dealer
    for _ in range(4):
        g.apply(PASS)
    (first,) = g.deals
    assert (first.number, first.attempt, first.status, first.score) == (1, 0, "passed_out", (0, 0))
    assert (g.deal_number, g.attempt, g.hand_size, g.dealer) == (2, 0, 12, (dealer + 1) % 4)
    assert g.totals == (0, 0)


def test_two_tables_of_one_seed_hold_the_same_deals_after_one_passes_out() -> None:
    voiding = _play(GameState.new(SEED, schedule=DUPLICATE), random.Random(1), {14})
    playing = _play(GameState.new(SEED, schedule=DUPLICATE), random.Random(2), set())
    assert [i.status for i in voiding.deals if i.number == 14] == ["passed_out"]
    assert len(voiding.deals) == len(playing.deals) == 25
    assert _deal_keys(voiding) == _deal_keys(playing)
    # The same seed with redeals: the void at 14 shifts the dealer, so deals 14-25 differ.
    redealt = _play(GameState.new(SEED), random.Random(1), {14})
    whole = _play(GameState.new(SEED), random.Random(2), set())
    before, after = _deal_keys(redealt), _deal_keys(whole)
    assert all(before[n] == after[n] for n in range(1, 14))
    assert all(before[n] != after[n] for n in range(14, 26))


def test_a_duplicate_game_scores_a_passed_out_deal_zero_and_plays_25_deals() -> None:
    g = _play(GameState.new(SEED, schedule=DUPLICATE), random.Random(3), {1, 13, 25})
    assert all(i.attempt == 0 for i in g.deals)
    assert [i.number for i in g.deals] == list(range(1, 26))
    assert all(g.deals[n - 1].score == (0, 0) for n in (1, 13, 25))
    assert g.outcome is not None
    assert g.outcome.totals == tuple(sum(i.score[t] for i in g.deals) for t in (0, 1))


def test_a_duplicate_game_replays_from_its_record_and_checkpoint() -> None:
    g = _play(GameState.new(SEED, schedule=DUPLICATE), random.Random(4), {2, 3})
    rec = g.record("all")
    assert rec["schedule"] == {"first": 1, "last": 25, "redeal": False}
    assert validate_record(rec) == []
    assert state_from_record(rec).totals == g.totals
    assert GameState.resume(SEED, g.checkpoint()).schedule == DUPLICATE
    plain = copy.deepcopy(rec)
    del plain["schedule"]  # read as a game with redeals, the pass-out at attempt 0 is wrong
    errors = validate_record(plain)
    assert errors and "voided" in errors[0].message
    assert "schedule" not in GameState.new(SEED).record("all")
