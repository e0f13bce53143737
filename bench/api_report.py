"""Helpers of bench/api.py: watching the machine's load and printing the server's profile."""

from __future__ import annotations

import os
import statistics
import threading
from pathlib import Path


class LoadWatch:
    """Samples the 1-minute load average once a second while the server is measured."""

    def __init__(self) -> None:
        self.samples: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(1.0):
            self.samples.append(os.getloadavg()[0])

    def __enter__(self) -> LoadWatch:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def summary(self) -> str:
        s = self.samples or [os.getloadavg()[0]]
        return f"min {min(s):.1f} / mean {statistics.fmean(s):.1f} / max {max(s):.1f}"


def print_profile(folder: str, root: Path) -> None:
    """The workers' merged profile: the project's functions by cumulative and own time."""
    import pstats
    import shutil

    files = sorted(str(p) for p in Path(folder).glob("worker-*.prof"))
    if not files:
        print("profile: no worker wrote its stats")
        return
    stats = pstats.Stats(*files)
    print(f"\nserver profile ({len(files)} workers; every request kind of the run):")
    ours = "|".join(f"{root}/{app}/" for app in ("games", "accounts", "clock", "bots", "ladder"))
    stats.sort_stats("cumulative").print_stats(ours + "|backalley_site/|bench/", 30)
    stats.sort_stats("tottime").print_stats(25)
    shutil.rmtree(folder, ignore_errors=True)
