"""Where a bench worker's CPU goes: cProfile (on CPU time) in each pool process.

Loaded into the worker by ``bench/arena.py`` (``celery worker --include=bench.arena_profile``)
with ``BENCH_PROFILE_DIR`` set: each pool process profiles itself from its start and writes
its statistics to ``<dir>/<pid>.prof`` every few seconds, after a task. :func:`buckets`
sums the functions' own time by what they belong to.
"""

from __future__ import annotations

import cProfile
import os
import pstats
import time
from pathlib import Path
from typing import Any

from celery import signals

DIR = os.environ.get("BENCH_PROFILE_DIR", "")
DUMP_EVERY_S = 3.0

_profiler: cProfile.Profile | None = None
_dumped = 0.0

# (bucket, substrings of a function's file or name), tried in order.
BUCKETS: list[tuple[str, tuple[str, ...]]] = [
    ("bot", ("bots/strategies", "bots/brain", "backalley_engine/heuristic")),
    ("engine", ("backalley_engine",)),
    (
        "database",
        ("django/db/", "psycopg", "django/utils/timezone", "dateutil", "zoneinfo"),
    ),
    (
        "events",
        (
            "games/outbox",
            "games/live",
            "games/hooks",
            "bots/hooks",
            "clock/",
            "celery/",
            "kombu/",
            "redis/",
            "billiard/",
            "vine/",
            "amqp/",
        ),
    ),
    ("service", ("games/", "bots/", "ladder/", "tournaments/", "daylong/")),
]


def _start(**kwargs: Any) -> None:
    global _profiler
    if DIR:
        _profiler = cProfile.Profile(time.process_time)
        _profiler.enable()


def _dump(**kwargs: Any) -> None:
    global _dumped
    if _profiler is None or time.monotonic() - _dumped < DUMP_EVERY_S:
        return
    _profiler.disable()
    _profiler.dump_stats(str(Path(DIR) / f"{os.getpid()}.prof"))
    _profiler.enable()
    _dumped = time.monotonic()


signals.worker_process_init.connect(_start, weak=False)
signals.task_postrun.connect(_dump, weak=False)


def bucket_of(file: str, name: str) -> str:
    where = f"{file} {name}"
    for bucket, marks in BUCKETS:
        if any(mark in where for mark in marks):
            return bucket
    return "other"


def buckets(directory: Path) -> dict[str, float]:
    """CPU seconds by bucket, over every profile written in ``directory``."""
    totals: dict[str, float] = {}
    for path in directory.glob("*.prof"):
        # {(file, line, name): (calls, primitive calls, own time, cumulative time, callers)}
        stats: dict[Any, Any] = getattr(pstats.Stats(str(path)), "stats")  # noqa: B009
        for (file, _line, name), (_cc, _nc, own, _ct, _callers) in stats.items():
            bucket = bucket_of(file, name)
            totals[bucket] = totals.get(bucket, 0.0) + own
    return totals
