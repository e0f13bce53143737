"""The arena: duplicate pairs (same seed, teams' seats swapped) and its statistics."""

import math
import random
import statistics
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from bots.strategies import get_strategy
from bots.strategies.arena import pair_seed, play_pair, run_arena
from bots.strategies.base import RandomStrategy
from bots.strategies.knowledge import SeatKnowledge
from bots.strategies.stats import mean_ci, percentile, t95


class _Recorder(RandomStrategy):
    """Random play that logs (name, seat, hand, upcard) at each of its bids."""

    def __init__(self, name: str, log: list[tuple[str, int, int, int]]) -> None:
        self.name = name
        self.log = log

    def choose(self, info: SeatKnowledge, rng: random.Random) -> int:
        if info.phase == "bidding":
            self.log.append((self.name, info.seat, info.hand, info.upcard))
        return super().choose(info, rng)


@pytest.mark.parametrize("mode", ["deals", "games"])
def test_a_pair_plays_one_seed_twice_with_the_teams_seats_swapped(mode: str) -> None:
    log: list[tuple[str, int, int, int]] = []
    seed = pair_seed(4, 0)
    result = play_pair(_Recorder("a", log), _Recorder("b", log), seed, mode)
    # The second game starts where the first deal's first bid comes round again.
    restart = next(i for i in range(1, len(log)) if log[i][1:] == log[0][1:])
    first, second = log[:restart], log[restart:]
    assert {seat for name, seat, _, _ in first if name == "a"} == {0, 2}
    assert {seat for name, seat, _, _ in first if name == "b"} == {1, 3}
    assert {seat for name, seat, _, _ in second if name == "a"} == {1, 3}
    assert {seat for name, seat, _, _ in second if name == "b"} == {0, 2}
    # Same seed, same cards in the same seats: only who holds them changed.
    swap = {"a": "b", "b": "a"}
    assert [(swap[n], *rest) for n, *rest in first[:4]] == second[:4]
    assert result.seed == seed
    assert result.margin == (result.margins[0] + result.margins[1]) / 2


def test_pair_scores_are_each_strategys_own_team() -> None:
    heuristic = get_strategy("heuristic", {})
    result = run_arena(heuristic, heuristic, pairs=6, seed=2, mode="deals")
    # The same strategy on both sides of the same cards: every pair's margin cancels.
    assert all(p.margins[0] == -p.margins[1] for p in result.pairs)
    assert result.margin_ci()[0] == 0
    assert sum(result.game_record()) == 12


def test_the_arena_is_reproducible_from_its_seed() -> None:
    r1 = run_arena(RandomStrategy(), RandomStrategy(), pairs=3, seed=9, mode="deals")
    r2 = run_arena(RandomStrategy(), RandomStrategy(), pairs=3, seed=9, mode="deals")
    assert r1 == r2
    # A run split into parts plays the very same pairs.
    tail = run_arena(RandomStrategy(), RandomStrategy(), pairs=2, seed=9, first=1, mode="deals")
    assert tail.pairs == r1.pairs[1:]
    assert pair_seed(9, 0) != pair_seed(9, 1) and len(pair_seed(9, 0)) == 64


def test_confidence_interval_arithmetic() -> None:
    values = [4.0, -2.0, 7.0, 1.0, 0.0, 3.0]
    mean, lo, hi = mean_ci(values)
    half = 2.571 * statistics.stdev(values) / math.sqrt(6)  # t(0.975, df=5)
    assert mean == pytest.approx(13 / 6)
    assert (lo, hi) == (pytest.approx(mean - half), pytest.approx(mean + half))
    assert t95(1) == 12.706 and t95(30) == 2.042
    assert 2.000 > t95(80) > 1.980 and 1.980 > t95(10_000) > 1.959964
    assert mean_ci([5.0]) == (5.0, -math.inf, math.inf)
    assert percentile([1.0, 2.0, 3.0, 4.0], 0.5) == 2.5
    assert percentile([1.0, 2.0, 3.0, 4.0], 0.95) == pytest.approx(3.85)


def test_arena_command_prints_a_results_table() -> None:
    out, err = StringIO(), StringIO()
    call_command(
        "arena", "--a", "heuristic", "--b", "random", "--pairs", "3", "--seed", "1",
        "--mode", "deals", stdout=out, stderr=err,
    )  # fmt: skip
    text = out.getvalue()
    assert "3 duplicate deal pairs (6 deals)" in text
    assert "95% confidence interval" in text and "heuristic think time" in text
    assert "3/3" in err.getvalue()  # the progress bar reached the end


def test_arena_command_refuses_bad_params() -> None:
    with pytest.raises(CommandError, match="takes no parameter depth"):
        call_command("arena", "--a", "heuristic", "--b", "random", "--a-params", '{"depth": 2}')
    with pytest.raises(CommandError, match="must be a JSON object"):
        call_command("arena", "--a", "strong", "--b", "random", "--a-params", "[1]")
