"""Play API benchmark: gunicorn and PostgreSQL on loopback, many games played at once.

Prints, from one run against one server:

1. a trivial authenticated DRF endpoint (``GET /api/v1/me/`` with a Bearer token):
   requests per second and p50/p99 latency with ``BENCH_CLIENTS`` concurrent clients;
2. move submissions (``POST /api/v1/games/<id>/moves/`` with ``expected_seq`` and an
   ``Idempotency-Key``), the same number of clients each playing its own whole game:
   moves per second (while every client is still playing) and p50/p99 latency, and the
   ratio to (1);
3. the latency of moves early in a game (seq 1..50) against late ones (seq >= 750), p50
   each and their ratio: the cost of a move must not grow with the game's length.

Clients mirror their game with the engine to choose legal moves without extra requests (a
benchmark privilege: they read the seed from the database). Environment: ``BENCH_DATABASE_URL``
(default ``postgres://postgres@127.0.0.1:5432/ba_bench_api``, created if missing and
migrated), ``BENCH_CLIENTS`` (8), ``BENCH_WORKERS`` (gunicorn workers, 3),
``BENCH_THREADS`` (threads per worker, 2), ``BENCH_TRIVIAL_SECONDS`` (10).
"""

from __future__ import annotations

import http.client
import json
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DB_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/ba_bench_api")
CLIENTS = int(os.environ.get("BENCH_CLIENTS", "8"))
WORKERS = int(os.environ.get("BENCH_WORKERS", "3"))
THREADS = int(os.environ.get("BENCH_THREADS", "2"))
TRIVIAL_SECONDS = float(os.environ.get("BENCH_TRIVIAL_SECONDS", "10"))
os.environ["DATABASE_URL"] = DB_URL
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backalley_site.settings")


def _ensure_database() -> None:
    import psycopg

    name = DB_URL.rsplit("/", 1)[1]
    admin = DB_URL.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')


def _setup() -> list[dict[str, Any]]:
    """Migrate, then make CLIENTS started games of four token-holding players each."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from accounts.services import player_create
    from accounts.tokens import token_create
    from games.services import game_create

    call_command("migrate", verbosity=0)
    run = secrets.token_hex(3)
    tables = []
    for g in range(CLIENTS):
        players, tokens = [], []
        for s in range(4):
            user = get_user_model().objects.create_user(f"bench-{run}-{g}-{s}")
            players.append(player_create(user=user, name=f"b{run}g{g}s{s}"))
            tokens.append(token_create(user=user, name="bench", scopes=["read", "play"])[1])
        game = game_create(creator=players[0], seats=players, options={"rated": False})
        game.refresh_from_db()
        tables.append({"id": game.public_id, "seed": game.seed, "tokens": tokens})
    return tables


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start_server(port: int) -> subprocess.Popen[bytes]:
    env = dict(os.environ, DJANGO_DEBUG="false", LOG_LEVEL="WARNING", DATABASE_URL=DB_URL)
    env["DJANGO_ALLOWED_HOSTS"] = "127.0.0.1,localhost"
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "backalley_site.wsgi",
            "-b",
            f"127.0.0.1:{port}",
            "-w",
            str(WORKERS),
            "-k",
            "gthread",
            "--threads",
            str(THREADS),
            "--keep-alive",
            "30",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )


class Client:
    """One keep-alive connection, reopened when the server closes it."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def request(
        self,
        method: str,
        path: str,
        token: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, Any, float]:
        data = json.dumps(body).encode() if body is not None else None
        hdrs = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
        if data is not None:
            hdrs["Content-Type"] = "application/json"
        hdrs.update(headers or {})
        for attempt in range(2):
            started = time.perf_counter()
            try:
                self.conn.request(method, path, body=data, headers=hdrs)
                resp = self.conn.getresponse()
                raw = resp.read()
                took = time.perf_counter() - started
                return resp.status, json.loads(raw) if raw else None, took
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
                if attempt:
                    raise
        raise AssertionError("unreachable")


def _wait_ready(port: int, token: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            status, _, _ = Client(port).request("GET", "/api/v1/me/", token)
            if status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit("the server did not come up")


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000


def _trivial(
    port: int, tables: list[dict[str, Any]], seconds: float = TRIVIAL_SECONDS
) -> tuple[float, list[float]]:
    latencies: list[list[float]] = [[] for _ in tables]
    stop = time.monotonic() + seconds

    def run(i: int) -> None:
        c = Client(port)
        token = tables[i]["tokens"][0]
        while time.monotonic() < stop:
            status, _, took = c.request("GET", "/api/v1/me/", token)
            assert status == 200, status
            latencies[i].append(took)

    started = time.monotonic()
    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(tables))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    flat = [x for xs in latencies for x in xs]
    return len(flat) / (time.monotonic() - started), flat


def _moves(port: int, tables: list[dict[str, Any]]) -> tuple[float, list[tuple[int, float]]]:
    from games.engine.actions import PASS, action_to_json
    from games.engine.state import GameState

    samples: list[list[tuple[int, float, float]]] = [[] for _ in tables]  # (seq, latency, t)
    first_done: list[float] = []

    def run(i: int) -> None:
        table = tables[i]
        c = Client(port)
        state = GameState.new(table["seed"])
        path = f"/api/v1/games/{table['id']}/moves/"
        while not state.is_terminal():
            seat = state.seat_to_act
            legal = state.legal_actions()
            action = legal[1] if len(legal) > 1 and legal[0] == PASS else legal[0]
            seq = state.move_count
            status, body, took = c.request(
                "POST",
                path,
                table["tokens"][seat],
                {"action": action_to_json(action), "expected_seq": seq},
                {"Idempotency-Key": f"bench-{seq}"},
            )
            assert status == 201, (status, body)
            state.apply(action)
            samples[i].append((seq + 1, took, time.monotonic()))
        first_done.append(time.monotonic())

    started = time.monotonic()
    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(tables))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    window_end = min(first_done)
    in_window = sum(1 for xs in samples for (_, _, t) in xs if t <= window_end)
    rate = in_window / (window_end - started)
    return rate, [(seq, took) for xs in samples for (seq, took, _) in xs]


def main() -> None:
    _ensure_database()
    tables = _setup()
    port = _free_port()
    server = _start_server(port)
    try:
        _wait_ready(port, tables[0]["tokens"][0])
        _trivial(port, tables, seconds=3)  # warm every worker up; not counted
        trivial_rate, trivial_lat = _trivial(port, tables)
        move_rate, move_lat = _moves(port, tables)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(30)
    lat = [t for _, t in move_lat]
    early = [t for seq, t in move_lat if seq <= 50]
    late = [t for seq, t in move_lat if seq >= 750]
    load = os.getloadavg()[0]
    print(
        f"gunicorn {WORKERS} workers x {THREADS} threads, {CLIENTS} clients, "
        f"PostgreSQL {DB_URL}, {os.cpu_count()} CPUs, load average {load:.1f}"
    )
    print(
        f"trivial GET /api/v1/me/: {trivial_rate:8.1f} req/s  "
        f"p50 {_pct(trivial_lat, 50):6.1f} ms  p99 {_pct(trivial_lat, 99):6.1f} ms  (n={len(trivial_lat)})"
    )
    print(
        f"POST move:               {move_rate:8.1f} moves/s  "
        f"p50 {_pct(lat, 50):6.1f} ms  p99 {_pct(lat, 99):6.1f} ms  (n={len(lat)})"
    )
    print(f"moves/s vs trivial req/s: {move_rate / trivial_rate:.2f} (target >= 0.5)")
    if early and late:
        e50, l50 = statistics.median(early) * 1000, statistics.median(late) * 1000
        print(
            f"move latency p50: seq 1..50 {e50:.1f} ms (n={len(early)}), "
            f"seq >= 750 {l50:.1f} ms (n={len(late)}), ratio {l50 / e50:.2f} (target <= 1.2)"
        )


if __name__ == "__main__":
    main()
