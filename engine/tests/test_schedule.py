"""Short games: a run of the schedule's deals (docs/rules.md §2), dealt as in a whole game,
scored over the run, carried by replays, checkpoints and records, checked by the validator."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backalley_engine import (
    BadSchedule,
    GameState,
    Schedule,
    state_from_record,
    validate_record,
)
from backalley_engine.actions import PASS
from backalley_engine.checkpoint import CheckpointError
from backalley_engine.cli import main
from backalley_engine.errors import BadRecord
from backalley_engine.shuffle import deal_cards

SEED = "5a" * 32


def _play_out(g: GameState, rng: random.Random, avoid_pass: bool = False) -> GameState:
    while not g.is_terminal():
        actions = g.legal_actions()
        if avoid_pass and len(actions) > 1 and PASS in actions:
            actions = [a for a in actions if a != PASS]
        g.apply(actions[rng.randrange(len(actions))])
    return g


def test_a_short_game_plays_only_its_run_and_ends_after_it() -> None:
    g = _play_out(GameState.new(SEED, schedule=Schedule(6, 10)), random.Random(1))
    scored = [d for d in g.deals if d.status != "voided"]
    assert [d.number for d in scored] == [6, 7, 8, 9, 10]
    assert [d.state.n for d in scored] == [8, 7, 6, 5, 4]
    assert g.outcome is not None and g.outcome.totals == g.totals
    assert g.seat_to_act is None


def test_the_runs_deals_are_the_whole_games_deals_when_nothing_was_redealt() -> None:
    """Nobody passes all round (the runs hold the same cards as the whole game's deals)."""
    whole = _play_out(GameState.new(SEED), random.Random(2), avoid_pass=True)
    run = GameState.new(SEED, schedule=Schedule(11, 15))
    dealt = {d.number: (d.state.dealer, d.state.start_hands, d.state.upcard) for d in whole.deals}
    seen = []
    rng = random.Random(3)
    while not run.is_terminal():
        seen.append((run.deal_number, (run.dealer, run.start_hands, run.upcard)))
        number = run.deal_number
        while not run.is_terminal() and run.deal_number == number:
            actions = [a for a in run.legal_actions() if a != PASS] or run.legal_actions()
            run.apply(actions[rng.randrange(len(actions))])
    assert [n for n, _ in seen] == [11, 12, 13, 14, 15]
    for number, cards in seen:
        assert cards == dealt[number], number


def test_the_first_deal_of_a_run_is_dealt_by_the_seat_that_deals_it_in_a_whole_game() -> None:
    g = GameState.new(SEED, schedule=Schedule(7, 9))
    assert g.dealer == (g.first_dealer + 6) % 4
    want = deal_cards(SEED, 7, 0, g.dealer)
    assert tuple(g.start_hands) == tuple(want.hands)


@settings(max_examples=25, deadline=None)
@given(
    first=st.integers(1, 25),
    length=st.integers(1, 25),
    play=st.integers(0, 2**32),
)
def test_every_short_game_replays_resumes_and_validates(first: int, length: int, play: int) -> None:
    schedule = Schedule(first, min(25, first + length - 1))
    g = _play_out(GameState.new(SEED, schedule=schedule), random.Random(play))
    rec = g.record("all")
    assert rec["schedule"] == {"first": schedule.first, "last": schedule.last}
    assert validate_record(rec) == []
    assert state_from_record(rec).record("all") == rec
    assert GameState.resume(SEED, g.checkpoint()).record("all") == rec
    assert GameState.replay(SEED, g.history, schedule=schedule).outcome == g.outcome


def test_a_whole_game_writes_no_schedule_anywhere() -> None:
    g = GameState.new(SEED)
    assert "schedule" not in g.record("all")
    assert "schedule" not in g.checkpoint()
    assert g.view(0)["schedule"] == {"first": 1, "last": 25}


def test_the_validator_refuses_a_short_record_without_its_schedule_and_a_wrong_one() -> None:
    rec = _play_out(GameState.new(SEED, schedule=Schedule(3, 5)), random.Random(4)).record("all")
    bare = copy.deepcopy(rec)
    del bare["schedule"]  # read as a whole game: the first deal is not deal 1
    assert "Deal number should be 1" in validate_record(bare)[0].message
    longer = copy.deepcopy(rec)
    longer["schedule"] = {"first": 3, "last": 6}
    assert "only" in validate_record(longer)[0].message
    bad = copy.deepcopy(rec)
    bad["schedule"] = {"first": 0, "last": 6}
    assert validate_record(bad)[0].message.startswith("schedule:")
    with pytest.raises(BadRecord):
        state_from_record(bad)


def test_a_deal_after_the_run_is_refused_by_the_validator() -> None:
    short = _play_out(GameState.new(SEED, schedule=Schedule(3, 4)), random.Random(5)).record("all")
    longer = _play_out(GameState.new(SEED, schedule=Schedule(3, 5)), random.Random(5))
    rec = copy.deepcopy(short)
    rec["deals"].append(longer.record("all")["deals"][-1])
    assert "after the last scored deal" in validate_record(rec)[0].message


@pytest.mark.parametrize("bad", [(0, 3), (5, 4), (1, 26), (True, 3), ("1", 3)])
def test_a_run_outside_the_schedule_is_refused(bad: tuple[object, object]) -> None:
    with pytest.raises(BadSchedule) as e:
        Schedule(*bad)  # type: ignore[arg-type]
    assert e.value.code == "bad_schedule"


def test_a_checkpoint_with_a_broken_schedule_is_refused() -> None:
    g = GameState.new(SEED, schedule=Schedule(2, 3))
    data = g.checkpoint()
    data["schedule"] = {"first": 9, "last": 2}
    with pytest.raises(CheckpointError):
        GameState.resume(SEED, data)


def test_text_form_round_trips() -> None:
    for s in (Schedule(6, 10), Schedule(25, 25), Schedule()):
        assert Schedule.parse(str(s)) == s
    assert Schedule.parse("7") == Schedule(7, 7)
    with pytest.raises(BadSchedule):
        Schedule.parse("six")


def test_selfplay_plays_short_games(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    assert main(["selfplay", "--games", "2", "--seed", "x", "--deals", "6-10"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["schedule"] for r in records] == [{"first": 6, "last": 10}] * 2
    assert all(validate_record(r) == [] for r in records)
