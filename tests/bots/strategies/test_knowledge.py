"""SeatKnowledge reads only what the seat may see, and infers what play has revealed."""

import random
from typing import Any

import pytest

from backalley_engine.cards import JOKERS_MASK, SUIT_MASKS, TRUMP_MASKS, parse_card
from backalley_engine.shuffle import JokerSwap
from backalley_engine.state import GameState
from bots.strategies import choose_action, get_strategy
from bots.strategies.knowledge import SeatKnowledge
from bots.strategies.sampling import bid_fit, sample_hands, world_from_hands
from tests.bots.strategies.helpers import act, deal, knowledge

SEED = "5e" * 32


class _GuardedHands(list[int]):
    """A hands list whose other seats' entries may not be read."""

    def __init__(self, hands: list[int], seat: int) -> None:
        super().__init__(hands)
        self.seat = seat

    def __getitem__(self, i: Any) -> Any:
        if i != self.seat:
            raise AssertionError(f"read the hidden hand of seat {i}")
        return super().__getitem__(i)

    def __iter__(self) -> Any:
        raise AssertionError("iterated over all hands")


class _GuardedSwap:
    def __init__(self, swap: JokerSwap, seat: int) -> None:
        self.seat_ = seat
        self._swap = swap

    def __getattr__(self, name: str) -> Any:
        if name == "drawn" and self._swap.seat != self.seat_:
            raise AssertionError("read another seat's drawn card")
        return getattr(self._swap, name)


class _GuardedState:
    """A GameState stand-in that refuses every read of a card the seat cannot see."""

    def __init__(self, g: GameState, seat: int) -> None:
        self._g = g
        self._seat = seat
        self.hands = _GuardedHands(g.hands, seat)
        self.swap = _GuardedSwap(g.swap, seat) if g.swap else None

    def __getattr__(self, name: str) -> Any:
        if name in ("start_hands", "seed", "_key", "deals"):
            raise AssertionError(f"read {name}")
        return getattr(self._g, name)


def _midgame(seed: str, moves: int) -> GameState:
    g = GameState.new(seed)
    rng = random.Random(moves)
    for _ in range(moves):
        g.apply(rng.choice(g.legal_actions()))
    return g


def _no_trump_game() -> GameState:
    for i in range(200):
        g = GameState.new(f"{i:064x}")
        if g.trump is None and g.swap is not None and g.swap.seat != g.seat_to_act:
            return g
    raise AssertionError("no no-trump first deal found")


@pytest.mark.parametrize("moves", [0, 3, 9, 30, 61])
def test_knowledge_reads_no_hidden_card(moves: int) -> None:
    g = _midgame(SEED, moves)
    seat = g.seat_to_act
    assert seat is not None
    info = SeatKnowledge.from_deal(_GuardedState(g, seat), seat, swap=None)  # type: ignore[arg-type]
    assert info == SeatKnowledge.from_deal(g, seat)
    assert info.hand == g.hands[seat]
    for other in range(4):
        if other != seat:
            assert not g.hands[other] & ~info.unseen  # every hidden card counts as unseen


def test_knowledge_of_a_joker_swap_shows_the_discard_but_not_anothers_draw() -> None:
    g = _no_trump_game()
    seat = g.seat_to_act
    assert seat is not None and g.swap is not None
    guarded = _GuardedState(g, seat)
    info = SeatKnowledge.from_deal(guarded, seat, swap=guarded.swap)  # type: ignore[arg-type]
    assert info.swap_seat == g.swap.seat
    assert info.swap_discarded == g.swap.discarded
    assert info.drawn is None
    assert not info.unseen & JOKERS_MASK  # no joker is in play in a no-trump deal
    own = SeatKnowledge.from_state(g, g.swap.seat)
    assert own.drawn == g.swap.drawn


def test_not_following_suit_shows_a_void() -> None:
    d = deal(["4S 2D 3D", "2S 4D 5D", "KS 6D 7D", "2H 4H 5C"], "3H")
    act(d, "1", "1", "1", "1", "4S", "2S", "KS", "5C")
    info = knowledge(d)
    assert info.excluded[3] & SUIT_MASKS[0] == SUIT_MASKS[0]
    assert not info.excluded[1] & SUIT_MASKS[1]


def test_blooper_leads_bound_the_trumps_played() -> None:
    # BB led: seat 1 played QH as its highest trump, so it holds no trump above QH.
    d = deal(["BB 2D 3D", "QH 4H 5D", "2H 6D 7D", "5S 6C 5C"], "3H", dealer=3)
    act(d, "board", "1", "1", "1", "BB", "QH", "2H", "5S")
    info = knowledge(d)
    tm = TRUMP_MASKS[1]
    above_q = tm & ~((2 << parse_card("QH")) - 1)
    assert info.excluded[1] & above_q == above_q
    assert not info.excluded[1] & (1 << parse_card("4H"))
    assert info.excluded[3] & tm == tm  # seat 3 showed no trump at all
    # LB led: seat 2 played 9H as its lowest trump, so it holds no trump below 9H.
    d = deal(["LB 2D 3D", "4S 4H 5D", "9H JH 7D", "5S 6C 5C"], "3H", dealer=3)
    act(d, "board", "1", "1", "1", "LB", "4H", "9H")
    info = knowledge(d)
    below_9 = tm & ((1 << parse_card("9H")) - 1)
    assert info.excluded[2] & below_9 == below_9


def test_leading_trump_before_it_is_broken_shows_a_hand_of_trumps() -> None:
    d = deal(["2S 2D 3D", "4S 4D 5D", "2H 6H 7H", "5S 6C 5C"], "3H", dealer=3)
    act(d, "1", "1", "2", "1", "2H")
    info = knowledge(d)
    assert info.excluded[2] & ~TRUMP_MASKS[1] & ((1 << 54) - 1) == ((1 << 54) - 1) & ~TRUMP_MASKS[1]


@pytest.mark.parametrize("moves", [0, 5, 17, 40, 75, 140])
def test_samples_fit_everything_the_seat_knows(moves: int) -> None:
    g = _midgame("a1" * 32, moves)
    seat = g.seat_to_act
    assert seat is not None
    info = SeatKnowledge.from_state(g, seat)
    rng = random.Random(moves)
    for _ in range(30):
        hands = sample_hands(info, rng)
        assert hands[seat] == info.hand
        for s in range(4):
            assert hands[s].bit_count() == info.cards_to_hold(s)
            if s != seat:
                assert not hands[s] & ~info.unseen
                assert not hands[s] & info.excluded[s]
        world_from_hands(info, hands)  # the engine accepts every bid and card again


def _consistent_other_world(g: GameState, seat: int, seed: int) -> GameState:
    """The same game with the hidden cards dealt differently, as far as ``seat`` can tell."""
    info = SeatKnowledge.from_state(g, seat)
    hands = sample_hands(info, random.Random(seed))
    assert hands != list(g.hands) or info.unseen == 0
    g2 = g.clone()
    g2.hands = hands
    g2._lm = -1
    return g2


@pytest.mark.parametrize(
    ("moves", "name"),
    [
        (0, "strong"),
        (4, "heuristic"),
        (14, "strong"),
        (23, "strong"),
        (33, "random"),
        (70, "heuristic"),
    ],
)
def test_choices_do_not_depend_on_the_hidden_cards(moves: int, name: str) -> None:
    g = _midgame("c3" * 32, moves)
    seat = g.seat_to_act
    assert seat is not None
    params = {"samples": 6, "time_budget": 5.0} if name == "strong" else {}
    first = choose_action(name, params, g, seat, seed=11)
    for k in range(2):
        other = _consistent_other_world(g, seat, k)
        assert SeatKnowledge.from_state(other, seat) == SeatKnowledge.from_state(g, seat)
        assert choose_action(name, params, other, seat, seed=11) == first


def test_strategies_decide_from_knowledge_alone() -> None:
    g = _midgame("d4" * 32, 21)
    seat = g.seat_to_act
    assert seat is not None
    info = SeatKnowledge.from_deal(_GuardedState(g, seat), seat, swap=None)  # type: ignore[arg-type]
    for name, params in (("random", {}), ("heuristic", {}), ("strong", {"samples": 3})):
        action = get_strategy(name, params).choose(info, random.Random(1))
        assert action in g.legal_actions()


def test_guesses_are_weighed_by_how_well_they_explain_the_bids() -> None:
    g = GameState.new("e5" * 32)
    while g.phase == "bidding" and len(g.bids) < 3:
        seat = g.seat_to_act
        assert seat is not None
        g.apply(choose_action("heuristic", {}, g, seat, seed=0))
    seat = g.seat_to_act
    assert seat is not None
    info = SeatKnowledge.from_state(g, seat)
    # Heuristic bidders: the real deal explains their bids exactly.
    assert bid_fit(info, list(g.hands)) == 1.0
    fits = [bid_fit(info, sample_hands(info, random.Random(k))) for k in range(40)]
    assert all(0 < f <= 1 for f in fits) and min(fits) < 1.0


def test_the_fallback_matching_meets_every_constraint_or_says_none_exists() -> None:
    from bots.strategies.sampling import _matching

    # Three cards, bins 0 and 1 of room 1, the stock (3) of room 1; card 7 fits only bin 1.
    options = [(5, [0, 1, 3]), (6, [1, 3]), (7, [1])]
    bins = _matching(options, [1, 1, 0, 1])
    assert bins is not None
    assert bins[1] == 1 << 7 and bins[0] == 1 << 5 and bins[3] == 1 << 6
    assert _matching([(5, [1]), (6, [1])], [0, 1, 0, 1]) is None
