"""The server workers' garbage-collection policy (docs/live.md, "Benchmark").

A worker holding thousands of waiting clients tracks a few hundred thousand container
objects; CPython's full (oldest-generation) collection walks them all and stops the event
loop for 100-500 ms, and by default it runs every few seconds once clients come and go.
Here each worker:

- freezes what start-up loaded (modules, URLconf, settings), which is never garbage, so no
  collection walks it again;
- keeps the young collections as they are (they find nearly all cyclic garbage, cheaply);
- runs the full collection on a timer, every ``GC_FULL_INTERVAL`` seconds, instead of
  whenever the old generation grew by a quarter, and logs how long it took.

What the timer costs: cycles that outlived two young collections wait for the next full one
(minutes) instead of seconds; memory for those is bounded by the interval.
"""

from __future__ import annotations

import gc
import logging
import threading
import time

from django.urls import get_resolver

logger = logging.getLogger(__name__)

NEVER = 2**31 - 1  # a threshold the old generation's counter never reaches


def install(interval: float) -> None:
    """Apply the policy in this process (call once, after the application is loaded)."""
    get_resolver().url_patterns  # noqa: B018 - imports every view module now, to freeze them
    gc.collect()
    gc.freeze()
    if interval <= 0:
        return  # automatic full collections, as CPython does by default
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, NEVER)
    threading.Thread(target=_collect_forever, args=(interval,), daemon=True, name="gc").start()


def _collect_forever(interval: float) -> None:
    while True:
        time.sleep(interval)
        started = time.perf_counter()
        found = gc.collect()
        logger.info(
            "gc: full collection, %d unreachable, %.0f ms",
            found,
            (time.perf_counter() - started) * 1000,
        )
