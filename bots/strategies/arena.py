"""Strategy against strategy over duplicate pairs, so card luck cancels.

Each pair uses one seed twice: first with strategy A in seats 0 and 2 (team 0) and B in
seats 1 and 3, then with the teams' seats swapped. The same seed deals the same cards to
the same seats, so A and B each hold both sides of every deal. Two kinds of pair:

- ``games``: full 25-deal games (``GameState``), a pair's margin is A's total minus B's,
  averaged over its two games;
- ``deals``: one deal of a random hand size (``DealState``) per seed, the margin being A's
  deal score minus B's.

Every decision goes through ``SeatKnowledge`` exactly as for a hosted bot.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from backalley_engine.deal import DONE, DealCore, DealState
from backalley_engine.shuffle import JokerSwap, deal_cards, hand_size_of
from backalley_engine.state import GameState
from bots.strategies.base import Strategy
from bots.strategies.knowledge import SeatKnowledge
from bots.strategies.stats import mean_ci

MODES = ("games", "deals")


@dataclass
class Timings:
    """Think time per strategy name, for decisions with more than one legal action: wall
    clock (``seconds``) and this thread's CPU time (``cpu_seconds``, unaffected by other
    processes competing for the cores)."""

    seconds: dict[str, list[float]] = field(default_factory=dict)
    cpu_seconds: dict[str, list[float]] = field(default_factory=dict)

    def add(self, name: str, elapsed: float, cpu: float) -> None:
        self.seconds.setdefault(name, []).append(elapsed)
        self.cpu_seconds.setdefault(name, []).append(cpu)


@dataclass(frozen=True)
class PairResult:
    """One seed played twice; ``scores[k]`` = (A's score, B's score) in game k (A in seats
    0/2 for k = 0, in seats 1/3 for k = 1)."""

    seed: str
    deal_number: int
    dealer: int
    scores: tuple[tuple[int, int], tuple[int, int]]

    @property
    def margins(self) -> tuple[int, int]:
        return self.scores[0][0] - self.scores[0][1], self.scores[1][0] - self.scores[1][1]

    @property
    def margin(self) -> float:
        """A's mean margin over the pair's two games."""
        return sum(self.margins) / 2


@dataclass(frozen=True)
class ArenaResult:
    a: str
    b: str
    mode: str
    pairs: tuple[PairResult, ...]

    def game_record(self) -> tuple[int, int, int]:
        """A's (wins, draws, losses) counting every game (two per pair)."""
        ms = [m for p in self.pairs for m in p.margins]
        return sum(m > 0 for m in ms), sum(m == 0 for m in ms), sum(m < 0 for m in ms)

    def pair_record(self) -> tuple[int, int, int]:
        """A's (wins, draws, losses) by pair (the sign of its two games' margins summed)."""
        ms = [p.margin for p in self.pairs]
        return sum(m > 0 for m in ms), sum(m == 0 for m in ms), sum(m < 0 for m in ms)

    def margin_ci(self) -> tuple[float, float, float]:
        """A's mean margin per game with its 95% interval, one observation per pair."""
        return mean_ci([p.margin for p in self.pairs])


def pair_seed(master: int, index: int) -> str:
    """The 64-hex seed of pair ``index`` under the arena seed ``master``."""
    return hashlib.sha256(f"arena:{master}:{index}".encode()).hexdigest()


def _decide(
    strategy: Strategy,
    info: SeatKnowledge,
    rng: random.Random,
    timings: Timings | None,
) -> int:
    if timings is None or len(info.legal) < 2:
        return strategy.choose(info, rng)
    start, cpu = time.perf_counter(), time.thread_time()
    action = strategy.choose(info, rng)
    timings.add(strategy.name, time.perf_counter() - start, time.thread_time() - cpu)
    return action


def play_game(
    seed: str, seats: tuple[Strategy, Strategy, Strategy, Strategy], timings: Timings | None = None
) -> tuple[int, int]:
    """A full game; returns both teams' totals."""
    g = GameState.new(seed)
    rng = random.Random(seed)
    while not g.is_terminal():
        seat = g.seat_to_act
        assert seat is not None
        info = SeatKnowledge.from_state(g, seat)
        g.apply(_decide(seats[seat], info, rng, timings), seat)
    assert g.outcome is not None
    return g.outcome.totals


def play_deal(
    seed: str,
    deal_number: int,
    dealer: int,
    seats: tuple[Strategy, Strategy, Strategy, Strategy],
    timings: Timings | None = None,
) -> tuple[int, int]:
    """One deal (deal ``deal_number``'s hand size and cards for ``seed``); both teams'
    scores, (0, 0) when all four pass."""
    dealt = deal_cards(seed, deal_number, 0, dealer)
    deal = DealState.dealt(dealt.hands, dealt.upcard, dealer, hand_size_of(deal_number))
    return play_out(deal, seats, random.Random(seed), swap=dealt.swap, timings=timings)


def play_out(
    deal: DealCore,
    seats: tuple[Strategy, Strategy, Strategy, Strategy],
    rng: random.Random,
    *,
    swap: JokerSwap | None = None,
    timings: Timings | None = None,
) -> tuple[int, int]:
    while deal.phase != DONE:
        seat = deal.to_act
        info = SeatKnowledge.from_deal(deal, seat, swap=swap)
        action = _decide(seats[seat], info, rng, timings)
        if action >= 54:
            deal.bid(action)
        else:
            deal.play(action)
    return deal.scores()


def play_pair(
    a: Strategy,
    b: Strategy,
    seed: str,
    mode: str,
    timings: Timings | None = None,
) -> PairResult:
    """The pair for ``seed``: A as team 0 then A as team 1, same cards."""
    rng = random.Random(seed)
    deal_number = rng.randint(1, 25)
    dealer = rng.randrange(4)
    scores: list[tuple[int, int]] = []
    for a_team in (0, 1):
        seats = (a, b, a, b) if a_team == 0 else (b, a, b, a)
        if mode == "games":
            t = play_game(seed, seats, timings)
        elif mode == "deals":
            t = play_deal(seed, deal_number, dealer, seats, timings)
        else:
            raise ValueError(f"mode must be one of {', '.join(MODES)}")
        scores.append((t[a_team], t[a_team ^ 1]))
    return PairResult(seed, deal_number, dealer, (scores[0], scores[1]))


def run_arena(
    a: Strategy,
    b: Strategy,
    *,
    pairs: int,
    seed: int,
    first: int = 0,
    mode: str = "games",
    timings: Timings | None = None,
    progress: Callable[[PairResult], None] | None = None,
) -> ArenaResult:
    """``pairs`` duplicate pairs of A against B (pair indices ``first`` on, so a long run can
    be split into parts); ``progress`` is called after each pair."""
    if pairs < 1:
        raise ValueError("pairs must be at least 1")
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}")
    results = []
    for i in range(first, first + pairs):
        r = play_pair(a, b, pair_seed(seed, i), mode, timings)
        results.append(r)
        if progress is not None:
            progress(r)
    return ArenaResult(a.name, b.name, mode, tuple(results))
