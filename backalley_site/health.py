"""What the deep health check and the scrape read: the database, Redis, the workers'
heartbeats, the broker's queues and the outbox (docs/deployment.md, "Health").

**Worker heartbeats.** Each Celery worker writes ``<HEALTH_KEY_PREFIX>worker:<hostname>``
in Redis every ``WORKER_HEARTBEAT_EVERY_S`` seconds (a bootstep of the worker, see
``backalley_site.celery``), the time as its value, lapsing after three missed beats. A
heartbeat says the worker's main process runs and reaches Redis; whether it keeps up is
what the outbox lag and the queues' depth say.

Every check is bounded: Redis is given ``HEALTH_REDIS_TIMEOUT_S`` per call; the database is
bounded by its connect timeout (or the pool's) (docs/deployment.md, "Faults").
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import connection
from prometheus_client.core import GaugeMetricFamily

from backalley_site.errors import error_body
from games import outbox

logger = logging.getLogger(__name__)

# kombu's Redis transport keeps a queue's messages of priority p (p > 0) in "<queue>\x06\x16p".
_PRIORITY_SEP = "\x06\x16"
_PRIORITY_STEPS = (0, 3, 6, 9)


def redis_url() -> str:
    """The Redis that live play and the broker use (empty: none configured)."""
    url = settings.LIVE_REDIS_URL or ""
    if not url and settings.CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
        url = settings.CELERY_BROKER_URL
    return str(url)


def _redis(url: str) -> Any:
    # Only when a Redis is named: the embedded default (make run) runs without one.
    import redis

    timeout = settings.HEALTH_REDIS_TIMEOUT_S
    return redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)


_clients: dict[str, Any] = {}
_clients_lock = threading.Lock()


def _client(url: str) -> Any:
    with _clients_lock:
        client = _clients.get(url)
        if client is None:
            client = _clients[url] = _redis(url)
        return client


# --- heartbeats -----------------------------------------------------------------------------
def heartbeat_key(hostname: str) -> str:
    return f"{settings.HEALTH_KEY_PREFIX}worker:{hostname}"


def heartbeat_write(hostname: str) -> None:
    url = redis_url()
    if not url:
        return
    every = settings.WORKER_HEARTBEAT_EVERY_S
    _client(url).set(heartbeat_key(hostname), f"{time.time():.3f}", ex=max(int(every * 3), 1))


def heartbeat_clear(hostname: str) -> None:
    url = redis_url()
    if url:
        _client(url).delete(heartbeat_key(hostname))


def heartbeats() -> dict[str, float]:
    """Each live worker's hostname and the age of its last heartbeat, in seconds."""
    url = redis_url()
    if not url:
        return {}
    client = _client(url)
    prefix = heartbeat_key("")
    keys = list(client.scan_iter(match=prefix + "*", count=100))
    if not keys:
        return {}
    now = time.time()
    out: dict[str, float] = {}
    for key, value in zip(keys, client.mget(keys), strict=True):
        if value is None:
            continue
        name = (key.decode() if isinstance(key, bytes) else key)[len(prefix) :]
        out[name] = max(now - float(value), 0.0)
    return out


# --- the broker's queues ----------------------------------------------------------------------
def celery_queues() -> list[str]:
    """Every queue the project routes to (settings), "celery" included."""
    queues = {"celery"}
    queues |= {str(r["queue"]) for r in settings.CELERY_TASK_ROUTES.values() if "queue" in r}
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        options = entry.get("options")
        if isinstance(options, dict) and "queue" in options:
            queues.add(str(options["queue"]))
    return sorted(queues)


def queue_lengths() -> dict[str, int]:
    """Messages waiting in each queue of a Redis broker (none for another broker)."""
    url = str(settings.CELERY_BROKER_URL)
    if not url.startswith(("redis://", "rediss://")):
        return {}
    client = _client(url)
    queues = celery_queues()
    pipe = client.pipeline(transaction=False)
    for queue in queues:
        for step in _PRIORITY_STEPS:
            pipe.llen(queue if step == 0 else f"{queue}{_PRIORITY_SEP}{step}")
    counts = pipe.execute()
    n = len(_PRIORITY_STEPS)
    return {queue: int(sum(counts[i * n : (i + 1) * n])) for i, queue in enumerate(queues)}


# --- checks -----------------------------------------------------------------------------------
def _timed(check: Any) -> dict[str, Any]:
    started = time.perf_counter()
    try:
        result: dict[str, Any] = check()
    except Exception as exc:
        result = {"ok": False, "error": type(exc).__name__}
    result["ms"] = round((time.perf_counter() - started) * 1000, 1)
    return result


def _database() -> dict[str, Any]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"ok": True}


def _redis_ping() -> dict[str, Any]:
    url = redis_url()
    if not url:
        return {"ok": True, "configured": False}
    _client(url).ping()
    return {"ok": True}


def _workers() -> dict[str, Any]:
    beats = heartbeats()
    if not redis_url():
        return {"ok": True, "configured": False}
    youngest = min(beats.values()) if beats else None
    ok = youngest is not None and youngest <= settings.WORKER_HEARTBEAT_MAX_AGE_S
    return {
        "ok": ok,
        "alive": len(beats),
        "youngest_s": None if youngest is None else round(youngest, 1),
    }


def _outbox() -> dict[str, Any]:
    waiting, lag = outbox.backlog()
    return {
        "ok": lag <= settings.HEALTH_OUTBOX_MAX_LAG_S,
        "backlog": waiting,
        "lag_s": round(lag, 1),
    }


_cache_lock = threading.Lock()
_cached: tuple[float, int, dict[str, Any]] | None = None


def deep_report() -> tuple[int, dict[str, Any]]:
    """The deep check's status code and body, at most once a second per process (a balancer
    probing every node every second costs each node one round of checks).

    503 only when this node cannot reach the database: it cannot serve anything. Redis down,
    no worker heartbeat or a lagging outbox are shared troubles that taking nodes out of
    the balancer would not mend, so they answer 200 ``degraded``, naming the failed check.
    """
    global _cached
    now = time.monotonic()
    with _cache_lock:
        if _cached is not None and now - _cached[0] < settings.HEALTH_DEEP_CACHE_S:
            return _cached[1], _cached[2]
    checks = {"database": _timed(_database)}
    if checks["database"]["ok"]:
        checks["outbox"] = _timed(_outbox)
    checks["redis"] = _timed(_redis_ping)
    checks["worker"] = (
        _timed(_workers) if checks["redis"]["ok"] else {"ok": False, "error": "redis"}
    )
    failed = sorted(name for name, check in checks.items() if not check["ok"])
    node = {"node": settings.NODE_NAME}
    if not checks["database"]["ok"]:
        status = 503
        body = error_body(
            "unhealthy",
            "The database cannot be reached.",
            {"checks": checks, "failed": failed, **node},
        )
    else:
        status = 200
        body = {
            "status": "degraded" if failed else "ok",
            "checks": checks,
            "failed": failed,
            **node,
        }
    with _cache_lock:
        _cached = (now, status, body)
    return status, body


# --- scrape-time metrics of the site ----------------------------------------------------------
def scrape_queues() -> Iterable[Any]:
    lengths = queue_lengths()
    family = GaugeMetricFamily(
        "backalley_celery_queue_length", "Tasks waiting in each broker queue.", labels=["queue"]
    )
    for queue, length in lengths.items():
        family.add_metric([queue], float(length))
    return [family]


def scrape_workers() -> Iterable[Any]:
    beats = heartbeats()
    alive = GaugeMetricFamily(
        "backalley_workers_alive", "Celery workers whose heartbeat has not lapsed."
    )
    alive.add_metric([], float(len(beats)))
    age = GaugeMetricFamily(
        "backalley_worker_heartbeat_age_seconds",
        "Seconds since each worker's last heartbeat.",
        labels=["worker"],
    )
    for name, seconds in sorted(beats.items()):
        age.add_metric([name], seconds)
    return [alive, age]


def default_node_name() -> str:
    return socket.gethostname()
