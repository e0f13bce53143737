"""Waiting clients held over two web nodes behind HAProxy (``make bench-live-nodes``).

    python bench/live_nodes.py [--steps 2000,5000,10000] [--games 400] [--broadcast 1000]
        [--window 20] [--balancers 2]

On a cluster of its own (``bench/nodes.py``: its own PostgreSQL and Redis, two uvicorn web
nodes on 127.0.0.2 and 127.0.0.3, one worker with the beat, ``--balancers`` HAProxy
processes sharing one port), the clients of ``bench/live.py`` connect through the balancer,
which spreads them over both nodes:

1. **spread**: the count of waiting clients stepped up over ``--games`` games (half follow
   the SSE stream, half long-poll; each seat's token within ``LIVE_MAX_STREAMS_PER_TOKEN``);
2. **broadcast**: those clients gone, ``--broadcast`` spectators of one game (each spectator
   token holds five).

In each window, ``/healthz/`` is timed through the balancer every 50 ms by a process of its
own, two moves a second are made through the balancer (in the broadcast, all in the one
game), and every waiting client's delay from the move's answer to its event is recorded.
A step is held when healthz p99 <= 3x the idle p99, move -> event p99 <= 100 ms and no
client was dropped. The servers' CPU (both nodes and the balancers, in cores) and the load
average are printed with each step.

Open files: HAProxy needs two descriptors per connection and refuses to start when its
``maxconn`` cannot be given them; its ``maxconn`` is derived from the open-files hard limit
(``bench.nodes.balancer_maxconn``). This process raises its soft limit to the hard one; it
cannot raise the hard one without CAP_SYS_RESOURCE, so more clients than one HAProxy
process can hold are spread over several (``--balancers``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: the repository on the path, as `bench.x`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.live import Bench, GameInfo, LoopLag, cpu_seconds, healthz_in_process, pct
from bench.nodes import ROOT, Cluster, balancer_maxconn

WEB = ("127.0.0.2", "127.0.0.3")
WATCHERS_PER_TOKEN = 5


def _prepare_here(games: int, watchers: int) -> None:
    """In the cluster's environment: the games (as bench/live.py makes them) and spectators
    with read tokens; printed as JSON lines."""
    from bench import live

    for g in live.prepare(games):
        print(json.dumps({"id": g.public_id, "tokens": g.tokens, "seq": g.seq, "to_act": g.to_act}))
    from django.contrib.auth import get_user_model

    from accounts.services import player_for_user
    from accounts.tokens import token_create

    run = f"{int(time.time()) % 100000}"
    tokens = []
    for i in range(watchers):
        user = get_user_model().objects.create_user(f"lw{run}_{i}", password=None)
        player_for_user(user)
        tokens.append(token_create(user=user, name="watch", scopes=["read"])[1])
    print(json.dumps({"watchers": tokens}))


def prepare(cluster: Cluster, games: int, watchers: int) -> tuple[list[GameInfo], list[str]]:
    made = subprocess.run(
        [sys.executable, "-m", "bench.live_nodes", "--prepare", str(games), str(watchers)],
        cwd=ROOT,
        env=cluster.env(),
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    if made.returncode != 0:
        raise RuntimeError(f"preparing failed:\n{made.stderr[-3000:]}")
    rows = [json.loads(line) for line in made.stdout.splitlines() if line.startswith("{")]
    infos = [GameInfo(r["id"], r["tokens"], r["seq"], r["to_act"]) for r in rows if "id" in r]
    (spectators,) = [r["watchers"] for r in rows if "watchers" in r]
    return infos, spectators


def server_pids(cluster: Cluster) -> list[int]:
    return [n.proc.pid for n in [*cluster.webs, *cluster.balancers] if n.proc is not None]


async def settle(bench: Bench, idle_p50: float, limit: float = 60.0) -> None:
    """Wait until the nodes have worked through the new clients' admission: five /healthz/
    in a row within 3x the idle median (or ``limit`` seconds); a failed one is waited out."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        conn = await bench.http.open()
        try:
            times = [await bench.healthz(conn) for _ in range(5)]
            if max(times) <= 3 * idle_p50 + 0.005:
                return
        except (AssertionError, ValueError, OSError, asyncio.IncompleteReadError) as exc:
            print(f"   /healthz/ through the balancer failed while settling: {exc!r}", flush=True)
        finally:
            conn[1].close()
        await asyncio.sleep(0.5)


async def measure(
    bench: Bench, cluster: Cluster, label: str, clients: int, idle: list[float], a: Any
) -> dict[str, Any]:
    await settle(bench, pct(idle, 0.5))
    pids = server_pids(cluster)
    cpu_before, wall_before = cpu_seconds(pids), time.monotonic()
    bench.stats.deliveries.clear()
    bench.stats.from_request.clear()
    lag = LoopLag()
    lag.start()
    times, made = await bench.window(a.window, a.moves)
    assert lag.task is not None
    lag.task.cancel()
    cpu = (cpu_seconds(pids) - cpu_before) / (time.monotonic() - wall_before)
    d = bench.stats.deliveries
    row = {
        "label": label,
        "clients": clients,
        "admitted": bench.stats.admitted,
        "healthz_p50": pct(times, 0.5) * 1000,
        "healthz_p99": pct(times, 0.99) * 1000,
        "moves": made,
        "deliveries": len(d),
        "event_p50": pct(d, 0.5) * 1000,
        "event_p99": pct(d, 0.99) * 1000,
        "dropped": bench.stats.dropped,
        "server_cpu": cpu,
        "loop_lag_p99": pct(lag.lags, 0.99) * 1000,
        "load": os.getloadavg()[0],
    }
    idle_p99 = pct(idle, 0.99) * 1000
    row["held"] = (
        pct(times, 0.99) * 1000 <= 3 * idle_p99
        and pct(d, 0.99) * 1000 <= 100
        and bench.stats.dropped == 0
    )
    print(
        f"{label:<10} {clients:>6} clients ({row['admitted']} admitted)  healthz p50"
        f" {row['healthz_p50']:6.1f} p99 {row['healthz_p99']:6.1f} ms (3x idle"
        f" {3 * idle_p99:.1f})  move->event p50 {row['event_p50']:6.1f} p99"
        f" {row['event_p99']:6.1f} ms ({len(d)} deliveries of {made} moves)  dropped"
        f" {row['dropped']}  servers' CPU {cpu:.2f} cores  bench loop lag p99"
        f" {row['loop_lag_p99']:.1f} ms  load {row['load']:.1f}"
        f"  {'held' if row['held'] else 'NOT held'}",
        flush=True,
    )
    if bench.stats.errors:
        print("   first drops:", bench.stats.errors[:3], flush=True)
    return row


async def admit(bench: Bench, target: int, ramp: int) -> None:
    while len(bench.clients) < target:
        bench.add_clients(min(ramp // 10, target - len(bench.clients)))
        await asyncio.sleep(0.1)
    deadline = time.monotonic() + 180
    while bench.stats.admitted + bench.stats.dropped < target and time.monotonic() < deadline:
        await asyncio.sleep(0.2)


async def stop(bench: Bench) -> None:
    bench.stopping = True
    for task in bench.clients:
        task.cancel()
    await asyncio.gather(*bench.clients, return_exceptions=True)


async def run(
    cluster: Cluster, games: list[GameInfo], spectators: list[str], a: Any
) -> list[dict[str, Any]]:
    port = cluster.balancer_port
    await healthz_in_process(port, 3.0, interval=0.0, reconnect=True)  # warm both nodes
    idle = await healthz_in_process(port, a.window)
    print(
        f"idle /healthz/ through the balancer: p50 {pct(idle, 0.5) * 1000:.1f} ms,"
        f" p99 {pct(idle, 0.99) * 1000:.1f} ms; load {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    rows = []
    spread = Bench(port, games, a.poll_share)
    for target in a.steps:
        await admit(spread, target, a.ramp)
        rows.append(await measure(spread, cluster, "spread", target, idle, a))
    await stop(spread)
    if a.broadcast:
        await asyncio.sleep(3)
        game = games[0]
        watched = GameInfo(game.public_id, [*game.tokens, *spectators], game.seq, game.to_act)
        games[0] = watched
        one = Bench(port, [watched], a.poll_share)

        def add_watchers(count: int) -> None:
            start = len(one.clients)
            for i in range(start, start + count):
                polls = int((i + 1) * a.poll_share) > int(i * a.poll_share)
                client = one.poll_client if polls else one.sse_client
                one.clients.append(asyncio.create_task(client(watched, 4 + i % len(spectators))))

        one.add_clients = add_watchers  # type: ignore[method-assign]
        await admit(one, a.broadcast, a.ramp)
        rows.append(await measure(one, cluster, "broadcast", a.broadcast, idle, a))
        await stop(one)
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", default="2000,5000,10000")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--broadcast", type=int, default=1000, help="spectators of one game")
    ap.add_argument("--window", type=float, default=20.0, help="seconds measured per step")
    ap.add_argument("--moves", type=float, default=2.0, help="moves per second")
    ap.add_argument("--ramp", type=int, default=300, help="new clients per second")
    ap.add_argument("--poll-share", type=float, default=0.5)
    ap.add_argument("--balancers", type=int, default=2, help="HAProxy processes (one port)")
    ap.add_argument("--prepare", nargs=2, type=int, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.prepare:
        _prepare_here(*a.prepare)
        return 0
    a.steps = [int(s) for s in str(a.steps).split(",")]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # inherited by every node
    most = max([*a.steps, a.broadcast])
    print(
        f"open files: soft {soft} raised to the hard limit {hard}; HAProxy maxconn"
        f" {balancer_maxconn()} per process, {a.balancers} processes"
        f" ({a.balancers * balancer_maxconn()} in all) for {most} clients",
        flush=True,
    )
    if most + 200 > hard:
        print(f"warning: this process needs a descriptor per client: {most} near {hard}")
    load_start = os.getloadavg()
    env = {"LIVE_MAX_STREAMS_PER_TOKEN": "8"}
    with Cluster(web=WEB, workers=1, balancer=True, balancers=a.balancers, env=env) as cluster:
        print(f"preparing {a.games} games ...", flush=True)
        watchers = -(-a.broadcast // WATCHERS_PER_TOKEN)
        games, spectators = prepare(cluster, a.games, watchers)
        try:
            import uvloop

            uvloop.install()
        except ImportError:
            pass
        rows = asyncio.run(run(cluster, games, spectators, a))
    held = [r["clients"] for r in rows if r["label"] == "spread" and r["held"]]
    print(f"largest count held over {a.games} games: {max(held) if held else 0} waiting clients")
    print(
        "load average: at the start "
        + " ".join(f"{x:.1f}" for x in load_start)
        + "; at the end "
        + " ".join(f"{x:.1f}" for x in os.getloadavg())
        + f" ({os.cpu_count()} cores)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
