"""gunicorn config for ``bench/api.py --profile``: cProfile each (sync) worker, dump on exit.

Sync workers serve requests on their main thread, where the profiler is enabled. The stats
go to ``$BENCH_PROFILE_DIR/worker-<pid>.prof`` for bench/api.py to merge and print.
"""

from __future__ import annotations

import cProfile
import os
from typing import Any

_profile: cProfile.Profile | None = None


def post_worker_init(worker: Any) -> None:
    global _profile
    _profile = cProfile.Profile()
    _profile.enable()


def worker_exit(server: Any, worker: Any) -> None:
    if _profile is not None:
        _profile.disable()
        _profile.dump_stats(
            os.path.join(os.environ["BENCH_PROFILE_DIR"], f"worker-{worker.pid}.prof")
        )
