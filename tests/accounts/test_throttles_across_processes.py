"""Throttles hold across server processes: two real ASGI servers on one database and cache
share one sign-up budget per address (per-process counters would allow it twice)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from django.core.cache import cache
from django.db import connection

from tests.factories import PASSWORD

pytestmark = pytest.mark.server
ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _database_url() -> str:
    s = connection.settings_dict
    if connection.vendor != "postgresql":
        pytest.skip("two server processes need a database server (PostgreSQL)")
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


@pytest.fixture
def two_servers(transactional_db) -> Iterator[list[str]]:  # type: ignore[no-untyped-def]
    # The shared cache is a table the test flush leaves alone: start from an empty budget
    # (other tests signed up from this address too).
    cache.clear()
    env = {
        **{k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG"}},
        "DATABASE_URL": _database_url(),
        "CELERY_BROKER_URL": os.environ.get("CELERY_BROKER_URL", "memory://"),
        "ACCOUNTS_API_SIGNUP_RATE": "4/hour",
        "DJANGO_DEBUG": "false",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
    }
    ports = [_free_port(), _free_port()]
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "backalley_site.asgi:application",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for port in ports
    ]
    urls = [f"http://127.0.0.1:{port}" for port in ports]
    try:
        deadline = time.monotonic() + 60
        for url, proc in zip(urls, procs, strict=True):
            while True:
                try:
                    if httpx.get(url + "/healthz/", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"server did not start: {proc.stderr.read()!r}")  # type: ignore[union-attr]
                time.sleep(0.2)
        yield urls
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(15)


def test_sign_up_throttle_is_counted_across_two_server_processes(two_servers) -> None:  # type: ignore[no-untyped-def]
    codes = []
    for n in range(6):
        url = two_servers[n % 2]  # alternate between the two processes
        response = httpx.post(
            url + "/api/v1/auth/signup/",
            json={"username": f"proc{n}", "password": PASSWORD, "name": f"Proc_{n}"},
            timeout=30,
        )
        codes.append(response.status_code)
    assert codes == [201, 201, 201, 201, 429, 429], codes
