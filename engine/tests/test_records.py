"""Game records (docs/record-format.md): the writer's views, reading back, and the validator's
first-error reports."""

import copy
import random
from typing import Any

import pytest

from backalley_engine.actions import PASS
from backalley_engine.cards import card_str, parse_card
from backalley_engine.deal import DealState
from backalley_engine.errors import BadRecord, EngineError
from backalley_engine.records import record_actions, validate_record
from backalley_engine.state import GameState, state_from_record

SEED = "5e" * 32


def finished_game(seed: str = SEED, rng_seed: int = 1) -> GameState:
    g = GameState.new(seed)
    rng = random.Random(rng_seed)
    while g.seat_to_act is not None:
        g.apply(rng.choice(g.legal_actions()))
    return g


@pytest.fixture(scope="module")
def game() -> GameState:
    return finished_game()


@pytest.fixture()
def record(game: GameState) -> dict[str, Any]:
    return copy.deepcopy(game.record("all", players=["a", "b", "c", "d"], game="g1"))


def test_finished_record_shows_everything_and_the_seed(record: dict[str, Any]) -> None:
    assert record["format"] == "backalley-record" and record["version"] == 2
    assert record["seed"] == SEED and record["game"] == "g1"
    assert all(all(h is not None for h in d["hands"]) for d in record["deals"])
    assert record["result"]["totals"] == record["deals"][-1]["totals"]
    assert validate_record(record) == []


def test_seat_record_hides_other_hands_while_the_game_is_on() -> None:
    g = GameState.new(SEED)
    rng = random.Random(2)
    for _ in range(60):
        g.apply(rng.choice(g.legal_actions()))
    rec = g.record(2)
    assert rec["seed"] is None and rec["result"] is None
    for d in rec["deals"]:
        assert [h is None for h in d["hands"]] == [True, True, False, True]
    assert rec["deals"][-1]["status"] == "in_progress"
    spectator = g.record(None)
    assert all(h is None for d in spectator["deals"] for h in d["hands"])
    assert validate_record(rec) == [] and validate_record(spectator) == []


def test_unfinished_trick_is_listed_with_null_winner() -> None:
    g = GameState.new(SEED)
    while g.phase == "bidding":
        g.apply(g.legal_actions()[1])
    g.apply(g.legal_actions()[0])
    trick = g.record(0)["deals"][-1]["tricks"][-1]
    assert len(trick["cards"]) == 1 and trick["winner"] is None


def test_voided_and_passed_out_deals_in_the_record() -> None:
    g = GameState.new(SEED)
    for _ in range(16):
        g.apply(PASS)
    deals = g.record("all")["deals"]
    assert [d["status"] for d in deals[:4]] == ["voided"] * 3 + ["passed_out"]
    assert all(
        d["tricks"] == [] and d["score"] == [0, 0] and len(d["bids"]) == 4 for d in deals[:4]
    )
    assert deals[4]["number"] == 2 and deals[4]["attempt"] == 0
    assert validate_record(g.record(1)) == []


def test_joker_swap_drawn_card_hidden_except_to_its_holder() -> None:
    for k in range(60):
        g = GameState.new(f"{k:064x}")
        rng = random.Random(k)
        while g.seat_to_act is not None and g.swap is None:
            g.apply(rng.choice(g.legal_actions()))
        if g.swap is not None and not g.is_terminal():
            holder = g.swap.seat
            swap = g.record((holder + 1) % 4)["deals"][-1]["joker_swap"]
            assert swap["drawn"] is None and swap["discarded"] in ("LB", "BB")
            assert g.record(holder)["deals"][-1]["joker_swap"]["drawn"] is not None
            assert g.view((holder + 1) % 4)["joker_swap"]["drawn"] is None
            return
    pytest.fail("no joker swap found")


def test_state_from_record_rebuilds_the_game(game: GameState, record: dict[str, Any]) -> None:
    r = state_from_record(record)
    assert r.history == game.history and r.outcome == game.outcome
    assert record_actions(record) == game.history


def test_state_from_record_needs_the_seed(record: dict[str, Any]) -> None:
    record["seed"] = None
    with pytest.raises(BadRecord):
        state_from_record(record)


def test_state_from_record_raises_the_engine_error_on_an_illegal_move(
    record: dict[str, Any],
) -> None:
    record["deals"][0]["bids"][0]["bid"] = 13
    with pytest.raises(EngineError):
        state_from_record(record)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda r: r.update(format="other"), "format"),
        (lambda r: r.update(version=3), "version"),
        (lambda r: r.update(commitment="00" * 32), "commitment"),
        (lambda r: r.update(first_dealer=(r["first_dealer"] + 1) % 4), "first_dealer"),
        (lambda r: r["result"].update(winner=None), "winner"),
        (lambda r: r["result"].update(totals=[0, 0]), "totals"),
        (lambda r: r["deals"].pop(), "25"),
        (lambda r: r.update(result=None), "result"),
        (lambda r: r["deals"][0].update(dealer=(r["deals"][0]["dealer"] + 1) % 4), "dealer"),
        (lambda r: r["deals"][0].update(hand_size=12), "cards"),
        (lambda r: r["deals"][0]["totals"].__setitem__(0, 999), "totals"),
    ],
)
def test_validator_rejects_bad_record_fields(
    record: dict[str, Any], change: Any, words: str
) -> None:
    change(record)
    errors = validate_record(record)
    assert len(errors) == 1
    assert words in errors[0].message


def test_validator_rejects_hands_that_do_not_follow_from_the_seed(record: dict[str, Any]) -> None:
    d = record["deals"][0]
    d["hands"][0][0], d["hands"][1][0] = d["hands"][1][0], d["hands"][0][0]
    (err,) = validate_record(record)
    assert err.deal == 1 and "seed" in err.message


def _first_illegal_alternative(record: dict[str, Any]) -> tuple[int, int, int, str, str]:
    """A (deal index, trick, position, card, expected code) where a held card is illegal."""
    for i, d in enumerate(record["deals"]):
        if d["status"] != "played" or d["trump"] is None:
            continue
        hands = [sum(1 << parse_card(c) for c in h) for h in d["hands"]]
        ds = DealState(hands, parse_card(d["upcard"]), d["dealer"])
        for b in d["bids"]:
            ds.apply(
                PASS + b["bid"]
                if isinstance(b["bid"], int)
                else (PASS if b["bid"] == "pass" else 67)
            )
        for k, t in enumerate(d["tricks"]):
            for j, c in enumerate(t["cards"]):
                legal = ds.legal_mask()
                illegal = ds.hands[ds.to_act] & ~legal
                if illegal:
                    bad = card_str(illegal.bit_length() - 1)
                    try:
                        ds.clone().apply(parse_card(bad))
                    except EngineError as e:
                        return i, k, j, bad, e.code
                ds.apply(parse_card(c))
    raise AssertionError("no illegal alternative found")


def test_validator_reports_the_first_illegal_card_with_deal_trick_and_card(
    record: dict[str, Any],
) -> None:
    i, k, j, bad, code = _first_illegal_alternative(record)
    record["deals"][i]["tricks"][k]["cards"][j] = bad
    (err,) = validate_record(record)
    assert (err.deal, err.trick, err.at, err.code) == (record["deals"][i]["number"], k, bad, code)


def test_validator_reports_illegal_bid(record: dict[str, Any]) -> None:
    d = next(d for d in record["deals"] if d["hand_size"] == 1)
    d["bids"][2]["bid"] = 1
    (err,) = validate_record(record)
    assert err.deal == 13 and err.at == "1" and err.code == "illegal_bid"


def test_validator_reports_wrong_trick_winner_and_leader(record: dict[str, Any]) -> None:
    r = copy.deepcopy(record)
    t = r["deals"][-1]["tricks"][3]
    t["winner"] = (t["winner"] + 1) % 4
    (err,) = validate_record(r)
    assert err.trick == 3 and err.deal == 25 and "wins this trick" in err.message
    r = copy.deepcopy(record)
    t = r["deals"][-1]["tricks"][0]
    t["leader"] = (t["leader"] + 1) % 4
    (err,) = validate_record(r)
    assert err.trick == 0 and "leader" in err.message


def test_validator_reports_a_wrong_status_for_an_all_pass_deal() -> None:
    g = GameState.new(SEED)
    for _ in range(4):
        g.apply(PASS)
    rec = g.record(0)
    rec["deals"][0]["status"] = "played"
    (err,) = validate_record(rec)
    assert "voided" in err.message
    rec = g.record(0)
    rec["deals"][1]["attempt"] = 0
    (err,) = validate_record(rec)
    assert "Attempt" in err.message


def test_validator_checks_hidden_records_from_the_cards_played(record: dict[str, Any]) -> None:
    record["seed"] = None
    record["result"] = None
    record["deals"] = record["deals"][:-1]
    for d in record["deals"]:
        d["hands"] = [None, None, None, None]
        if d["joker_swap"]:
            d["joker_swap"]["drawn"] = None
    assert validate_record(record) == []
    r = copy.deepcopy(record)
    d = next(d for d in r["deals"] if d["tricks"])
    d["tricks"][1]["cards"][2] = d["tricks"][0]["cards"][0]  # a card played twice
    (err,) = validate_record(r)
    assert err.trick == 1 and err.at == d["tricks"][0]["cards"][0]


def test_validator_never_crashes_on_garbage() -> None:
    for bad in (None, [], "x", {"format": "backalley-record", "version": 1, "deals": [None]}, {}):
        errors = validate_record(bad)
        assert len(errors) == 1


def test_a_finished_record_kept_closed_shows_only_the_viewers_hands(game: GameState) -> None:
    """``reveal=False``: a seed shared with games still in play (docs/rules.md §8)."""
    for viewer in (None, 0, 1, 2, 3):
        rec = game.record(viewer, reveal=False)
        assert rec["seed"] is None and rec["result"] is not None
        for deal in rec["deals"]:
            shown = [h is not None for h in deal["hands"]]
            assert shown == [viewer == s for s in range(4)]
            swap = deal["joker_swap"]
            if swap is not None and swap["seat"] != viewer:
                assert swap["drawn"] is None
        view = game.view(viewer, reveal=False)
        assert view["seed"] is None
    assert game.record(0)["seed"] == SEED and game.view(None)["seed"] == SEED


def test_reveal_never_opens_a_game_in_play() -> None:
    g = GameState.new(SEED)
    g.apply(g.legal_actions()[0])
    assert g.record(None, reveal=True)["seed"] is None
    assert g.view(None, reveal=True)["seed"] is None
    assert all(h is None for h in g.record(None, reveal=True)["deals"][0]["hands"])
