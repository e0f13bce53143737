"""House-strong against house-heuristic over duplicate pairs of whole 25-deal games.

Run by ``bench/bots.py`` (its ``house`` part) or directly: ``python bench/bots_house.py``.
Pure Python (no database). Each pair is one seed played twice with the partnerships' seats
swapped, so the luck of the deal cancels. Prints the strong bot's mean margin per game with
its 95% CI (one observation per pair), games and pairs won, and its CPU time per decision
(this thread's CPU clock, decisions with more than one legal action): p50, p95, max.

The strong bot plays with the house bot's parameters (``bots.brain.HOUSE_STRONG_PARAMS``).
Each pair's result is appended to ``BENCH_OUT`` (JSON lines, default
``var/bench-house.jsonl``) as it finishes, so a long run can be resumed (``BENCH_RESUME=1``)
and read while it runs; a run can be split in parts (``BENCH_FIRST``, the first pair's index,
each part with its own ``BENCH_OUT``) and ``python bench/bots_house.py report FILE...`` sums
them up. Sizes: ``BENCH_HOUSE_PAIRS`` (default 200), ``BENCH_SEED`` (1), ``BENCH_WORKERS``
processes (default 1: run it under ``nice`` on a shared machine).
"""

from __future__ import annotations

import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bots.brain import HOUSE_STRONG_PARAMS  # noqa: E402
from bots.strategies import get_strategy  # noqa: E402
from bots.strategies.arena import Timings, pair_seed, play_pair  # noqa: E402
from bots.strategies.stats import mean_ci, percentile  # noqa: E402

PAIRS = int(os.environ.get("BENCH_HOUSE_PAIRS", "200"))
FIRST = int(os.environ.get("BENCH_FIRST", "0"))  # pairs FIRST .. FIRST + PAIRS - 1
SEED = int(os.environ.get("BENCH_SEED", "1"))
WORKERS = int(os.environ.get("BENCH_WORKERS", "1"))
OUT = Path(os.environ.get("BENCH_OUT", str(ROOT / "var" / "bench-house.jsonl")))
RESUME = os.environ.get("BENCH_RESUME", "") == "1"


def _pair(index: int) -> dict[str, object]:
    strong = get_strategy("strong", HOUSE_STRONG_PARAMS)
    heuristic = get_strategy("heuristic", {})
    timings = Timings()
    cpu = time.process_time()
    result = play_pair(strong, heuristic, pair_seed(SEED, index), "games", timings)
    return {
        "index": index,
        "scores": result.scores,
        "margin": result.margin,
        "cpu_s": time.process_time() - cpu,
        "decisions_cpu_s": timings.cpu_seconds.get("strong", []),
    }


def _load() -> dict[int, dict[str, object]]:
    if not (RESUME and OUT.exists()):
        return {}
    return {int(r["index"]): r for r in _read([str(OUT)])}  # type: ignore[call-overload]


def report(rows: list[dict[str, object]], wall_s: float | None = None) -> None:
    margins = [float(r["margin"]) for r in rows]  # type: ignore[arg-type]
    games = [m for r in rows for m in (s[0] - s[1] for s in r["scores"])]  # type: ignore[attr-defined]
    cpu = [c for r in rows for c in r["decisions_cpu_s"]]  # type: ignore[attr-defined]
    mean, lo, hi = mean_ci(margins)
    print(f"house-strong {HOUSE_STRONG_PARAMS} vs house-heuristic, seed {SEED}:")
    took = f" in {wall_s:.0f} s wall" if wall_s is not None else ""
    total_cpu = sum(float(r["cpu_s"]) for r in rows)  # type: ignore[arg-type, misc]
    print(
        f"  {len(rows)} duplicate pairs of whole games ({len(games)} games){took}, "
        f"{total_cpu / 60:.1f} CPU-minutes"
    )
    print(f"  mean margin per game: {mean:+.2f} points, 95% CI [{lo:+.2f}, {hi:+.2f}]")
    print(
        f"  games won/drawn/lost: {sum(g > 0 for g in games)}/{sum(g == 0 for g in games)}/"
        f"{sum(g < 0 for g in games)}"
    )
    print(
        f"  pairs won/drawn/lost: {sum(m > 0 for m in margins)}/{sum(m == 0 for m in margins)}/"
        f"{sum(m < 0 for m in margins)}"
    )
    print(
        f"  CPU per decision ({len(cpu)} decisions with a choice): "
        f"p50 {1000 * percentile(cpu, 0.5):.1f} ms, p95 {1000 * percentile(cpu, 0.95):.1f} ms, "
        f"max {1000 * max(cpu):.1f} ms"
    )


def run() -> None:
    done = _load()
    todo = [i for i in range(FIRST, FIRST + PAIRS) if i not in done]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    with OUT.open("a" if RESUME else "w") as out, ProcessPoolExecutor(WORKERS) as pool:
        for row in pool.map(_pair, todo):
            done[int(row["index"])] = row  # type: ignore[call-overload]
            out.write(json.dumps(row) + "\n")
            out.flush()
            if len(done) % 10 == 0:
                print(f"  ... {len(done)}/{PAIRS} pairs", file=sys.stderr, flush=True)
    report([done[i] for i in sorted(done)], time.perf_counter() - start)


def _read(paths: list[str]) -> list[dict[str, object]]:
    """Pairs from result files (one JSON object a line), by pair index."""
    found: dict[int, dict[str, object]] = {}
    for name in paths:
        for line in Path(name).read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                found[int(row["index"])] = row
    return [found[i] for i in sorted(found)]


if __name__ == "__main__":
    if sys.argv[1:2] == ["report"]:
        report(_read(sys.argv[2:] or [str(OUT)]))
    else:
        run()
