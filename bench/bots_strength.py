"""Bots strength benchmark: the built-in strategies against each other, in duplicate.

Run by ``bench/bots.py`` (its ``strength`` part) or directly: ``python bench/bots_strength.py``.
Pure Python (no database). Prints:

1. heuristic against random over duplicate pairs of full 25-deal games (each seed played
   twice with the teams' seats swapped): games won, mean margin per game with its 95% CI;
2. the same over duplicate deal pairs (one deal of a random hand size per seed);
3. strong (default params: 48 samples, 0.3 s CPU budget per decision) against heuristic over
   duplicate deal pairs: deals won, mean margin per deal with its 95% CI, and strong's think
   time per decision (p50/p95/max over its decisions with more than one legal action), by
   this process's CPU time (one core) and by the wall clock (which other processes on a busy
   machine inflate).

The pairs are split over ``BENCH_WORKERS`` processes (default 2), each deciding on one core.
Sizes: ``BENCH_PAIRS`` (default 300) for 1 and 2, ``BENCH_STRONG_PAIRS`` (default 300) for 3,
``BENCH_SEED`` (default 1).
"""

from __future__ import annotations

import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bots.strategies import get_strategy  # noqa: E402
from bots.strategies.arena import ArenaResult, PairResult, Timings, run_arena  # noqa: E402
from bots.strategies.stats import percentile  # noqa: E402

PAIRS = int(os.environ.get("BENCH_PAIRS", "300"))
STRONG_PAIRS = int(os.environ.get("BENCH_STRONG_PAIRS", "300"))
SEED = int(os.environ.get("BENCH_SEED", "1"))
WORKERS = int(os.environ.get("BENCH_WORKERS", "2"))
CHUNK = 10  # pairs per task


def _part(a: str, b: str, first: int, pairs: int, mode: str) -> tuple[list[PairResult], Timings]:
    timings = Timings()
    result = run_arena(
        get_strategy(a, {}),
        get_strategy(b, {}),
        pairs=pairs,
        seed=SEED,
        first=first,
        mode=mode,
        timings=timings,
    )
    return list(result.pairs), timings


def _arena(a: str, b: str, pairs: int, mode: str) -> tuple[ArenaResult, Timings]:
    chunks = [(i, min(CHUNK, pairs - i)) for i in range(0, pairs, CHUNK)]
    results: list[PairResult] = []
    timings = Timings()
    with ProcessPoolExecutor(max_workers=WORKERS) as pool:
        futures = [pool.submit(_part, a, b, first, n, mode) for first, n in chunks]
        for future in futures:
            part, t = future.result()
            results.extend(part)
            for name, secs in t.seconds.items():
                timings.seconds.setdefault(name, []).extend(secs)
            for name, secs in t.cpu_seconds.items():
                timings.cpu_seconds.setdefault(name, []).extend(secs)
            print(f"  ... {a} vs {b} ({mode}): {len(results)}/{pairs} pairs", file=sys.stderr)
    return ArenaResult(a, b, mode, tuple(results)), timings


def _report(a: str, b: str, pairs: int, mode: str) -> Timings:
    start = time.perf_counter()
    result, timings = _arena(a, b, pairs, mode)
    seconds = time.perf_counter() - start
    w, d, l_ = result.game_record()
    n = w + d + l_
    mean, lo, hi = result.margin_ci()
    unit = "game" if mode == "games" else "deal"
    print(f"{a} vs {b}: {pairs} duplicate {unit} pairs ({n} {unit}s) in {seconds:.0f} s")
    print(f"  {a} {unit}s won/drawn/lost: {w}/{d}/{l_} = {100 * w / n:.1f}% won")
    print(f"  {a} mean margin per {unit}: {mean:+.2f} points, 95% CI [{lo:+.2f}, {hi:+.2f}]")
    return timings


def strength() -> None:
    print(f"bench-bots strength (seed {SEED}, {WORKERS} worker processes)")
    _report("heuristic", "random", PAIRS, "games")
    _report("heuristic", "random", PAIRS, "deals")
    timings = _report("strong", "heuristic", STRONG_PAIRS, "deals")
    for label, table in (("CPU", timings.cpu_seconds), ("wall", timings.seconds)):
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
