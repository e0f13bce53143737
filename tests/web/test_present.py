"""How the table arranges what a seat sees: hand order, seats around the table, bids."""

from __future__ import annotations

from backalley_engine.cards import card_str
from backalley_engine.state import GameState
from games.web.present import card_view, sorted_hand, table_view

SEED = "ab" * 32


def test_hand_is_grouped_by_suit_with_trumps_first_and_jokers_on_top() -> None:
    hand = ["5H", "AS", "BB", "2C", "KC", "LB", "TD", "3S", "AC"]
    assert sorted_hand(hand, "C") == ["BB", "LB", "AC", "KC", "2C", "TD", "AS", "3S", "5H"]
    # Suits alternate colours after trump: clubs, diamonds, spades, hearts.
    assert sorted_hand(["5H", "AS", "TD", "2C"], "H") == ["5H", "2C", "TD", "AS"]


def test_no_trump_hand_keeps_the_plain_suit_order() -> None:
    assert sorted_hand(["2C", "KD", "AS", "3H"], None) == ["AS", "3H", "2C", "KD"]


def test_card_faces_have_names_for_screen_readers() -> None:
    assert card_view("TD").label == "ten of diamonds" and card_view("TD").rank == "10"
    assert card_view("BB").label == "Big Blooper" and card_view("LB").suit == "joker"


def _payload(state: GameState, seat: int | None) -> dict:
    seats = [{"position": p, "player": n, "is_bot": False} for p, n in enumerate("nesw")]
    return {"your_seat": seat, "seats": seats, "view": state.view(seat)}


def test_seats_sit_around_the_viewer_and_only_engine_bids_are_offered() -> None:
    state = GameState.new(SEED)
    seat = state.seat_to_act
    tv = table_view(_payload(state, seat))
    places = {s.place: s.position for s in tv.seats}
    assert places == {
        "bottom": seat, "left": (seat + 1) % 4, "top": (seat + 2) % 4, "right": (seat + 3) % 4
    }  # fmt: skip
    assert [b["value"] for b in tv.bids] == state.legal_actions_text()
    assert tv.my_turn and not any(c.legal for c in tv.hand)
    other = table_view(_payload(state, (seat + 1) % 4))
    assert other.bids == [] and not other.my_turn and other.to_act.position == seat


def test_once_playing_only_legal_cards_are_enabled_and_bids_are_shown() -> None:
    state = GameState.new(SEED)
    for _ in range(4):
        state.apply(state.legal_actions()[1])  # everyone bids 1
    seat = state.seat_to_act
    tv = table_view(_payload(state, seat))
    legal = set(state.legal_actions_text())
    assert {c.code for c in tv.hand if c.legal} == legal
    assert tv.bids == [] and all(s.bid == "1" for s in tv.seats)
    state.apply(state.legal_actions()[0])
    tv = table_view(_payload(state, seat))
    assert [tc.seat.position for tc in tv.trick] == [seat]
    assert tv.trick[0].card.code not in {c.code for c in tv.hand}


def test_a_finished_game_names_the_winners_and_offers_nothing() -> None:
    state = GameState.new(SEED)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[1] if len(legal) > 1 and legal[0] == 54 else legal[0])
    tv = table_view(_payload(state, 0))
    winner = state.outcome.winner
    assert tv.result == ("A draw." if winner is None else f"{tv.team_names[winner]} win.")
    assert tv.bids == [] and not tv.my_turn and tv.to_act is None
    assert tv.totals == list(state.outcome.totals)
    assert len([r for r in tv.scores if r.note != "all passed: redealt"]) == 25  # 25 scored deals


def test_only_the_joker_swapper_learns_the_card_drawn() -> None:
    # A seed whose first upcard is a joker, with the other joker dealt (so it is swapped).
    state = next(s for s in (GameState.new(f"{i:064x}") for i in range(500)) if s.swap is not None)
    swapper = state.swap.seat
    drawn = card_view(card_str(state.swap.drawn)).label
    mine = table_view(_payload(state, swapper)).joker_swap
    assert mine.endswith(f"drew the {drawn}.")
    assert table_view(_payload(state, swapper)).trump_text == "no trump"
    for seat in range(4):
        if seat != swapper:
            theirs = table_view(_payload(state, seat)).joker_swap
            assert (
                "discarded the" in theirs
                and drawn not in theirs
                and "drew a card from the pack" in theirs
            )
