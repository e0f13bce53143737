"""The bot kit's local runner (clients/python, backalley_bot.play) scores as the arena does:
the same seeds, the same pairs, the arena's duplicate score and its interval."""

from __future__ import annotations

import random

from backalley_bot import Bot, Observation
from backalley_bot.play import bot_player, heuristic_player, run
from backalley_bot.stats import mean_ci
from backalley_engine.actions import PASS
from bots.arena.models import ArenaEntry
from bots.arena.services import duplicate_score
from bots.strategies.arena import run_arena
from bots.strategies.base import HeuristicStrategy
from bots.strategies.knowledge import SeatKnowledge


class Cautious(Bot):
    def choose(self, observation: Observation) -> str:
        return "pass" if "pass" in observation.legal else observation.legal[0]


class CautiousStrategy:
    name = "cautious"

    def choose(self, info: SeatKnowledge, rng: random.Random) -> int:
        return PASS if PASS in info.legal else info.legal[0]


def test_the_kit_runner_scores_the_arenas_pairs_by_the_arenas_formula() -> None:
    kit = run(bot_player(Cautious()), heuristic_player, pairs=4, seed=3)
    arena = run_arena(CautiousStrategy(), HeuristicStrategy(), pairs=4, seed=3)
    assert [p.seed for p in kit] == [p.seed for p in arena.pairs]
    for mine, theirs in zip(kit, arena.pairs, strict=True):
        assert (mine.a, mine.b[::-1]) == theirs.scores  # (A's, B's) total in each game
        assert mine.score == theirs.margin == duplicate_score(mine.a, mine.b)
    scores = [p.score for p in kit]
    entry = ArenaEntry(pairs=4, score_sum=sum(scores), score_sumsq=sum(s * s for s in scores))
    assert entry.duplicate_score is not None
    for ours, the_arenas in zip(mean_ci(scores), entry.duplicate_score, strict=True):
        assert abs(ours - the_arenas) <= 1e-3 * max(1.0, abs(the_arenas))
