"""``manage.py arena --a heuristic --b random --pairs 50 --seed 1``: strategy against strategy
over duplicate pairs (each seed played twice with the teams' seats swapped), with a progress
bar and a results table with 95% confidence intervals."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from bots.strategies import STRATEGIES, get_strategy
from bots.strategies.arena import MODES, ArenaResult, PairResult, Timings, run_arena
from bots.strategies.stats import percentile


def _params(text: str, which: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CommandError(f"--{which}-params is not JSON: {exc.msg}.") from None
    if not isinstance(value, dict):
        raise CommandError(f"--{which}-params must be a JSON object, e.g. '{{\"samples\": 16}}'.")
    return value


def results_table(result: ArenaResult, timings: Timings | None = None) -> str:
    """The results as a plain-text table (A's point of view)."""
    w, d, l_ = result.game_record()
    pw, pd, pl = result.pair_record()
    games = w + d + l_
    mean, lo, hi = result.margin_ci()
    unit = "game" if result.mode == "games" else "deal"
    rows = [
        ("A", result.a),
        ("B", result.b),
        ("pairs", f"{len(result.pairs)} duplicate {unit} pairs ({games} {unit}s)"),
        (f"A's {unit}s won/drawn/lost", f"{w}/{d}/{l_} ({100 * w / games:.1f}% won)"),
        ("A's pairs won/drawn/lost", f"{pw}/{pd}/{pl}"),
        (f"A's mean margin per {unit}", f"{mean:+.2f} points"),
        ("95% confidence interval", f"[{lo:+.2f}, {hi:+.2f}]"),
    ]
    if timings is not None:
        for name, secs in sorted(timings.seconds.items()):
            rows.append(
                (
                    f"{name} think time (wall)",
                    f"p50 {1000 * percentile(secs, 0.5):.3f} ms, "
                    f"p95 {1000 * percentile(secs, 0.95):.3f} ms over {len(secs)} decisions",
                )
            )
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k.ljust(width)}  {v}" for k, v in rows)


class Command(BaseCommand):
    help = "Play strategy A against strategy B over duplicate pairs and print the results."

    def add_arguments(self, parser: CommandParser) -> None:
        names = sorted(STRATEGIES)
        parser.add_argument("--a", required=True, choices=names, help="strategy A")
        parser.add_argument("--b", required=True, choices=names, help="strategy B")
        parser.add_argument("--a-params", default="{}", help="A's params as JSON")
        parser.add_argument("--b-params", default="{}", help="B's params as JSON")
        parser.add_argument("--pairs", type=int, default=50, help="duplicate pairs to play")
        parser.add_argument("--seed", type=int, default=1, help="arena seed (pairs' seeds)")
        parser.add_argument(
            "--mode",
            choices=MODES,
            default="games",
            help="games: full 25-deal games; deals: single deals of a random hand size",
        )
        parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["pairs"] < 1:
            raise CommandError("--pairs must be at least 1.")
        try:
            a = get_strategy(opts["a"], _params(opts["a_params"], "a"))
            b = get_strategy(opts["b"], _params(opts["b_params"], "b"))
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        timings = Timings()
        with tqdm(
            total=opts["pairs"],
            desc=f"{opts['a']} vs {opts['b']}",
            unit="pair",
            disable=opts["no_progress"],
            file=self.stderr._out,
        ) as bar:

            def progress(_: PairResult) -> None:
                bar.update(1)

            result = run_arena(
                a,
                b,
                pairs=opts["pairs"],
                seed=opts["seed"],
                mode=opts["mode"],
                timings=timings,
                progress=progress,
            )
        self.stdout.write(results_table(result, timings))
