"""`manage.py recompute_ratings`: rebuild the ladder from the finished rated games."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from django.core.management.base import BaseCommand
from tqdm import tqdm

from ladder.recompute import ladder_recompute


class Command(BaseCommand):
    help = "Rebuild every rating from the finished rated games, in the order they finished."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--no-progress", action="store_true", help="Do not show the progress bar."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        quiet = options["no_progress"] or options["verbosity"] == 0

        def progress(items: Iterable[Any], total: int) -> Iterable[Any]:
            bar: Iterable[Any] = tqdm(
                items, total=total, unit="game", disable=quiet, file=self.stderr
            )
            return bar

        started = time.perf_counter()
        summary = ladder_recompute(progress=progress)
        took = time.perf_counter() - started
        self.stdout.write(
            f"Rated {summary.games} games: {summary.players} players, {summary.pairs} pairs "
            f"({took:.1f} s)."
        )
        if options["verbosity"] >= 2:
            phases = ", ".join(f"{k} {v:.1f} s" for k, v in summary.seconds.items())
            self.stdout.write(f"Time by phase: {phases}.")
