"""gunicorn's server hooks for the web node (``--config=python:backalley_site.gunicorn_conf``).

With ``PROMETHEUS_MULTIPROC_DIR`` (docs/deployment.md, "Metrics") each server worker writes
its metrics to files in that directory: the directory is emptied when the node starts (an
earlier run's files would be added to this one's), and a worker that exits has its live
gauges (the waiting clients) dropped, so a restarted worker is not counted twice.

gunicorn reads this file before it loads the application: the metrics module is imported
by each hook when it runs.
"""

from __future__ import annotations

from typing import Any


def on_starting(server: Any) -> None:
    from backalley_site import metrics

    metrics.clear_multiproc_dir()


def child_exit(server: Any, worker: Any) -> None:
    from backalley_site import metrics

    metrics.process_exited(worker.pid)
