"""Play API benchmark: gunicorn and PostgreSQL on loopback, many games played at once.

One run, one server, the same concurrent clients throughout:

1. throughput and latency, in interleaved rounds (so a change in the machine's load hits
   every kind alike) of
   - ``GET /api/v1/bench-ping/``: the trivial authenticated DRF endpoint (bench/api_urls.py;
     Bearer token look-up, JSON rendering, nothing else) -- the baseline;
   - ``POST /api/v1/games/<id>/moves/`` with ``expected_seq`` and an ``Idempotency-Key``,
     each client playing its own games from the start;
   - ``GET /api/v1/me/``, for reference (it does a little more than the ping);
   target: moves/s >= 0.7 x the ping's requests/s; the SQL statements per request of each
   kind are printed too (counted by the server, the after-commit delivery included);
2. the latency of a move early in a game (from seq 10) against one late (from seq ~785, the
   last deal of a ~824-move game), interleaved move by move on the same clients; games are
   advanced in-process through the services beforehand. Target: late p50 / early p50 <= 1.2.

Each client is four players: one HTTP connection and one token per seat. Clients mirror their
games with the engine to choose legal moves without extra requests (a benchmark privilege:
they read the seed from the database). The server runs as deployed (gunicorn with uvicorn
workers, ASGI; ``--server wsgi`` for sync workers) with DEBUG off, so persistent database
connections, unless told otherwise. Besides the latency seen
by the clients (mostly queueing once the server is saturated), each figure gives the time
spent inside Django (a ``Server-Timing`` header added by bench/api_middleware.py).

    .venv/bin/python bench/api.py [--quick] [--clients N] [--workers N] [--server asgi|wsgi]
        [--threads N]
        [--rounds N] [--seconds S] [--samples N] [--profile]
        [--database-url URL]   (default postgres://postgres@127.0.0.1:5432/ba_bench_api,
                                dropped and recreated; only names starting "ba_bench")

``--profile`` runs the workers under cProfile and prints the project's hot spots (the
figures of that run are inflated by the profiler).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import api_prep  # noqa: E402
from bench.api_prep import PING_PATH, Table  # noqa: E402
from bench.api_report import LoadWatch, print_profile  # noqa: E402

Sample = tuple[float, float]  # (latency seen by the client, time inside Django), seconds
# SQL statements per request, by request kind ("GET <path>" / "POST"), as the server counted.
QUERIES: dict[str, list[int]] = {}
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/ba_bench_api"
EARLY_FROM = 10
LATE_BEFORE_END = 40  # late samples start this many moves before the game's end (~seq 785)


class Conn:
    """One client connection; reopened transparently when the server closes it (sync
    workers close after every response; uvicorn and gthread workers keep it alive)."""

    def __init__(self, port: int, token: str) -> None:
        self.port, self.token = port, token
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(
        self, method: str, path: str, body: Any = None, key: str | None = None
    ) -> tuple[int, Any, float, float]:
        """(status, body, latency seen here, time inside Django), both in seconds."""
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        if key is not None:
            headers["Idempotency-Key"] = key
        for attempt in range(2):
            started = time.perf_counter()
            try:
                self.conn.request(method, path, body=data, headers=headers)
                resp = self.conn.getresponse()
                raw = resp.read()
                took = time.perf_counter() - started
                if resp.will_close:
                    self.conn.close()
                timing = resp.getheader("Server-Timing") or "app;dur=nan"
                server = float(timing.rsplit("dur=", 1)[1]) / 1000
                if timing.startswith("db;desc=queries;dur="):
                    n = int(timing.split("dur=", 1)[1].split(",", 1)[0])
                    kind = "POST" if method == "POST" else f"GET {path}"
                    QUERIES.setdefault(kind, []).append(n)
                return resp.status, json.loads(raw) if raw else None, took, server
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # A kept-alive connection the server had just closed: retry once, fresh (the
                # Idempotency-Key makes a retried move safe).
                self.conn.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")


class Client:
    """Four players (one connection each) and the games they play, one after another."""

    def __init__(self, port: int, tables: list[Table]) -> None:
        self.tables = list(tables)
        self.conns = [Conn(port, tok) for tok in tables[0].tokens]
        self.turn = 0

    def get(self, path: str) -> Sample:
        self.turn = (self.turn + 1) % 4
        status, body, took, server = self.conns[self.turn].call("GET", path)
        if status != 200:
            raise RuntimeError(f"GET {path}: {status} {body}")
        return took, server

    def move(self, table: Table) -> tuple[int, Sample]:
        """Submit the policy's move for the seat to act; return (seq before it, timings)."""
        state = table.state
        action, seq, seat = api_prep.policy(state), state.move_count, state.seat_to_act
        assert seat is not None  # a game not over has a seat to act
        from backalley_engine.actions import action_to_json

        status, body, took, server = self.conns[seat].call(
            "POST",
            f"/api/v1/games/{table.id}/moves/",
            {"action": action_to_json(action), "expected_seq": seq},
            key=f"bench-{seq}",
        )
        if status != 201 or body["move"]["seq"] != seq + 1:
            raise RuntimeError(f"move {seq} in {table.id}: {status} {body}")
        state.apply(action)
        return seq, (took, server)


def run_clients(clients: list[Client], work: Any) -> tuple[list[Sample], float]:
    """Run ``work(client, out)`` on one thread per client; all samples and elapsed time."""
    outs: list[list[Sample]] = [[] for _ in clients]
    errors: list[BaseException] = []

    def one(i: int) -> None:
        try:
            work(clients[i], outs[i])
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(clients))]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - started
    if errors:
        raise errors[0]
    return [x for out in outs for x in out], elapsed


def phase(clients: list[Client], kind: str, seconds: float) -> tuple[list[Sample], float]:
    stop = time.perf_counter() + seconds

    def work(c: Client, out: list[Sample]) -> None:
        while time.perf_counter() < stop:
            if kind == "move":
                while c.tables and c.tables[0].state.is_terminal():
                    c.tables.pop(0)
                if not c.tables:
                    raise RuntimeError("a client ran out of games: give it more")
                out.append(c.move(c.tables[0])[1])
            else:
                out.append(c.get(PING_PATH if kind == "ping" else "/api/v1/me/"))

    return run_clients(clients, work)


def early_late(
    clients: list[Client], pairs: list[tuple[Table, Table]], samples: int
) -> tuple[dict[str, list[Sample]], dict[str, list[int]]]:
    """Each client alternates moves between its early and its late game."""
    lat: dict[str, list[Sample]] = {"early": [], "late": []}
    seqs: dict[str, list[int]] = {"early": [], "late": []}
    lock = threading.Lock()

    def work(c: Client, out: list[Sample]) -> None:
        early, late = pairs[clients.index(c)]
        for k in range(samples):
            order = [("early", early), ("late", late)]
            for name, table in order if k % 2 == 0 else order[::-1]:
                seq, took = c.move(table)
                with lock:
                    lat[name].append(took)
                    seqs[name].append(seq)

    run_clients(clients, work)
    return lat, seqs


def pct(samples: list[Sample], p: float, which: int = 0) -> float:
    """The p-th percentile in ms of the client's latency (which=0) or Django's time (1)."""
    ordered = sorted(s[which] for s in samples)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000


def figures(samples: list[Sample]) -> str:
    return (
        f"p50 {pct(samples, 50):7.1f} ms  p99 {pct(samples, 99):7.1f} ms  "
        f"(in Django: p50 {pct(samples, 50, 1):6.1f} ms  p99 {pct(samples, 99, 1):6.1f} ms)  "
        f"n={len(samples)}"
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(
    port: int, url: str, workers: int, threads: int, profile_dir: str | None, server: str
) -> subprocess.Popen[bytes]:
    app = "backalley_site.asgi:application" if server == "asgi" else "backalley_site.wsgi"
    cmd = [sys.executable, "-m", "gunicorn", app, "-b", f"127.0.0.1:{port}"]
    cmd += ["-w", str(workers), "--timeout", "120", "--log-level", "warning"]
    if server == "asgi":  # as deployed: uvicorn workers, sync views in their threads
        cmd += ["-k", "backalley_site.server.Worker"]
    elif threads > 1:
        cmd += ["-k", "gthread", "--threads", str(threads), "--keep-alive", "30"]
    env = dict(os.environ, **api_prep.settings_env(url))
    if server == "asgi":
        # As docker-compose.yml's web service: under ASGI each request has a thread of its
        # own, so connections are pooled per process rather than kept per thread.
        env.update(DB_POOL="true", DB_POOL_MAX="10", DB_CONN_MAX_AGE="0")
        cmd += ["--keep-alive", "75"]
    if profile_dir:
        cmd += ["-c", "python:bench.api_gunicorn_profile"]
        env["BENCH_PROFILE_DIR"] = profile_dir
    return subprocess.Popen(cmd, cwd=ROOT, env=env, start_new_session=True)


def wait_ready(port: int, token: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"gunicorn exited with {server.returncode}")
        try:
            if Conn(port, token).call("GET", PING_PATH)[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise SystemExit("the server did not come up")


def stop_server(server: subprocess.Popen[bytes]) -> None:
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(10)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="a smaller, shorter run")
    ap.add_argument("--clients", type=int, default=None)
    ap.add_argument("--workers", type=int, default=3, help="gunicorn workers (default 3)")
    ap.add_argument(
        "--server",
        choices=["asgi", "wsgi"],
        default="asgi",
        help="asgi: gunicorn with uvicorn workers, as deployed (default); wsgi: sync workers",
    )
    ap.add_argument("--threads", type=int, default=1, help="wsgi, >1: gthread with keep-alive")
    ap.add_argument("--rounds", type=int, default=None)
    ap.add_argument("--seconds", type=float, default=None, help="per ping/move round")
    ap.add_argument("--samples", type=int, default=None, help="early/late moves per client")
    ap.add_argument(
        "--profile",
        action="store_true",
        help="cProfile the server's workers and print the hot spots (figures then inflated)",
    )
    ap.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB))
    a = ap.parse_args(argv)
    if a.profile:
        a.server, a.threads = "wsgi", 1  # the profiler follows a sync worker's one thread
    a.clients = a.clients or (4 if a.quick else 8)
    a.rounds = a.rounds or (1 if a.quick else 3)
    a.seconds = a.seconds or (4.0 if a.quick else 8.0)
    a.samples = min(a.samples or (8 if a.quick else 40), LATE_BEFORE_END - 2)
    return a


def prepare(a: argparse.Namespace) -> tuple[list[list[Table]], list[tuple[Table, Table]], str]:
    """Database, people, games: each client's games from the start, its (early, late) pair."""
    api_prep.recreate_database(a.database_url)
    os.environ.update(api_prep.settings_env(a.database_url))
    t0 = time.perf_counter()
    api_prep.django_setup()
    people = api_prep.make_players(4 * a.clients)
    fours = [people[4 * i : 4 * i + 4] for i in range(a.clients)]
    games_each = 1 if a.quick else 2
    play = [[api_prep.make_game(f) for _ in range(games_each)] for f in fours]
    pairs = [(api_prep.make_game(f), api_prep.make_game(f)) for f in fours]
    jobs = [(e, EARLY_FROM) for e, _ in pairs]
    jobs += [(lt, api_prep.game_length(lt.seed) - LATE_BEFORE_END) for _, lt in pairs]
    api_prep.advance_all(jobs)
    from django.db import connections

    connections.close_all()
    took = time.perf_counter() - t0
    note = (
        f"{len(people)} people, {sum(map(len, play)) + 2 * len(pairs)} games; "
        f"{len(pairs)} games advanced to ~{jobs[-1][1]} moves in-process, in {took:.0f} s"
    )
    return play, pairs, note


def main(argv: list[str] | None = None) -> None:
    a = parse_args(argv)
    load_start = os.getloadavg()
    print(f"Back Alley play API benchmark ({'quick' if a.quick else 'full'})", flush=True)
    print(f"load average at start: {load_start[0]:.1f} {load_start[1]:.1f} {load_start[2]:.1f}")
    play, pairs, note = prepare(a)
    print(f"prepared: {note}", flush=True)
    port = free_port()
    clients = [Client(port, tables) for tables in play]
    profile_dir = tempfile.mkdtemp(prefix="ba-bench-prof-") if a.profile else None
    server = start_server(port, a.database_url, a.workers, a.threads, profile_dir, a.server)
    res: dict[str, tuple[list[Sample], float]] = {}
    try:
        wait_ready(port, clients[0].tables[0].tokens[0], server)
        phase(clients, "ping", 2.0)  # warm every worker up; not counted
        phase(clients, "me", 1.0)
        with LoadWatch() as load:
            for _ in range(a.rounds):
                for kind, secs in (("ping", a.seconds), ("move", a.seconds), ("me", a.seconds / 2)):
                    got, elapsed = phase(clients, kind, secs)
                    old = res.get(kind, ([], 0.0))
                    res[kind] = (old[0] + got, old[1] + elapsed)
            el_lat, el_seq = early_late(clients, pairs, a.samples)
    finally:
        stop_server(server)
    if a.server == "asgi":
        server_kind = "uvicorn (ASGI, pooled connections)"
    else:
        server_kind = f"{a.threads}-thread gthread" if a.threads > 1 else "sync"
    print(
        f"machine: {os.cpu_count()} CPUs shared; 1-min load average during the measured run: "
        f"{load.summary()}; at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    print(
        f"server: gunicorn, {a.workers} {server_kind} workers, PostgreSQL on loopback "
        f"({a.database_url.rsplit('/', 1)[1]}), settings bench.api_settings (DEBUG off)"
        + (" -- PROFILED: figures inflated" if profile_dir else "")
    )
    print(
        f"clients: {a.clients} concurrent threads x 4 players; {a.rounds} interleaved rounds of "
        f"ping {a.seconds:.0f} s, moves {a.seconds:.0f} s, me {a.seconds / 2:.0f} s"
    )
    rates = {k: len(v[0]) / v[1] for k, v in res.items()}
    labels = {
        "ping": f"GET  {PING_PATH} (trivial)",
        "move": "POST /api/v1/games/<id>/moves/",
        "me": "GET  /api/v1/me/ (reference)",
    }
    for kind in ("ping", "move", "me"):
        unit = "moves/s" if kind == "move" else "req/s  "
        print(f"  {labels[kind]:31} {rates[kind]:6.1f} {unit} {figures(res[kind][0])}")
    ratio = rates["move"] / rates["ping"]
    verdict = "met" if ratio >= 0.7 else "MISSED"
    print(f"moves/s / trivial req/s = {ratio:.2f}  (target >= 0.7: {verdict})")
    for kind, counts in sorted(QUERIES.items()):
        label = "move" if kind == "POST" else kind.removeprefix("GET ")
        ordered = sorted(counts)
        print(
            f"  queries per request, {label}: median {ordered[len(ordered) // 2]}, "
            f"min {ordered[0]}, max {ordered[-1]} ({len(ordered)} requests)"
        )
    for name in ("early", "late"):
        seqs = el_seq[name]
        print(f"  {name:5} moves, seq {min(seqs):3}..{max(seqs):3}: {figures(el_lat[name])}")
    e50, l50 = pct(el_lat["early"], 50), pct(el_lat["late"], 50)
    verdict = "met" if l50 / e50 <= 1.2 else "MISSED"
    print(f"late p50 / early p50 = {l50 / e50:.2f}  (target <= 1.2: {verdict})")
    e50, l50 = pct(el_lat["early"], 50, 1), pct(el_lat["late"], 50, 1)
    print(f"  the same inside Django (no queueing): {l50 / e50:.2f}")
    if profile_dir:
        print_profile(profile_dir, ROOT)


if __name__ == "__main__":
    main()
