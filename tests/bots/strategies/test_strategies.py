"""Every strategy plays only legal actions, reproducibly, behind a validated interface."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backalley_engine.state import GameState
from bots.strategies import (
    STRATEGIES,
    available,
    choose_action,
    get_strategy,
    validate_params,
)
from bots.strategies.arena import play_deal
from bots.strategies.knowledge import SeatKnowledge
from bots.strategies.strong import StrongStrategy, _distinct_cards

seeds = st.binary(min_size=32, max_size=32).map(bytes.hex)


@pytest.mark.parametrize("name", ["random", "heuristic"])
@settings(max_examples=3, deadline=None)
@given(seed=seeds, turn_seed=st.integers(0, 2**32))
def test_whole_games_get_only_legal_actions(name: str, seed: str, turn_seed: int) -> None:
    g = GameState.new(seed)
    while not g.is_terminal():
        seat = g.seat_to_act
        assert seat is not None
        action = choose_action(name, {}, g, seat, seed=turn_seed + g.move_count)
        assert action in g.legal_actions()
        g.apply(action, seat)  # the engine validates it again


class _CheckedStrong(StrongStrategy):
    def choose(self, info: SeatKnowledge, rng: random.Random) -> int:
        action = super().choose(info, rng)
        assert action in info.legal
        return action


@settings(max_examples=4, deadline=None)
@given(seed=seeds, deal_number=st.integers(7, 19), dealer=st.integers(0, 3))
def test_strong_plays_whole_deals_with_legal_actions(
    seed: str, deal_number: int, dealer: int
) -> None:
    strong = _CheckedStrong(samples=2)
    heuristic = get_strategy("heuristic", {})
    # play_deal applies each action through the engine, which rejects any illegal one.
    play_deal(seed, deal_number, dealer, (strong, heuristic, strong, heuristic))


def test_a_seed_makes_the_choice_reproducible() -> None:
    g = GameState.new("7a" * 32)
    rng = random.Random(3)
    for _ in range(13):
        g.apply(rng.choice(g.legal_actions()))
    seat = g.seat_to_act
    assert seat is not None
    params = {"samples": 12, "time_budget": 5.0}
    strong = [choose_action("strong", params, g, seat, seed=s) for s in (1, 1, 2, 2)]
    assert strong[0] == strong[1] and strong[2] == strong[3]
    values = [
        StrongStrategy(samples=12, time_budget=5.0).evaluate(
            SeatKnowledge.from_state(g, seat), random.Random(9)
        )
        for _ in range(2)
    ]
    assert values[0] == values[1]
    picks = {choose_action("random", {}, g, seat, seed=5) for _ in range(3)}
    assert len(picks) == 1


def test_equivalent_cards_are_tried_once() -> None:
    from tests.bots.strategies.helpers import act, deal

    d = deal(["9S TS JS 2D", "2S 4D 5D 6D", "KS 3S 8D 7D", "5S 6S 7S AD"], "2H")
    act(d, "1", "1", "1", "1", "2D", "4D", "8D", "AD", "5S")
    info = SeatKnowledge.from_deal(d, 0)
    # 9S, TS and JS touch (nothing unseen lies between them): one candidate stands for all.
    assert _distinct_cards(info) == [parse("9S")]
    d = deal(["9S JS 2D 3D", "TS 4D 5D 6D", "KS 3S 8D 7D", "5S 6S 7S AD"], "2H")
    act(d, "1", "1", "1", "1", "2D", "4D", "8D", "AD", "5S")
    info = SeatKnowledge.from_deal(d, 0)
    # TS is still out: 9S and JS are different cards.
    assert _distinct_cards(info) == [parse("9S"), parse("JS")]


def parse(text: str) -> int:
    from backalley_engine.cards import parse_card

    return parse_card(text)


def test_registry_lists_each_strategy_with_its_defaults() -> None:
    assert set(STRATEGIES) == {"random", "heuristic", "strong"}
    assert available()["strong"] == {"samples": 48, "time_budget": 0.3}
    assert validate_params("strong", {"samples": 8}) == {"samples": 8, "time_budget": 0.3}
    strong = get_strategy("strong", {"time_budget": 1})
    assert isinstance(strong, StrongStrategy) and strong.time_budget == 1.0


@pytest.mark.parametrize(
    ("name", "params", "message"),
    [
        ("best", {}, "Unknown strategy 'best'; choose one of heuristic, random, strong."),
        ("random", {"samples": 3}, "takes no parameter samples (accepted: none)"),
        ("strong", {"samples": 0}, "samples must be a whole number from 1 to 1000, not 0."),
        ("strong", {"samples": "8"}, "samples must be a whole number"),
        ("strong", {"samples": True}, "samples must be a whole number"),
        ("strong", {"time_budget": float("nan")}, "time_budget must be a number of seconds"),
        ("strong", {"time_budget": 60}, "from 0.001 to 5.0, not 60."),
    ],
)
def test_bad_names_and_params_are_refused_clearly(name: str, params: dict, message: str) -> None:
    with pytest.raises(ValueError) as exc:
        get_strategy(name, params)
    assert message in str(exc.value)


def test_choose_action_refuses_a_seat_not_to_act() -> None:
    g = GameState.new("00" * 32)
    assert g.seat_to_act is not None
    with pytest.raises(ValueError, match="not seat"):
        choose_action("random", {}, g, (g.seat_to_act + 1) % 4, seed=1)


def test_strategies_import_without_django() -> None:
    import subprocess
    import sys

    code = (
        "import sys; import bots.strategies, bots.strategies.arena; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'rest_framework', 'celery')]; "
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True, env={"PYTHONPATH": "."})
