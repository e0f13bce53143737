"""The Celery application: configuration comes from Django settings (CELERY_* keys).

Each worker also (docs/deployment.md):

- writes a heartbeat to Redis every ``WORKER_HEARTBEAT_EVERY_S`` seconds (the deep health
  check reads it), from a bootstep of the worker's main process;
- serves its metrics (``backalley_site.metrics``) on ``METRICS_WORKER_PORT`` when set, on
  ``METRICS_WORKER_ADDR`` (an internal address), added up over the pool's processes with
  ``PROMETHEUS_MULTIPROC_DIR``;
- carries the request id of the web request that caused a task (``backalley_site.telemetry``).

The site's package imports this module (``backalley_site/__init__.py``) before Django's
settings are loaded, so everything of Django or the site is imported inside the functions
below, which run in a worker that has set Django up.
"""

import logging
import os
from typing import Any

from celery import Celery, bootsteps, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backalley_site.settings")

logger = logging.getLogger(__name__)

app = Celery("backalley_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


class Heartbeat(bootsteps.StartStopStep):
    """The worker's heartbeat in Redis (``backalley_site.health``)."""

    requires = {"celery.worker.components:Timer"}

    def __init__(self, worker: Any, **kwargs: Any) -> None:
        super().__init__(worker, **kwargs)
        self.tref: Any = None

    def start(self, worker: Any) -> None:
        from django.conf import settings

        self._beat(worker)
        self.tref = worker.timer.call_repeatedly(
            settings.WORKER_HEARTBEAT_EVERY_S, self._beat, (worker,), priority=10
        )

    def stop(self, worker: Any) -> None:
        from backalley_site import health

        if self.tref is not None:
            self.tref.cancel()
            self.tref = None
        try:
            health.heartbeat_clear(worker.hostname)
        except Exception as exc:
            logger.warning("heartbeat: could not clear %s (%s)", worker.hostname, exc)

    @staticmethod
    def _beat(worker: Any) -> None:
        from backalley_site import health

        try:
            health.heartbeat_write(worker.hostname)
        except Exception as exc:  # Redis away: the next beat tries again
            logger.warning("heartbeat: could not write (%s)", exc)


app.steps["worker"].add(Heartbeat)


def _serve_metrics(**kwargs: Any) -> None:
    from django.conf import settings

    from backalley_site import metrics

    port = settings.METRICS_WORKER_PORT
    if not port:
        return
    metrics.clear_multiproc_dir()
    from prometheus_client import start_http_server

    start_http_server(port, addr=settings.METRICS_WORKER_ADDR, registry=metrics.process_registry())
    logger.info("metrics on %s:%s", settings.METRICS_WORKER_ADDR, port)


def _forget_pool_process(**kwargs: Any) -> None:
    from backalley_site import metrics

    metrics.process_exited(os.getpid())


def _connect_signals() -> None:
    from backalley_site import telemetry

    signals.worker_init.connect(_serve_metrics, weak=False)
    signals.worker_process_shutdown.connect(_forget_pool_process, weak=False)
    telemetry.connect_celery()


_connect_signals()
