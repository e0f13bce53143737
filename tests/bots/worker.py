"""A real Celery worker process for the tests, on the test database and the test broker.

The worker is a separate ``celery -A backalley_site worker`` process started in its own
process group, with ``DATABASE_URL`` pointing at the test database pytest-django created,
so it sees what the test committed (tests using it run with ``transaction=True``).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection

from tests.conftest import require_service

ROOT = Path(__file__).resolve().parents[2]


def redis_available(url: str) -> bool:
    if not url.startswith(("redis://", "rediss://")):
        return False
    try:
        import redis

        return bool(redis.Redis.from_url(url, socket_connect_timeout=1).ping())
    except Exception:
        return False


def require_worker_services() -> None:
    require_service(
        connection.vendor == "postgresql",
        "worker tests need PostgreSQL: set DATABASE_URL=postgres://...",
    )
    require_service(
        redis_available(settings.CELERY_BROKER_URL),
        "worker tests need Redis: set CELERY_BROKER_URL=redis://...",
    )


def test_database_url() -> str:
    s = connection.settings_dict
    user = s.get("USER") or "postgres"
    password = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
    host = s.get("HOST") or "127.0.0.1"
    port = s.get("PORT") or 5432
    # Persistent connections: the worker does not reconnect for every task.
    return f"postgres://{user}{password}@{host}:{port}/{s['NAME']}?conn_max_age=600"


def wait_for(predicate: Callable[[], Any], timeout: float, what: str, step: float = 0.05) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")


class Worker:
    """One worker process (``-c 1``) on the test database; ``start``/``kill``/``stop`` it."""

    def __init__(
        self,
        log_dir: Path,
        extra_env: dict[str, str] | None = None,
        *,
        queues: str = "bots,celery,ratings,clock,events,notify",
        pool: str = "prefork",
        name: str = "bots-test",
        include: str | None = None,
    ) -> None:
        self.log_dir = log_dir
        self.extra_env = extra_env or {}
        self.queues = queues
        self.pool = pool
        self.name = name
        self.include = include  # extra modules the worker imports (-I), e.g. test consumers
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def log_path(self) -> Path:
        return self.log_dir / f"worker-{self.starts}.log"

    def start(self, timeout: float = 60) -> Worker:
        self.starts += 1
        env = {
            **os.environ,
            "DATABASE_URL": test_database_url(),
            "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
            "BOTS_ALLOW_PRIVATE_WEBHOOKS": "true",
            "PYTHONUNBUFFERED": "1",
            **self.extra_env,
        }
        log = open(self.log_path, "wb")  # noqa: SIM115 - closed with the process
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "backalley_site",
                "worker",
                "-Q",
                self.queues,
                "-c",
                "1",
                f"--pool={self.pool}",
                "-n",
                f"{self.name}-{os.getpid()}-{self.starts}@%h",
                "--without-gossip",
                "--without-mingle",
                "-l",
                "INFO",
                *([f"--include={self.include}"] if self.include else []),
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, so a kill reaches the pool too
        )
        wait_for(
            lambda: b" ready." in self.log_path.read_bytes() or self.proc.poll() is not None,
            timeout,
            "the worker to be ready",
        )
        if self.proc.poll() is not None:
            raise AssertionError("worker exited:\n" + self.log_path.read_text()[-4000:])
        return self

    def pool_children(self) -> list[int]:
        assert self.proc is not None
        out = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == self.proc.pid:
                out.append(int(stat.parent.name))
        return out

    def kill(self) -> None:
        """SIGKILL the whole worker (main process and pool): no warm shutdown, no ack."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        # Warm shutdown: only the main process is told; it lets the running task finish.
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.kill()

    def log(self) -> str:
        return "\n".join(
            p.read_text(errors="replace")[-3000:] for p in sorted(self.log_dir.glob("worker-*.log"))
        )


def purge_broker() -> None:
    """Drop tasks an earlier run left in this test broker's queues."""
    import redis

    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    for key in (
        "bots",
        "celery",
        "ratings",
        "clock",
        "events",
        "notify",
        "unacked",
        "unacked_index",
    ):
        client.delete(key)
