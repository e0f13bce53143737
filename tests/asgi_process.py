"""A real ASGI server process for the tests: the production command (gunicorn with uvicorn
workers) on the test database and the test Redis, started, stopped and restarted on one port.

Tests using it need the transactional test database (the server sees only what is
committed) and, for Redis pub/sub between processes, ``CELERY_BROKER_URL=redis://...``.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
from django.conf import settings

from tests.bots.worker import redis_available, test_database_url
from tests.conftest import require_service

ROOT = Path(__file__).resolve().parents[1]


def require_server_services() -> None:
    from django.db import connection

    require_service(connection.vendor == "postgresql", "server tests need PostgreSQL")
    require_service(redis_available(settings.LIVE_REDIS_URL), "server tests need Redis")


class AsgiServer:
    def __init__(self, log_dir: Path, env: dict[str, str] | None = None, workers: int = 2) -> None:
        self.log_dir, self.env, self.workers = log_dir, env or {}, workers
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60) -> AsgiServer:
        self.starts += 1
        env = {
            **os.environ,
            "DATABASE_URL": test_database_url(),
            "DB_POOL": "true",
            "DB_POOL_MAX": "4",
            "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
            "LIVE_REDIS_URL": settings.LIVE_REDIS_URL,
            "LIVE_CHANNEL_PREFIX": settings.LIVE_CHANNEL_PREFIX,
            "PYTHONUNBUFFERED": "1",
            **self.env,
        }
        log = open(self.log_dir / f"server-{self.starts}.log", "wb")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "backalley_site.asgi:application",
                "--worker-class=backalley_site.server.Worker",
                "--config=python:backalley_site.gunicorn_conf",
                f"--workers={self.workers}",
                f"--bind=127.0.0.1:{self.port}",
                "--graceful-timeout=15",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"the server exited:\n{self.log()}")
            try:
                if httpx.get(self.url + "/healthz/", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise AssertionError(f"the server did not answer in {timeout} s:\n{self.log()}")

    def stop(self, timeout: float = 30) -> float:
        """SIGTERM (a graceful stop, as docker or systemd send); returns how long it took."""
        if self.proc is None or self.proc.poll() is not None:
            return 0.0
        started = time.monotonic()
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
        return time.monotonic() - started

    def log(self) -> str:
        return "\n".join(
            p.read_text(errors="replace")[-3000:] for p in sorted(self.log_dir.glob("server-*"))
        )
