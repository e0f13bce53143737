"""Card notation and action forms (docs/rules.md §1, engine contract)."""

import pytest

from backalley_engine.actions import (
    BOARD,
    PASS,
    action_from_json,
    action_str,
    action_to_json,
    bid_action,
    parse_action,
)
from backalley_engine.cards import BB, LB, card_mask, card_str, mask_to_cards, parse_card
from backalley_engine.errors import ActionParseError, CardParseError


def test_canonical_order_is_suit_times_13_plus_rank() -> None:
    assert parse_card("2S") == 0
    assert parse_card("AS") == 12
    assert parse_card("2H") == 13
    assert parse_card("AC") == 51
    assert parse_card("LB") == LB == 52
    assert parse_card("BB") == BB == 53


def test_every_card_round_trips_through_its_text() -> None:
    assert all(parse_card(card_str(c)) == c for c in range(54))
    assert len({card_str(c) for c in range(54)}) == 54


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("10D", "TD"), ("td", "TD"), ("10h", "TH"), ("bb", "BB"), (" qs ", "QS")],
)
def test_parser_accepts_ten_and_lower_case_but_emits_canonical(text: str, canonical: str) -> None:
    assert card_str(parse_card(text)) == canonical


@pytest.mark.parametrize("bad", ["", "1D", "11S", "XS", "AZ", "JOKER", "10", "B B"])
def test_bad_card_text_raises_bad_card(bad: str) -> None:
    with pytest.raises(CardParseError) as err:
        parse_card(bad)
    assert err.value.code == "bad_card"


def test_mask_round_trip() -> None:
    cards = [0, 12, 13, 30, 51, 52, 53]
    assert mask_to_cards(card_mask(cards)) == cards


def test_actions_are_cards_pass_numbers_and_board() -> None:
    assert PASS == 54 and bid_action(1) == 55 and bid_action(12) == 66 and BOARD == 67
    assert [action_str(a) for a in (PASS, bid_action(3), BOARD, 12)] == ["pass", "3", "board", "AS"]


def test_action_text_and_json_round_trip() -> None:
    for a in range(68):
        assert parse_action(action_str(a)) == a
        assert action_from_json(action_to_json(a)) == a
    assert action_to_json(bid_action(3)) == {"bid": 3}
    assert action_to_json(BOARD) == {"bid": "board"}
    assert action_to_json(12) == {"card": "AS"}
    assert parse_action("10") == bid_action(10)
    assert parse_action("10d") == parse_card("TD")


@pytest.mark.parametrize(
    "bad",
    [
        None,
        3,
        "x",
        {},
        {"bid": 0},
        {"bid": 13},
        {"bid": True},
        {"card": "ZZ"},
        {"bid": 1, "card": "AS"},
        {"move": 1},
    ],
)
def test_malformed_action_json_raises_bad_action(bad: object) -> None:
    with pytest.raises(ActionParseError) as err:
        action_from_json(bad)
    assert err.value.code == "bad_action"


def test_bid_action_range() -> None:
    with pytest.raises(ActionParseError):
        bid_action(0)
    with pytest.raises(ActionParseError):
        bid_action(13)
