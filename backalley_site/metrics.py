"""The service's Prometheus metrics: one place that names them all (docs/deployment.md).

Every app counts through the objects below (a shared helper, below every app in the
layers, like :mod:`backalley_site.errors`); the site serves them at ``/metrics`` (web
nodes, behind ``METRICS_TOKEN``) and each Celery worker on its own port
(``METRICS_WORKER_PORT``, bound to an internal address).

Several processes per node (gunicorn's workers, Celery's prefork pool) each count in their
own memory, so with ``PROMETHEUS_MULTIPROC_DIR`` set (before the process starts) every
process writes its values to files in that directory, and a scrape adds them up
(prometheus-client's multiprocess mode). Without it (tests, ``make run``) the values live
in the process and a scrape reads them there.

What cannot be counted where it happens (the outbox's backlog, the broker's queues, the
workers' heartbeats) is read when scraped: apps register a *scrape collector*
(:func:`register_scrape`) that returns the current values.

Names: ``backalley_*``; a counter ends in ``_total``, a duration in ``_seconds``.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client import multiprocess as mp
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.metrics_core import Metric

logger = logging.getLogger(__name__)

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"

# The "_created" series (a timestamp per counter) are left out, as in multiprocess mode.
disable_created_metrics()  # type: ignore[no-untyped-call]
if os.environ.get(MULTIPROC_ENV):  # a metric without labels writes its file at once
    os.makedirs(os.environ[MULTIPROC_ENV], exist_ok=True)


# --- counted where it happens ---------------------------------------------------------------
REQUEST_LATENCY = Histogram(
    "backalley_http_request_duration_seconds",
    "Time to answer a request, by route (the URL pattern's name), method and status; for "
    "the event feed's long polls and streams, the time to admit them (not their wait).",
    ["route", "method", "status"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
MOVES = Counter(
    "backalley_moves_total",
    "Moves committed, by who made them (player, bot, system: the house bot substituting; "
    "auto: a forced action or the rest of a settled deal; premove: a queued move).",
    ["submitted_by"],
)
BOT_TURN_LATENCY = Histogram(
    "backalley_bot_turn_latency_seconds",
    "From the commit of the move that gave a worker-played bot its turn to the commit of "
    "the bot's move, by kind of bot (hosted or webhook).",
    ["kind"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0),
)
WAITING_CLIENTS = Gauge(
    "backalley_live_waiting_clients",
    "Clients waiting on the event feed in this node's server processes (stream or poll).",
    ["kind"],
    multiprocess_mode="livesum",
)
WEBHOOK_FAILURES = Counter(
    "backalley_webhook_failures_total",
    "Webhook bot turns that failed (the house strategy played instead), by kind of fault.",
    ["kind"],
)
PUSH_FAILURES = Counter(
    "backalley_push_failures_total",
    "Push notifications that could not be delivered, by reason (see push_failed).",
    ["reason"],
)
CONSUMER_FAILURES = Counter(
    "backalley_outbox_consumer_failures_total",
    "Outbox consumers that raised (the relay tries them again), by consumer.",
    ["consumer"],
)
DATABASE_UNAVAILABLE = Counter(
    "backalley_database_unavailable_total",
    "Requests answered 503 database_unavailable (the database could not be reached).",
)


# Label values known in advance are exported at 0 from the start, so a dashboard (and a rate)
# sees the series before the first one happens. Apps add theirs (the bots' fault kinds) in
# their AppConfig.ready().
for _by in ("player", "bot", "system", "auto", "premove"):
    MOVES.labels(submitted_by=_by)
PUSH_REASONS = ("gone", "rejected", "unreachable", "timeout")
for _reason in PUSH_REASONS:
    PUSH_FAILURES.labels(reason=_reason)


def push_failed(reason: str) -> None:
    """Count a push notification that could not be delivered (``reason``: a short stable
    word such as ``gone``, ``rejected``, ``unreachable``, ``timeout``). For the push app."""
    PUSH_FAILURES.labels(reason=reason).inc()


def observe_request(route: str, method: str, status: int, seconds: float) -> None:
    REQUEST_LATENCY.labels(route=route, method=method, status=str(status)).observe(seconds)


# --- read when scraped ----------------------------------------------------------------------
ScrapeCollector = Callable[[], Iterable[Metric]]
_scrapers: dict[str, ScrapeCollector] = {}


def register_scrape(name: str, collect: ScrapeCollector) -> None:
    """Add ``collect`` to every scrape of ``/metrics`` (by name: registering twice replaces).
    It should be quick (a query or two) and may raise: its metrics are then left out and
    ``backalley_scrape_errors`` says which failed."""
    _scrapers[name] = collect


class _ScrapeTime:
    def collect(self) -> Iterator[Metric]:
        failed = GaugeMetricFamily(
            "backalley_scrape_errors",
            "1 for each scrape collector that failed during this scrape.",
            labels=["collector"],
        )
        for name, collect in sorted(_scrapers.items()):
            try:
                families = list(collect())
            except Exception as exc:  # a dependency is down: say so, serve the rest
                logger.warning("metrics: scrape collector %s failed: %s", name, exc)
                failed.add_metric([name], 1.0)
                continue
            failed.add_metric([name], 0.0)
            yield from families
        yield failed


class _Joined:
    def __init__(self, *sources: Any) -> None:
        self.sources = sources

    def collect(self) -> Iterator[Metric]:
        for source in self.sources:
            yield from source.collect()


def multiprocess() -> bool:
    return bool(os.environ.get(MULTIPROC_ENV))


def process_registry() -> Any:
    """What this node's processes counted: all of them added up in multiprocess mode, this
    process's own otherwise."""
    if multiprocess():
        registry = CollectorRegistry()
        mp.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return registry
    return REGISTRY


def exposition(*, scrape_time: bool = True) -> tuple[bytes, str]:
    """The metrics in Prometheus' text format, and its content type."""
    sources: list[Any] = [process_registry()]
    if scrape_time:
        sources.append(_ScrapeTime())
    return generate_latest(_Joined(*sources)), CONTENT_TYPE_LATEST


def process_exited(pid: int) -> None:
    """Forget a dead process's live gauges (gunicorn's child_exit, Celery's pool)."""
    if multiprocess():
        mp.mark_process_dead(pid)  # type: ignore[no-untyped-call]


def clear_multiproc_dir() -> None:
    """Empty the multiprocess directory before a node's first process starts counting
    (files left by an earlier run would be added to this one's)."""
    path = os.environ.get(MULTIPROC_ENV)
    if not path:
        return
    os.makedirs(path, exist_ok=True)
    for name in os.listdir(path):
        if name.endswith(".db"):
            os.remove(os.path.join(path, name))
