"""Bids, board levels, opening leads and every scoring case (docs/rules.md §4-§6)."""

import pytest

from backalley_engine.actions import BOARD, PASS, bid_action
from backalley_engine.deal import score_team
from backalley_engine.errors import IllegalBid
from helpers import act, deal, legal

FOUR = ["2S 3S 4S 5S", "6S 7S 8S 9S", "TS JS QS KS", "2D 3D 4D 5D"]


def test_bids_are_pass_one_to_n_minus_one_and_board() -> None:
    d = deal(FOUR, "AS")
    assert d.legal_actions() == [PASS, bid_action(1), bid_action(2), bid_action(3), BOARD]
    with pytest.raises(IllegalBid) as err:
        act(d, "4")
    assert err.value.code == "illegal_bid"
    assert d.bids == []


def test_one_card_deal_allows_only_pass_or_board() -> None:
    d = deal(["2S", "3S", "4S", "5S"], "AS")
    assert legal(d) == {"pass", "board"}
    with pytest.raises(IllegalBid):
        act(d, "1")


def test_bidding_starts_left_of_dealer_and_dealer_bids_last() -> None:
    d = deal(FOUR, "AS", dealer=1)
    assert d.to_act == 2
    act(d, "pass", "pass", "pass")
    assert d.to_act == 1


def test_board_levels_follow_claim_order_whoever_claims() -> None:
    d = deal(FOUR, "AS", dealer=3)
    act(d, "board", "board", "board", "board")
    assert d.board_level == [1, 2, 3, 4]


def test_team_level_is_the_highest_of_the_partners_and_numbers_no_longer_count() -> None:
    d = deal(FOUR, "AS", dealer=3)
    act(d, "board", "2", "board", "pass")
    assert d.contracts() == ((0, 2), (2, 0))
    d = deal(FOUR, "AS", dealer=3)
    act(d, "3", "board", "board", "pass")
    assert d.contracts()[1] == (0, 1) and d.contracts()[0] == (3, 2)


def test_team_contract_is_the_sum_of_partners_numbers() -> None:
    d = deal(FOUR, "AS", dealer=3)
    act(d, "2", "1", "3", "pass")
    assert d.contracts() == ((5, 0), (1, 0))


def test_opening_lead_highest_number() -> None:
    d = deal(FOUR, "AS", dealer=3)
    act(d, "1", "3", "2", "pass")
    assert d.to_act == 1 and d.phase == "playing"


def test_opening_lead_equal_numbers_first_bidder_leads() -> None:
    d = deal(FOUR, "AS", dealer=3)
    act(d, "1", "2", "pass", "2")
    assert d.to_act == 1


def test_opening_lead_any_board_outranks_any_number() -> None:
    d = deal(FOUR, "AS", dealer=3)
    act(d, "3", "pass", "board", "3")
    assert d.to_act == 2


def test_opening_lead_latest_board_leads() -> None:
    d = deal(FOUR, "AS", dealer=3)
    act(d, "board", "3", "board", "pass")
    assert d.to_act == 2
    d = deal(FOUR, "AS", dealer=0)  # seat 1 bids first
    act(d, "board", "board", "pass", "pass")
    assert d.to_act == 2


def test_all_pass_voids_the_deal() -> None:
    d = deal(FOUR, "AS")
    act(d, "pass", "pass", "pass", "pass")
    assert d.phase == "done" and d.all_passed() and d.scores() == (0, 0)


def test_team_totals_above_hand_size_are_legal_and_fail() -> None:
    d = deal(FOUR, "AS", dealer=3)
    act(d, "3", "pass", "3", "pass")
    assert d.contracts()[0] == (6, 0)
    assert score_team(6, 0, 4, 4) == -30


@pytest.mark.parametrize(
    ("number", "board", "tricks", "n", "points"),
    [
        (3, 0, 3, 7, 15),  # made exactly: 5*b
        (3, 0, 5, 7, 17),  # overtricks: +1 each
        (3, 0, 2, 7, -15),  # failed: -5*b
        (0, 0, 0, 7, 0),  # both passed: +1 per trick, never fails
        (0, 0, 4, 7, 4),
        (0, 1, 7, 7, 70),  # single board made: 10*n
        (0, 1, 6, 7, -70),  # single board failed
        (0, 2, 13, 13, 260),  # double board
        (0, 3, 1, 1, 30),  # triple board on a 1-card deal
        (0, 4, 0, 2, -80),  # quadruple board failed
        (5, 1, 12, 13, -130),  # a board overrides the partner's number
    ],
)
def test_scoring_cases(number: int, board: int, tricks: int, n: int, points: int) -> None:
    assert score_team(number, board, tricks, n) == points


def test_each_team_scored_on_its_own_contract_when_the_other_makes_board() -> None:
    # Seat 0 bids board and takes both tricks; team 1's 1 fails.
    d = deal(["AS AD", "2S 2D", "3S 3D", "4S 4D"], "5H", dealer=3)
    act(d, "board", "1", "pass", "pass")
    act(d, "AS", "2S", "3S", "4S", "AD", "2D", "3D", "4D")
    assert d.team_tricks() == (2, 0)
    assert d.scores() == (20, -5)


def test_both_boards_failing_lose_level_times_ten_times_n() -> None:
    d = deal(["AS 2D", "2S AD", "3S 3D", "4S 4D"], "5H", dealer=3)
    act(d, "board", "board", "pass", "pass")  # seat 1's board is double and it leads
    assert d.to_act == 1
    act(d, "AD", "3D", "4D", "2D")  # seat 1 wins
    act(d, "2S", "3S", "4S", "AS")  # seat 0 wins
    assert d.scores() == (-20, -40)


def test_deal_scores_after_full_play() -> None:
    d = deal(["AS 2D", "2S AD", "3S 3D", "4S 4D"], "5H", dealer=3)
    act(d, "1", "board", "pass", "pass")  # seat 1 (board) leads
    act(d, "AD", "3D", "4D", "2D")  # seat 1 wins
    act(d, "2S", "3S", "4S", "AS")  # seat 0 wins with AS
    assert d.team_tricks() == (1, 1)
    assert d.scores() == (5, -20)
