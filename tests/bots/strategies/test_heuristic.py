"""The heuristic's card sense in small constructed deals (seat dealer+1 = 0 bids first)."""

from backalley_engine.actions import BOARD, PASS
from backalley_engine.cards import TRUMP_MASKS, parse_card
from backalley_engine.heuristic import choose_bid, estimate_tricks
from tests.bots.strategies.helpers import act, deal, hand, heuristic_move


def test_last_hand_wins_with_its_cheapest_winning_card() -> None:
    d = deal(["5S 2D 3D", "3S 4D 5D", "9S 6D 7D", "TS KS AS"], "2H")
    act(d, "1", "1", "1", "1", "5S", "3S", "9S")
    assert heuristic_move(d) == "TS"


def test_does_not_overtake_the_partners_sure_winner() -> None:
    d = deal(["AS 2D 3D", "2S 4D 5D", "KS 3S 8D", "5S 6D 7D"], "2H")
    act(d, "1", "1", "1", "1", "AS", "2S")
    assert heuristic_move(d) == "3S"


def test_last_hand_ducks_under_the_partners_winning_card() -> None:
    d = deal(["KS 3S 4D", "4S 5D 6D", "9S 7D 8D", "2S 9D TD"], "2H")
    act(d, "1", "2", "1", "1", "4S", "9S", "2S")
    assert heuristic_move(d) == "3S"


def test_trumps_in_with_the_lowest_trump_when_void_and_opponents_win() -> None:
    d = deal(["4S 2D 3D", "2S 4D 5D", "KS 6D 7D", "2H 4H 5C"], "3H")
    act(d, "1", "1", "1", "1", "4S", "2S", "KS")
    assert heuristic_move(d) == "2H"


def test_does_not_trump_the_partners_winning_trick() -> None:
    d = deal(["4S 2D 3D", "AS 4D 5D", "KS 6D 7D", "2H 4H 5C"], "3H")
    act(d, "1", "1", "1", "1", "4S", "AS", "KS")
    assert heuristic_move(d) == "5C"


def test_keeps_a_blooper_when_a_plain_trump_wins() -> None:
    d = deal(["4S 2D 3D", "2S 4D 5D", "KS 6D 7D", "BB 4H 5C"], "3H")
    act(d, "1", "1", "1", "1", "4S", "2S", "KS")
    assert heuristic_move(d) == "4H"


def test_bids_board_on_a_one_card_deal_with_the_big_blooper() -> None:
    tm = TRUMP_MASKS[1]
    mine = hand("BB")
    live = ((1 << 54) - 1) & ~mine & ~(1 << parse_card("3H"))
    assert choose_bid(mine, tm, 1, live, 0, 3, []) == BOARD


def test_strong_hands_bid_more_than_weak_ones() -> None:
    tm = TRUMP_MASKS[1]
    upcard = 1 << parse_card("3H")
    full = (1 << 54) - 1
    strong = hand("BB LB AH KH AS AC QH")
    weak = hand("2S 3S 4D 5D 2C 6C 7S")
    s_est, _ = estimate_tricks(strong, tm, 7, full & ~strong & ~upcard)
    w_est, _ = estimate_tricks(weak, tm, 7, full & ~weak & ~upcard)
    assert s_est >= 5 > 1 > w_est
    assert choose_bid(weak, tm, 7, full & ~weak & ~upcard, 0, 3, []) == PASS
    strong_bid = choose_bid(strong, tm, 7, full & ~strong & ~upcard, 0, 3, [])
    assert strong_bid == BOARD or strong_bid >= PASS + 4


def test_bid_leaves_room_for_the_partners_number() -> None:
    tm = TRUMP_MASKS[1]
    upcard = 1 << parse_card("3H")
    full = (1 << 54) - 1
    mine = hand("AS AC AD KH 2D")
    live = full & ~mine & ~upcard
    alone = choose_bid(mine, tm, 5, live, 2, 3, [PASS, PASS])
    after_partner = choose_bid(mine, tm, 5, live, 2, 3, [PASS + 4, PASS])
    assert alone == PASS + 3
    assert after_partner == PASS + 1  # the team total stays within the deal's five tricks
