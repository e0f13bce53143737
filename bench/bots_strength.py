"""Bots strength benchmark: the built-in strategies against each other, in duplicate.

Run by ``bench/bots.py`` (its ``strength`` part) or directly: ``python bench/bots_strength.py``.
Pure Python (no database). Prints:

1. heuristic against random over duplicate pairs of full 25-deal games (each seed played
   twice with the teams' seats swapped): games won, mean margin per game with its 95% CI;
2. the same over duplicate deal pairs (one deal of a random hand size per seed);
3. strong (default params: 48 samples, 0.3 s budget per decision) against heuristic over
   duplicate deal pairs: deals won, mean margin per deal with its 95% CI, and strong's think
   time per decision (p50/p95/max over its decisions with more than one legal action), by
   the wall clock and by this process's CPU time (one core; the CPU figure is the one other
   processes on a busy machine do not inflate).

Sizes: ``BENCH_PAIRS`` (default 300) for 1 and 2, ``BENCH_STRONG_PAIRS`` (default 300) for 3,
``BENCH_SEED`` (default 1).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.strategies import get_strategy  # noqa: E402
from games.strategies.arena import ArenaResult, Timings, run_arena  # noqa: E402
from games.strategies.stats import percentile  # noqa: E402

PAIRS = int(os.environ.get("BENCH_PAIRS", "300"))
STRONG_PAIRS = int(os.environ.get("BENCH_STRONG_PAIRS", "300"))
SEED = int(os.environ.get("BENCH_SEED", "1"))


def _report(title: str, result: ArenaResult, seconds: float) -> None:
    w, d, l_ = result.game_record()
    n = w + d + l_
    mean, lo, hi = result.margin_ci()
    unit = "game" if result.mode == "games" else "deal"
    print(f"{title}: {len(result.pairs)} duplicate {unit} pairs ({n} {unit}s) in {seconds:.0f} s")
    print(f"  {result.a} {unit}s won/drawn/lost: {w}/{d}/{l_} = {100 * w / n:.1f}% won")
    print(f"  {result.a} mean margin per {unit}: {mean:+.2f} points, 95% CI [{lo:+.2f}, {hi:+.2f}]")


def _arena(a: str, b: str, pairs: int, mode: str, timings: Timings | None = None) -> None:
    start = time.perf_counter()
    result = run_arena(
        get_strategy(a, {}), get_strategy(b, {}), pairs=pairs, seed=SEED, mode=mode, timings=timings
    )
    _report(f"{a} vs {b} ({mode})", result, time.perf_counter() - start)


def strength() -> None:
    print(f"bench-bots strength (seed {SEED})")
    _arena("heuristic", "random", PAIRS, "games")
    _arena("heuristic", "random", PAIRS, "deals")
    timings = Timings()
    _arena("strong", "heuristic", STRONG_PAIRS, "deals", timings)
    for label, table in (("wall", timings.seconds), ("CPU", timings.cpu_seconds)):
        secs = table.get("strong", [])
        if secs:
            print(
                f"  strong think time per decision, {label} clock ({len(secs)} decisions with "
                f"a choice): p50 {1000 * percentile(secs, 0.5):.0f} ms, "
                f"p95 {1000 * percentile(secs, 0.95):.0f} ms, max {1000 * max(secs):.0f} ms"
            )


def run() -> None:
    strength()


if __name__ == "__main__":
    strength()
