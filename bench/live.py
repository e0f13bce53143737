"""Waiting clients against the server as docker-compose starts it (``make bench-live``).

    DATABASE_URL=postgres://... CELERY_BROKER_URL=redis://... python bench/live.py [--quick]
        [--steps 250,1000,2000,3500,5000] [--games 250] [--window 30]

The web service's command and environment are read from docker-compose.yml (gunicorn with
uvicorn workers, same worker count, pooled connections) and run here on PostgreSQL and
Redis (the broker URL, as compose does). Games are prepared through the services. Then the
number of waiting clients is stepped up: half follow a game's SSE stream, half long-poll
it (``wait=55``, re-polling after each answer; ``--poll-share`` changes the mix), spread
evenly over the games and their seats (each seat's token holds at most
``LIVE_MAX_STREAMS_PER_TOKEN`` waits). At each step,
once the new clients are admitted and the server has settled (five ``/healthz/`` in a row
within 3x the idle median, or 60 s), for ``--window`` seconds:

- ``/healthz/`` is timed every 50 ms by a probe in a process of its own (so the figure is the
  server's, not the lag of this process's loop of thousands of clients); the idle figure is
  taken the same way before any client, after a warm-up that loads every server worker;
- two moves a second are made through the API in games with waiters, each by the seat to
  act on its own connection (so, as from players' browsers and bots, moves reach every
  server worker, not one); each waiting client's
  delay from the move's commit (taken as the moment the mover gets its 201; an event that
  arrives before that counts 0) to the event's arrival is recorded (p50/p99), and also the
  delay from the move's request (which adds the move's own processing);
- a client is dropped if its stream ends or fails, or a long poll fails or is refused;
- the server's own CPU use (its processes' user+system time over the window, in cores)
  tells the server's cost apart from the machine's other load;
- this process's own loop lag (p99 of a 10 ms timer's lateness) is printed beside each step:
  the delivery delays are read in this loop, so a high lag there inflates them.

Prints the step table, the largest count held (healthz p99 <= 3x idle and < 250 ms,
move->event p99 <= 100 ms, none dropped) and the load average. File descriptors: this
process and the server need one per client; the soft limit is raised to the hard limit
(raise the hard one with ``ulimit -Hn`` / ``LimitNOFILE`` if it is below ~2x the clients).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import secrets
import shlex
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time so far of these processes (Linux /proc)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def server_pids(root: int) -> list[int]:
    """The gunicorn arbiter and its workers."""
    pids = [root]
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == root:
                pids.append(int(stat.parent.name))
        except (OSError, ValueError):
            continue
    return pids


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# --- the server, as docker-compose runs it -------------------------------------------------
def compose_web() -> tuple[list[str], dict[str, str]]:
    web = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["web"]
    command = web["command"]
    args = shlex.split(command) if isinstance(command, str) else [str(c) for c in command]
    env = {k: str(v) for k, v in web["environment"].items()}
    return args, env


def start_server(port: int, log: Path) -> tuple[subprocess.Popen[bytes], list[str], int]:
    args, env = compose_web()
    args = [a for a in args if not a.startswith("--bind")] + [f"--bind=127.0.0.1:{port}"]
    workers = next((int(a.split("=", 1)[1]) for a in args if a.startswith("--workers=")), 1)
    env.update(
        DATABASE_URL=os.environ["DATABASE_URL"],
        CELERY_BROKER_URL=os.environ["CELERY_BROKER_URL"],
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_SECURE_SSL_REDIRECT="false",  # plain HTTP on loopback (TLS is the proxy's)
    )
    for name, value in list(env.items()):  # compose's ${VAR:-default} and ${VAR:?required}
        found = re.fullmatch(r"\$\{\w+:([-?])(.*)\}", value)
        if found:
            env[name] = found.group(2) if found.group(1) == "-" else secrets.token_urlsafe(64)
    binary = Path(sys.executable).parent / args[0]
    proc = subprocess.Popen(
        [str(binary), *args[1:]],
        cwd=ROOT,
        env={**os.environ, **env},
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    return proc, args, workers


# --- the /healthz/ probe, in a process of its own --------------------------------------------
def probe_healthz(port: int, seconds: float, interval: float, reconnect: bool, out: Any) -> None:
    """Time ``GET /healthz/`` on one keep-alive connection (or a new one each time, which
    spreads the requests over the server's workers) every ``interval`` s for ``seconds``;
    send the list of latencies (seconds) down the pipe ``out``."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    times: list[float] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if reconnect:
            conn.close()
        started = time.monotonic()
        conn.request("GET", "/healthz/")
        response = conn.getresponse()
        response.read()
        assert response.status == 200, response.status
        times.append(time.monotonic() - started)
        time.sleep(interval)
    conn.close()
    out.send(times)


async def healthz_in_process(
    port: int, seconds: float, interval: float = 0.05, reconnect: bool = False
) -> list[float]:
    """Run ``probe_healthz`` in a fresh process and await its figures without blocking the loop."""
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    receiver, sender = context.Pipe(duplex=False)
    worker = context.Process(
        target=probe_healthz, args=(port, seconds, interval, reconnect, sender)
    )
    worker.start()
    times: list[float] = await asyncio.to_thread(receiver.recv)
    await asyncio.to_thread(worker.join)
    return times


class LoopLag:
    """How late a 10 ms timer fires in this loop: the bench's own share of a delivery delay."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self.task: asyncio.Task[None] | None = None

    async def _watch(self) -> None:
        while True:
            started = time.monotonic()
            await asyncio.sleep(0.01)
            self.lags.append(max(0.0, time.monotonic() - started - 0.01))

    def start(self) -> None:
        self.task = asyncio.create_task(self._watch())


# --- data ----------------------------------------------------------------------------------
@dataclass
class GameInfo:
    public_id: str
    tokens: list[str]  # per seat
    seq: int = 0
    to_act: int | None = None
    sent: dict[int, float] = field(default_factory=dict)  # seq -> when its move was sent
    answered: dict[int, float] = field(default_factory=dict)  # seq -> when the mover got 201
    early: list[float] = field(default_factory=list)  # pushes heard before the mover's answer


def prepare(games: int) -> list[GameInfo]:
    import django

    from bench.ladder import ensure_database

    ensure_database(os.environ["DATABASE_URL"])  # a fresh machine has none yet
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backalley_site.settings")
    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from django.contrib.auth import get_user_model

    from accounts.services import player_for_user
    from accounts.tokens import token_create
    from games.services import game_create

    run = f"{int(time.time()) % 100000}"
    user_model = get_user_model()
    out = []
    for g in range(games):
        players, tokens = [], []
        for s in range(4):
            user = user_model.objects.create_user(f"lb{run}_{g}_{s}", password=None)
            players.append(player_for_user(user))
            tokens.append(token_create(user=user, name="bench", scopes=["play"])[1])
        game = game_create(creator=players[0], seats=players, options={"rated": False})
        game.refresh_from_db()
        out.append(GameInfo(game.public_id, tokens, game.move_count, game.to_act))
    return out


# --- raw HTTP/1.1 clients --------------------------------------------------------------------
class Http:
    def __init__(self, port: int) -> None:
        self.port = port

    async def open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        return await asyncio.open_connection("127.0.0.1", self.port, limit=1 << 20)

    @staticmethod
    def request(method: str, path: str, token: str | None, body: bytes = b"", **hdrs: str) -> bytes:
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
        if token:
            lines.append(f"Authorization: Bearer {token}")
        if body:
            lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
        lines += [f"{k.replace('_', '-')}: {v}" for k, v in hdrs.items()]
        return ("\r\n".join(lines) + "\r\n\r\n").encode() + body

    @staticmethod
    async def head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
        raw = await reader.readuntil(b"\r\n\r\n")
        lines = raw.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {}
        for line in lines[1:]:
            if ":" in line:
                k, v = line.split(":", 1)
                headers[k.strip().lower()] = v.strip()
        return status, headers

    @staticmethod
    async def body(reader: asyncio.StreamReader, headers: dict[str, str]) -> bytes:
        if "content-length" in headers:
            return await reader.readexactly(int(headers["content-length"]))
        chunks: list[bytes] = []
        while True:  # chunked
            size = int((await reader.readline()).strip(), 16)
            if size == 0:
                await reader.readline()
                return b"".join(chunks)
            chunks.append(await reader.readexactly(size))
            await reader.readline()

    async def call(
        self, conn: Any, method: str, path: str, token: str | None, payload: Any = None
    ) -> tuple[int, Any]:
        reader, writer = conn
        body = json.dumps(payload).encode() if payload is not None else b""
        writer.write(self.request(method, path, token, body))
        await writer.drain()
        status, headers = await self.head(reader)
        data = await self.body(reader, headers)
        return status, (json.loads(data) if data else None)


@dataclass
class Stats:
    deliveries: list[float] = field(default_factory=list)  # after the mover's answer (commit)
    from_request: list[float] = field(default_factory=list)  # after the mover's request
    dropped: int = 0
    admitted: int = 0
    errors: list[str] = field(default_factory=list)

    def drop(self, why: str) -> None:
        self.dropped += 1
        if len(self.errors) < 5:
            self.errors.append(why)


class Bench:
    def __init__(self, port: int, games: list[GameInfo], poll_share: float = 0.5) -> None:
        self.poll_share = poll_share
        self.http = Http(port)
        self.games = games
        self.stats = Stats()
        self.clients: list[asyncio.Task[None]] = []
        self.stopping = False

    def _arrived(self, game: GameInfo, seq: int) -> None:
        now, sent = time.monotonic(), game.sent.get(seq)
        if sent is None:
            return
        self.stats.from_request.append(now - sent)
        answered = game.answered.get(seq)
        if answered is None:  # pushed before the mover even had its answer
            self.stats.deliveries.append(0.0)
            game.early.append(now)
        else:
            self.stats.deliveries.append(now - answered)

    async def sse_client(self, game: GameInfo, seat: int) -> None:
        path = f"/api/v1/games/{game.public_id}/events/stream/?since={game.seq}&timeout=3600"
        try:
            reader, writer = await self.http.open()
            writer.write(
                self.http.request("GET", path, game.tokens[seat], Accept="text/event-stream")
            )
            await writer.drain()
            status, headers = await self.http.head(reader)
            if status != 200:
                self.stats.drop(f"sse {status}: {await self.http.body(reader, headers)!r}")
                return
            self.stats.admitted += 1
            while True:
                line = await reader.readline()
                if not line:
                    if not self.stopping:
                        self.stats.drop("sse closed")
                    return
                if line.startswith(b"id: "):
                    self._arrived(game, int(line[4:]))
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if not self.stopping:
                self.stats.drop(f"sse {type(exc).__name__}: {exc}")

    async def poll_client(self, game: GameInfo, seat: int) -> None:
        since, first = game.seq, True
        try:
            conn = await self.http.open()
            while not self.stopping:
                path = f"/api/v1/games/{game.public_id}/events/?since={since}&wait=55"
                call = asyncio.ensure_future(self.http.call(conn, "GET", path, game.tokens[seat]))
                if first:  # parked (or answered) within a moment: counted as admitted
                    first = False
                    await asyncio.wait([call], timeout=1.0)
                    self.stats.admitted += 1
                status, body = await call
                if status != 200:
                    self.stats.drop(f"poll {status}: {body}")
                    return
                for ev in body["events"]:
                    if ev["seq"] > since:
                        self._arrived(game, ev["seq"])
                        since = ev["seq"]
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if not self.stopping:
                self.stats.drop(f"poll {type(exc).__name__}: {exc}")

    def add_clients(self, count: int) -> None:
        start = len(self.clients)
        for i in range(start, start + count):
            game = self.games[i % len(self.games)]
            seat = (i // len(self.games)) % 4
            # Long polls spread evenly among the streams (every other client at 0.5).
            polls = int((i + 1) * self.poll_share) > int(i * self.poll_share)
            client = self.poll_client if polls else self.sse_client
            self.clients.append(asyncio.create_task(client(game, seat)))

    async def healthz(self, conn: Any) -> float:
        started = time.monotonic()
        status, _ = await self.http.call(conn, "GET", "/healthz/", None)
        assert status == 200, status
        return time.monotonic() - started

    async def move(self, movers: dict[str, Any], game: GameInfo) -> None:
        """The seat to act asks for its legal actions and makes one, on its own connection
        (as a player's browser or bot does: moves come to every server worker)."""
        seat = game.to_act
        if seat is None:
            return
        token = game.tokens[seat]
        conn = movers.get(token)
        if conn is None:
            conn = movers[token] = await self.http.open()
        path = f"/api/v1/games/{game.public_id}/legal/?seat={seat}"
        try:
            status, legal = await self.http.call(conn, "GET", path, token)
        except (OSError, asyncio.IncompleteReadError):
            # A keep-alive connection closed while idle: a client opens another and asks
            # again (a GET may be repeated).
            conn[1].close()
            conn = movers[token] = await self.http.open()
            status, legal = await self.http.call(conn, "GET", path, token)
        if status != 200 or not legal["actions"]:
            return
        actions = legal["actions"]
        action = actions[1] if len(actions) > 1 and actions[0] == {"bid": "pass"} else actions[0]
        game.sent[game.seq + 1] = time.monotonic()
        status, body = await self.http.call(
            conn,
            "POST",
            f"/api/v1/games/{game.public_id}/moves/",
            token,
            {"action": action, "expected_seq": game.seq, "seat": seat},
        )
        if status == 201:
            game.answered[game.seq + 1] = time.monotonic()
            game.seq, game.to_act = body["seq"], body["to_act"]

    async def window(self, seconds: float, moves_per_s: float) -> tuple[list[float], int]:
        movers: dict[str, Any] = {}  # a keep-alive connection per moving seat
        end = time.monotonic() + seconds

        async def move_loop() -> int:
            made, rng = 0, random.Random(len(self.clients))
            while time.monotonic() < end:
                await self.move(movers, rng.choice(self.games))
                made += 1
                await asyncio.sleep(1 / moves_per_s)
            return made

        times, made = await asyncio.gather(healthz_in_process(self.http.port, seconds), move_loop())
        await asyncio.sleep(2.0)  # late deliveries
        for _, writer in movers.values():
            writer.close()
        return times, made


async def settle(bench: Bench, idle_p50: float, limit: float = 60.0) -> None:
    """Wait until the server has worked through the new clients' admission: five /healthz/
    in a row within 3x the idle median (or ``limit`` seconds)."""
    conn = await bench.http.open()
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        times = [await bench.healthz(conn) for _ in range(5)]
        if max(times) <= 3 * idle_p50 + 0.005:
            break
        await asyncio.sleep(0.5)
    conn[1].close()


async def run(
    args: argparse.Namespace, port: int, games: list[GameInfo], pids: list[int]
) -> list[dict[str, Any]]:
    bench = Bench(port, games, args.poll_share)
    await healthz_in_process(port, 3.0, interval=0.0, reconnect=True)  # warm every worker
    idle = await healthz_in_process(port, args.window)
    lag = LoopLag()
    lag.start()
    idle_p99 = pct(idle, 0.99)
    print(f"idle /healthz/: p50 {pct(idle, 0.5) * 1000:.1f} ms, p99 {idle_p99 * 1000:.1f} ms")
    rows = []
    for target in args.steps:
        ramp_started = time.monotonic()
        while len(bench.clients) < target:
            bench.add_clients(min(args.ramp // 10, target - len(bench.clients)))
            await asyncio.sleep(0.1)
        # admitted: streams answered 200, long polls answered once (they re-poll at once)
        deadline = time.monotonic() + 120
        while bench.stats.admitted + bench.stats.dropped < target and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        await settle(bench, pct(idle, 0.5))
        admit_s = time.monotonic() - ramp_started
        print(f"{target:>6} clients admitted; measuring for {args.window:.0f} s", flush=True)
        cpu_before, wall_before = cpu_seconds(pids), time.monotonic()
        bench.stats.deliveries.clear()
        bench.stats.from_request.clear()
        dropped_before = bench.stats.dropped
        lag.lags.clear()
        times, made = await bench.window(args.window, args.moves)
        server_cpu = (cpu_seconds(pids) - cpu_before) / (time.monotonic() - wall_before)
        d = bench.stats.deliveries
        row = {
            "clients": target,
            "admit_s": admit_s,
            "healthz_p50": pct(times, 0.5) * 1000,
            "healthz_p99": pct(times, 0.99) * 1000,
            "healthz_max": max(times, default=float("nan")) * 1000,
            "moves": made,
            "deliveries": len(d),
            "event_p50": pct(d, 0.5) * 1000,
            "event_p99": pct(d, 0.99) * 1000,
            "request_p50": pct(bench.stats.from_request, 0.5) * 1000,
            "request_p99": pct(bench.stats.from_request, 0.99) * 1000,
            "dropped": bench.stats.dropped,
            "dropped_in_step": bench.stats.dropped - dropped_before,
            "load": os.getloadavg()[0],
            "server_cpu": server_cpu,
            "loop_lag_p99": pct(lag.lags, 0.99) * 1000,
        }
        row["held"] = (
            row["healthz_p99"] <= 3 * idle_p99 * 1000
            and row["healthz_p99"] < 250
            and row["event_p99"] <= 100
            and row["dropped"] == 0
        )
        rows.append(row)
        print(
            f"{target:>6} clients  admitted in {admit_s:5.1f} s  healthz p50 "
            f"{row['healthz_p50']:6.1f} p99 {row['healthz_p99']:6.1f} max {row['healthz_max']:6.1f} ms  "
            f"move->event p50 "
            f"{row['event_p50']:6.1f} p99 {row['event_p99']:6.1f} ms (from the request p50 "
            f"{row['request_p50']:6.1f} p99 {row['request_p99']:6.1f}; {len(d)} deliveries of "
            f"{made} moves)  dropped {row['dropped']}  server CPU {server_cpu:.2f} cores  "
            f"bench loop lag p99 {row['loop_lag_p99']:.1f} ms  "
            f"load {row['load']:.1f}  "
            f"{'held' if row['held'] else 'NOT held'}",
            flush=True,
        )
        if bench.stats.errors:
            print("   first drops:", bench.stats.errors[:3])
    bench.stopping = True
    for task in bench.clients:
        task.cancel()
    await asyncio.gather(*bench.clients, return_exceptions=True)
    rows.append({"idle_p50": pct(idle, 0.5) * 1000, "idle_p99": idle_p99 * 1000})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="steps 50,200,500 over 40 games")
    parser.add_argument("--steps", default="250,1000,2000,3500,5000")
    parser.add_argument("--games", type=int, default=250)
    parser.add_argument(
        "--window", type=float, default=30.0, help="seconds measured per step (600 probes)"
    )
    parser.add_argument("--moves", type=float, default=2.0, help="moves per second")
    parser.add_argument("--ramp", type=int, default=300, help="new clients per second")
    parser.add_argument(
        "--poll-share",
        type=float,
        default=0.5,
        help="the share of clients that long-poll (the rest follow the stream)",
    )
    args = parser.parse_args()
    if args.quick:
        args.steps, args.games, args.window = "50,200,500", 40, 8.0
    args.steps = [int(s) for s in str(args.steps).split(",")]
    for name in ("DATABASE_URL", "CELERY_BROKER_URL"):
        if not os.environ.get(name, "").startswith(("postgres", "redis")):
            sys.exit(f"set {name} (PostgreSQL and Redis, as docker-compose runs the service)")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # inherited by the server
    if hard < 2 * max(args.steps) + 200:
        print(f"warning: the file limit ({hard}) is low for {max(args.steps)} clients")
    load_start = os.getloadavg()
    print(f"preparing {args.games} games ...", flush=True)
    games = prepare(args.games)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    log = ROOT / "var" / "bench-live-server.log"
    log.parent.mkdir(exist_ok=True)
    proc, server_args, workers = start_server(port, log)
    print("server:", " ".join(server_args[:2]), f"({workers} workers), log in {log}")
    try:
        import httpx

        for _ in range(300):
            if proc.poll() is not None:
                sys.exit(f"the server exited; see {log}")
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz/", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        try:
            import uvloop

            uvloop.install()
        except ImportError:
            pass
        rows = asyncio.run(run(args, port, games, server_pids(proc.pid)))
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(30)
    table = [r for r in rows if "clients" in r]
    held = [r["clients"] for r in table if r["held"]]
    print(f"largest count held: {max(held) if held else 0} waiting clients")
    print(
        "load average: at the start "
        + " ".join(f"{x:.1f}" for x in load_start)
        + "; at the end "
        + " ".join(f"{x:.1f}" for x in os.getloadavg())
        + f" ({os.cpu_count()} cores)"
    )


if __name__ == "__main__":
    main()
