"""Following, leading trump, Blooper leads and trick winners (docs/rules.md §3, §5)."""

import pytest

from backalley_engine.cards import parse_card
from backalley_engine.errors import (
    IllegalCard,
    MustFollowSuit,
    MustPlayHighestTrump,
    MustPlayLowestTrump,
    TrumpNotBroken,
    WrongPhase,
)
from helpers import act, deal, legal

# Trump is hearts (upcard 5H) unless a test says otherwise; dealer 3, so seat 0 bids first.


def test_trump_cannot_be_led_before_broken() -> None:
    d = deal(["AH 2S 3S", "4S 5S 6S", "7S 8S 9S", "TS JS QS"], "5H")
    act(d, "1", "pass", "pass", "pass")  # seat 0 leads
    assert legal(d) == {"2S", "3S"}
    with pytest.raises(TrumpNotBroken) as err:
        act(d, "AH")
    assert err.value.code == "trump_not_broken"
    assert d.trick == [] and d.hands[0].bit_count() == 3  # unchanged


def test_jokers_count_as_trump_for_the_lead_restriction() -> None:
    d = deal(["BB LB 2S", "4S 5S 6S", "7S 8S 9S", "TS JS QS"], "5H")
    act(d, "1", "pass", "pass", "pass")
    assert legal(d) == {"2S"}
    with pytest.raises(TrumpNotBroken):
        act(d, "BB")


def test_trump_may_be_led_once_played_in_an_earlier_trick() -> None:
    # Seat 1 is void in spades and trumps trick 1: trump is broken; seat 1 then leads trump.
    d = deal(["2S 3S 4D", "2H AH 5D", "7S 8S 9D", "TS JS TD"], "5H")
    act(d, "1", "pass", "pass", "pass")
    act(d, "2S", "2H", "7S", "TS")
    assert d.broken and d.tricks[-1][2] == 1
    assert legal(d) == {"AH", "5D"}
    act(d, "AH")


def test_trump_not_broken_by_a_trump_in_the_current_trick() -> None:
    d = deal(["2S 3S", "2H 5D", "7S 8S", "TS JS"], "5H")
    act(d, "1", "pass", "pass", "pass")
    act(d, "2S")
    assert not d.broken  # a trump in this trick only breaks trump for later leads
    act(d, "2H")
    assert not d.broken


def test_board_bidder_may_lead_trump_at_once() -> None:
    d = deal(["AH 2S 3S", "4S 5S 6S", "7S 8S 9S", "TS JS QS"], "5H")
    act(d, "board", "pass", "pass", "pass")
    assert "AH" in legal(d)
    act(d, "AH")


def test_partner_of_board_bidder_gets_no_right_to_lead_trump() -> None:
    # Seat 0 bids board, seat 2 (partner) bids 1 and wins trick 1, then must not lead trump.
    d = deal(["2S 3D", "3S 4D", "AS KH", "4S 5D"], "5H", dealer=3)
    act(d, "board", "pass", "1", "pass")  # seat 0 leads (board outranks numbers)
    act(d, "2S", "3S", "AS", "4S")
    assert d.tricks[-1][2] == 2 and d.to_act == 2
    assert legal(d) == {"KH"}  # only trumps left: exception (c)
    d2 = deal(["2S 3D 4C", "3S 4D 5C", "AS KH 6C", "4S 5D 7C"], "5H", dealer=3)
    act(d2, "board", "pass", "1", "pass")
    act(d2, "2S", "3S", "AS", "4S")
    assert legal(d2) == {"6C"}
    with pytest.raises(TrumpNotBroken):
        act(d2, "KH")


def test_player_holding_only_trumps_may_lead_trump() -> None:
    d = deal(["AH KH", "4S 5S", "7S 8S", "TS JS"], "5H")
    act(d, "1", "pass", "pass", "pass")
    assert legal(d) == {"AH", "KH"}
    act(d, "KH")


def test_must_follow_led_suit() -> None:
    d = deal(["2S 3D", "4S 5D", "7S 8D", "TS JD"], "5H")
    act(d, "1", "pass", "pass", "pass")
    act(d, "2S")
    assert legal(d) == {"4S"}
    with pytest.raises(MustFollowSuit) as err:
        act(d, "5D")
    assert err.value.code == "must_follow_suit"
    assert "spades" in err.value.message


def test_player_who_cannot_follow_may_play_anything_trump_included() -> None:
    d = deal(["2S 3D", "2H 5D", "7S 8D", "TS JD"], "5H")
    act(d, "1", "pass", "pass", "pass")
    act(d, "2S")
    assert legal(d) == {"2H", "5D"}


def test_jokers_follow_a_trump_lead() -> None:
    # The board bidder leads trump; seat 1's only trump is LB: it must follow with it.
    d = deal(["3H 2S", "LB 5D", "7S 8D", "TS JD"], "5H")
    act(d, "board", "pass", "pass", "pass")  # board bidder may lead trump
    act(d, "3H")
    assert legal(d) == {"LB"}
    with pytest.raises(MustFollowSuit) as err:
        act(d, "5D")
    assert "trumps" in err.value.message


def test_joker_cannot_be_played_on_non_trump_lead_when_holding_led_suit() -> None:
    d = deal(["2S 3D", "4S BB", "7S 8D", "TS JD"], "5H")
    act(d, "1", "pass", "pass", "pass")
    act(d, "2S")
    assert legal(d) == {"4S"}
    with pytest.raises(MustFollowSuit):
        act(d, "BB")


def test_joker_may_be_played_when_void_in_led_suit() -> None:
    d = deal(["2S 3D", "4D BB", "7S 8D", "TS JD"], "5H")
    act(d, "1", "pass", "pass", "pass")
    act(d, "2S")
    assert legal(d) == {"4D", "BB"}
    act(d, "BB", "7S", "TS")
    assert d.tricks[-1][2] == 1 and d.broken


def test_big_blooper_lead_forces_highest_trump_partners_too() -> None:
    d = deal(["BB 2S", "3H AH", "LB 2H", "4H 9S"], "5H")
    act(d, "board", "pass", "pass", "pass")
    act(d, "BB")
    assert legal(d) == {"AH"}
    with pytest.raises(MustPlayHighestTrump) as err:
        act(d, "3H")
    assert err.value.code == "must_play_highest_trump"
    act(d, "AH")
    assert legal(d) == {"LB"}  # the partner is bound too: LB is seat 2's highest trump
    act(d, "LB", "4H")
    assert d.tricks[-1][2] == 0


def test_little_blooper_lead_forces_lowest_trump() -> None:
    d = deal(["LB 2S", "3H AH", "KH 2H", "4H 9S"], "5H")
    act(d, "board", "pass", "pass", "pass")
    act(d, "LB")
    assert legal(d) == {"3H"}
    with pytest.raises(MustPlayLowestTrump) as err:
        act(d, "AH")
    assert err.value.code == "must_play_lowest_trump"
    act(d, "3H")
    assert legal(d) == {"2H"}  # partner too


def test_little_blooper_lead_holder_of_only_big_blooper_plays_it() -> None:
    d = deal(["LB 2S", "BB 3S", "KH 2D", "4H 9S"], "5H")
    act(d, "board", "pass", "pass", "pass")
    act(d, "LB")
    assert legal(d) == {"BB"}
    act(d, "BB")
    act(d, "KH", "4H")
    assert d.tricks[-1][2] == 1


def test_blooper_lead_player_without_trump_may_play_anything() -> None:
    d = deal(["BB 2S", "3S 4D", "KH 2D", "4H 9S"], "5H")
    act(d, "board", "pass", "pass", "pass")
    act(d, "BB")
    assert legal(d) == {"3S", "4D"}


def test_highest_trump_wins_and_jokers_outrank_the_ace() -> None:
    d = deal(["AS 2D", "LB 3D", "AH 4D", "BB 5D"], "5H")
    act(d, "1", "pass", "pass", "pass")
    act(d, "AS", "LB", "AH", "BB")
    assert d.tricks[-1] == (0, tuple(parse_card(c) for c in ("AS", "LB", "AH", "BB")), 3)
    assert d.to_act == 3 and d.leader == 3  # the winner leads the next trick


def test_highest_card_of_led_suit_wins_without_trump() -> None:
    d = deal(["9S 2D", "AD 3D", "KS 4D", "2S 5D"], "5H")
    act(d, "1", "pass", "pass", "pass")
    act(d, "9S", "AD", "KS", "2S")  # AD is off-suit: it cannot win
    assert d.tricks[-1][2] == 2


def test_no_trump_deal_has_no_trump_restrictions() -> None:
    # Upcard BB: no trump suit; the hands hold no joker; hearts are an ordinary suit.
    d = deal(["AH 2S", "3H 4S", "KH 5S", "2H 6S"], "BB")
    assert d.trump is None
    act(d, "1", "pass", "pass", "pass")
    assert legal(d) == {"AH", "2S"}
    act(d, "2S", "4S", "5S", "6S")
    assert d.tricks[-1][2] == 3 and not d.broken
    act(d, "2H", "AH", "3H", "KH")
    assert d.tricks[-1][2] == 0


def test_no_trump_deal_refuses_a_joker_in_hand() -> None:
    with pytest.raises(ValueError):
        deal(["LB 2S", "3H 4S", "KH 5S", "2H 6S"], "BB")


def test_card_not_in_hand_is_illegal_card() -> None:
    d = deal(["2S 3D", "4S 5D", "7S 8D", "TS JD"], "5H")
    act(d, "1", "pass", "pass", "pass")
    with pytest.raises(IllegalCard) as err:
        act(d, "7S")
    assert err.value.code == "illegal_card"
    assert "7S" not in err.value.message or "seat" not in err.value.message


def test_card_during_bidding_is_wrong_phase_and_bid_during_play_too() -> None:
    d = deal(["2S 3D", "4S 5D", "7S 8D", "TS JD"], "5H")
    with pytest.raises(WrongPhase):
        act(d, "2S")
    act(d, "1", "pass", "pass", "pass")
    with pytest.raises(WrongPhase) as err:
        act(d, "pass")
    assert err.value.code == "wrong_phase"
