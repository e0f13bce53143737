"""Faults while games are played (``make chaos``): the database restarted, Redis stopped,
the workers stopped, the e-mail backend's disk full, the push service down.

On a cluster of its own (``bench/nodes.py``: its own PostgreSQL and Redis, a web node, a
worker), clients play several games through the API, a move after another, and read them,
while each fault is made in turn:

* **postgres restart**: PostgreSQL stopped (``pg_ctl -m fast``: every session ended, as a
  restart does), left down, started again;
* **redis stop**: Redis (the broker and the live layer's pub/sub) stopped, then started;
* **workers stopped**, **mail disk full**, **push down**: see ``bench/chaos_faults.py``.

A client answered 503 (or not at all) tries the same move again with the same
``Idempotency-Key``, as a client should. Then a table: per fault, the requests made while it
lasted, their answers by kind, the moves lost (acknowledged, not in the log) or doubled (in
the log, never acknowledged or twice), the time from the fault's end to the next move
committed, whether the outbox drained, ``verify_games``, and what the fault itself saw (its
note). Lost and doubled must be 0, and no answer a 500.

``python bench/chaos.py [--quick]``; the tests of ``tests/ops`` run :func:`run` for less time.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: the repository on the path, as `bench.x`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx

from bench import api_prep, chaos_faults
from bench.api_prep import Table
from bench.nodes import ROOT, Cluster


@dataclass
class Sample:
    """One answered (or failed) request: when it ended, what, and how."""

    end: float
    kind: str  # "move" or "read"
    outcome: str  # "2xx", "503 database_unavailable", "500", "timeout", "connection", ...
    took: float


@dataclass
class Play:
    """What one client saw of its game: each acknowledged move's seq and action."""

    table: Table
    acked: dict[int, int] = field(default_factory=dict)


def _outcome(status: int, body: Any) -> str:
    if 200 <= status < 300:
        return "2xx"
    code = body.get("code", "") if isinstance(body, dict) else ""
    return f"{status} {code}".strip()


class Clients:
    """``players`` threads (one per game by default), each playing its share of the games
    one after another, move by move; and one that reads every game."""

    def __init__(
        self, url: str, plays: list[Play], pause: float = 0.02, players: int | None = None
    ) -> None:
        self.url, self.plays, self.pause = url, plays, pause
        self.players = players or len(plays)
        self.samples: list[Sample] = []
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.threads: list[threading.Thread] = []
        self.errors: list[BaseException] = []
        self.idle = threading.Condition()
        self.holding = False
        self.idle_players = 0

    def _record(self, started: float, kind: str, outcome: str) -> None:
        now = time.monotonic()
        with self.lock:
            self.samples.append(Sample(now, kind, outcome, now - started))

    def _call(
        self, http: httpx.Client, kind: str, method: str, path: str, **kw: Any
    ) -> tuple[str, Any]:
        started = time.monotonic()
        try:
            r = http.request(method, self.url + path, **kw)
        except httpx.TimeoutException:
            self._record(started, kind, "timeout")
            return "timeout", None
        except httpx.TransportError:
            self._record(started, kind, "connection")
            return "connection", None
        try:
            body = r.json()
        except ValueError:
            body = None
        outcome = _outcome(r.status_code, body)
        self._record(started, kind, outcome)
        return outcome, body

    def _player(self, i: int) -> None:
        try:
            for play in self.plays[i :: self.players]:
                self._play(play)
        except BaseException as exc:
            self.errors.append(exc)
        finally:
            with self.idle:  # the games over (or a client failed) wait for nothing
                self.idle_players += 1
                self.idle.notify_all()

    def _play(self, play: Play) -> None:
        from backalley_engine.actions import action_to_json

        table, state = play.table, play.table.state
        https = [_client(t) for t in table.tokens]
        try:
            while not self.stopping.is_set() and not state.is_terminal():
                self._between_moves()
                seat, seq = state.seat_to_act, state.move_count
                assert seat is not None
                action = api_prep.policy(state)
                outcome, body = self._call(
                    https[seat],
                    "move",
                    "POST",
                    f"/api/v1/games/{table.id}/moves/",
                    json={"action": action_to_json(action), "expected_seq": seq},
                    headers={"Idempotency-Key": f"chaos-{table.id}-{seq}"},
                )
                if outcome == "2xx":
                    if body["move"]["seq"] != seq + 1:
                        raise AssertionError(f"{table.id}: move {seq} answered {body['move']}")
                    play.acked[seq + 1] = action
                    state.apply(action)
                    time.sleep(self.pause)
                elif outcome.startswith(("503", "timeout", "connection")):
                    time.sleep(0.1)  # the same move again, with the same key
                else:
                    raise AssertionError(f"{table.id}: move {seq} answered {outcome}: {body}")
        finally:
            for h in https:
                h.close()

    def _read(self) -> None:
        http = _client(self.plays[0].table.tokens[0])
        try:
            while not self.stopping.is_set():
                for play in self.plays:
                    self._call(http, "read", "GET", f"/api/v1/games/{play.table.id}/")
                time.sleep(self.pause)
        finally:
            http.close()

    def start(self) -> None:
        self.threads = [
            threading.Thread(target=self._player, args=(i,)) for i in range(self.players)
        ]
        self.threads.append(threading.Thread(target=self._read))
        for t in self.threads:
            t.start()

    def stop(self) -> None:
        self.stopping.set()
        self.release()
        for t in self.threads:
            t.join(timeout=60)
        if self.errors:
            raise self.errors[0]

    def between(self, start: float, end: float) -> list[Sample]:
        with self.lock:
            return [s for s in self.samples if start <= s.end <= end]

    def first_move_after(self, t: float, timeout: float) -> float | None:
        """Seconds from ``t`` to the first move committed (answered 2xx) after it."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                ok = [
                    s.end
                    for s in self.samples
                    if s.end > t and s.kind == "move" and s.outcome == "2xx"
                ]
            if ok:
                return min(ok) - t
            time.sleep(0.02)
        return None

    # --- holding the players between moves, so that the log can be compared -----------
    def hold(self) -> None:
        with self.idle:
            self.holding = True
            self.idle.wait_for(lambda: self.idle_players == self.players, timeout=60)

    def release(self) -> None:
        with self.idle:
            self.holding = False
            self.idle.notify_all()

    def _between_moves(self) -> None:
        with self.idle:
            if self.holding:
                self.idle_players += 1
                self.idle.notify_all()
                self.idle.wait_for(lambda: not self.holding or self.stopping.is_set())
                self.idle_players -= 1


def _client(token: str) -> httpx.Client:
    # Each request bounded: a hang past the service's documented bound shows as "timeout".
    return httpx.Client(headers={"Authorization": f"Bearer {token}"}, timeout=15.0)


@dataclass
class Row:
    fault: str
    requests: int
    errors: dict[str, int]
    lost: int
    doubled: int
    resumed_s: float | None
    outbox_drained: bool
    verified: bool
    down_s: float
    slowest_s: float  # the longest any request took, of those answered while it lasted
    note: str = ""  # what the fault itself saw (bench/chaos_faults.py)

    @property
    def server_errors(self) -> int:
        return sum(n for kind, n in self.errors.items() if kind.startswith("500"))


def postgres_restart(cluster: Cluster, down: float) -> None:
    cluster.postgres.stop("fast")
    time.sleep(down)
    cluster.postgres.start()


def redis_stop(cluster: Cluster, down: float) -> None:
    cluster.redis.stop()
    time.sleep(down)
    cluster.redis.start()


FAULTS: dict[str, Callable[[Cluster, float], str | None]] = {
    "postgres restart": postgres_restart,
    "redis stop": redis_stop,
}


def prepare(cluster: Cluster, games: int) -> list[Play]:
    """``games`` started games (four players with tokens each), made through the services
    in a process of their own on the cluster's database (this one may be set up for another)."""
    made = subprocess.run(
        [sys.executable, "-m", "bench.chaos", "--prepare", str(games)],
        cwd=ROOT,
        env=cluster.env(),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if made.returncode != 0:
        raise RuntimeError(f"preparing the games failed:\n{made.stderr[-3000:]}")
    tables = [json.loads(line) for line in made.stdout.splitlines() if line.startswith("{")]
    return [Play(Table(t["id"], t["pk"], t["seed"], t["tokens"])) for t in tables]


def _prepare_here(games: int) -> None:
    api_prep.django_setup(migrate=False)
    for _ in range(games):
        t = api_prep.make_game(api_prep.make_players(4))
        print(json.dumps({"id": t.id, "pk": t.pk, "seed": t.seed, "tokens": t.tokens}))


def _query(cluster: Cluster, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    import psycopg

    with psycopg.connect(cluster.postgres.url(), connect_timeout=5) as conn:
        return list(conn.execute(sql, args).fetchall())


def check(cluster: Cluster, plays: list[Play]) -> tuple[int, int]:
    """Moves lost (acknowledged, absent or other in the log) and doubled (in the log, never
    acknowledged): read with the players held between moves."""
    lost = doubled = 0
    for play in plays:
        rows = _query(
            cluster, "SELECT seq, action_code FROM games_move WHERE game_id = %s", play.table.pk
        )
        logged = {int(seq): int(code) for seq, code in rows}
        lost += sum(1 for seq, code in play.acked.items() if logged.get(seq) != code)
        doubled += sum(1 for seq in logged if seq not in play.acked)
    return lost, doubled


def outbox_drains(cluster: Cluster, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            left = _query(cluster, "SELECT count(*) FROM games_event WHERE delivered_at IS NULL")
            if left[0][0] == 0:
                return True
        except Exception:  # noqa: S110 - the database coming back
            pass
        time.sleep(0.2)
    return False


def run(
    cluster: Cluster,
    *,
    faults: list[tuple[str, float]],
    games: int = 4,
    settle: float = 3.0,
    pause: float = 0.02,
    more: dict[str, chaos_faults.Fault] | None = None,
    each: int = 1,
) -> list[Row]:
    """Play ``games`` games on ``cluster`` while each fault (name, seconds down) is made:
    one of :data:`FAULTS` or of ``more`` (``chaos_faults.faults``). Each of the ``games``
    players plays ``each`` games one after another (so that play goes on to the end)."""
    known = {**FAULTS, **(more or {})}
    plays = prepare(cluster, games * each)
    clients = Clients(cluster.url, plays, pause=pause, players=games)
    clients.start()
    rows: list[Row] = []
    before = (0, 0)  # lost and doubled before this fault (counted over the whole log)
    try:
        time.sleep(settle)
        for name, down in faults:
            t0 = time.monotonic()
            note = known[name](cluster, down) or ""
            t1 = time.monotonic()
            resumed = clients.first_move_after(t1, timeout=30)
            time.sleep(settle)
            during = clients.between(t0, t1)
            answered = clients.between(t0, t1 + settle)
            errors = Counter(s.outcome for s in answered)
            errors.pop("2xx", None)
            drained = outbox_drains(cluster, 30)
            verified = cluster.manage("verify_games").returncode == 0
            clients.hold()
            try:
                lost, doubled = check(cluster, plays)
            finally:
                clients.release()
            rows.append(
                Row(
                    fault=name,
                    requests=len(during),
                    errors=dict(errors),
                    lost=lost - before[0],
                    doubled=doubled - before[1],
                    resumed_s=resumed,
                    outbox_drained=drained,
                    verified=verified,
                    down_s=t1 - t0,
                    slowest_s=max((s.took for s in answered), default=0.0),
                    note=note,
                )
            )
            before = (lost, doubled)
    finally:
        clients.stop()
    return rows


def table(rows: list[Row]) -> str:
    head = (
        "fault",
        "down s",
        "requests",
        "errors by kind",
        "slowest s",
        "lost",
        "doubled",
        "resumed s",
        "outbox drained",
        "verify_games",
        "note",
    )
    lines = [head]
    for r in rows:
        errors = ", ".join(f"{n}× {k}" for k, n in sorted(r.errors.items())) or "none"
        resumed = f"{r.resumed_s:.2f}" if r.resumed_s is not None else "never"
        lines.append(
            (
                r.fault,
                f"{r.down_s:.2f}",
                str(r.requests),
                errors,
                f"{r.slowest_s:.2f}",
                str(r.lost),
                str(r.doubled),
                resumed,
                "yes" if r.outbox_drained else "NO",
                "clean" if r.verified else "PROBLEMS",
                r.note,
            )
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
    return "\n".join(
        "  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)) for line in lines
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=4, help="games played at once (default 4)")
    ap.add_argument("--postgres-down", type=float, default=5.0, help="seconds (default 5)")
    ap.add_argument("--redis-down", type=float, default=60.0, help="seconds (default 60)")
    ap.add_argument("--each", type=int, default=6, help="games each player plays (default 6)")
    ap.add_argument("--workers-down", type=float, default=20.0, help="seconds (default 20)")
    ap.add_argument("--mail-down", type=float, default=10.0, help="seconds (default 10)")
    ap.add_argument("--push-down", type=float, default=10.0, help="seconds (default 10)")
    ap.add_argument("--quick", action="store_true", help="Redis down 5 s instead")
    ap.add_argument("--prepare", type=int, help=argparse.SUPPRESS)  # run by prepare()
    a = ap.parse_args(argv)
    if a.prepare is not None:
        _prepare_here(a.prepare)
        return 0
    redis_down = 5.0 if a.quick else a.redis_down
    extras = chaos_faults.Extras()
    try:
        more = chaos_faults.faults(extras)
        wanted = [
            ("postgres restart", a.postgres_down),
            ("redis stop", redis_down),
            ("workers stopped", a.workers_down),
            ("mail disk full", a.mail_down),
            ("push down", a.push_down),
        ]
        with Cluster(env=extras.env()) as cluster:
            rows = run(
                cluster,
                faults=[f for f in wanted if f[0] in {**FAULTS, **more}],
                games=a.games,
                more=more,
                each=a.each,
            )
    finally:
        extras.close()
    load = os.getloadavg()
    print(f"{a.games} games played through one web node and one worker; load {load[0]:.2f}")
    if not extras.mail.mounted:
        print(f"mail disk full: left out, no tmpfs could be mounted ({extras.mail.why})")
    print(table(rows))
    bad = [r for r in rows if r.lost or r.doubled or r.server_errors or not r.verified]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
