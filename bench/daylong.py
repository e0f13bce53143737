"""Daylongs benchmark (``make bench-daylong``; figures for docs/daylong.md).

1. ``scoring``: an event of ``--entrants`` (1,000) entrants and K = ``--pool`` (4) versions
   of each stage, every table played to its end through the services: each entrant is a
   hosted bot of a house strategy (half ``heuristic``, half ``random``) at a table of house
   bots, every move a real move of the log (its commit, its outbox event), the bots' turns
   and the scoring of each finished table run in this process (Celery eager: the very
   tasks a worker runs, without a broker). Then:

   - the scoring of the last table to finish (its version rescored under its lock: what
     moves the live standings), and the window's end (``daylong.tasks.close_event``: the
     final standings written): the time from the last stage's finish to final standings;
   - the event page (it holds the standings) and ``/api/v1/daylong/<id>/standings/``, p50
     over repeated requests (target p50 <= 50 ms), live (a reader who has ended every
     stage) and final, and their number of queries against a 10-entrant event (constant).

2. ``worker``: ``--bots`` (20) entrants played end to end through one real Celery worker
   (prefork, one process): the bench presses Play for each entrant's next stage as the
   previous one is scored; wall time, and the worker's CPU per stage played.

Both use their own PostgreSQL database (``BENCH_DATABASE_URL``, default
``.../ba_bench_daylong``), migrated here; ``worker`` needs Redis (``CELERY_BROKER_URL``).
The load average is printed with every figure: the machine may be shared.

    python bench/daylong.py [scoring worker] [--entrants 1000 --pool 4 --bots 20]
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import subprocess
import sys
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BENCH_DB = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/ba_bench_daylong"
)
# Short stages, so that 1,000 entrants' tables are written in minutes on a small machine:
# a 1-card deal, then the 2-1-2 cards run (docs/daylong.md, Stages).
BOARDS = ((13, 13), (12, 14))


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f}"


def _bench_module(name: str) -> Any:
    """A sibling bench script as a module."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        f"bench_{name}", Path(__file__).with_name(f"{name}.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def setup_django() -> None:
    _bench_module("ladder").ensure_database(BENCH_DB)
    os.environ["DATABASE_URL"] = BENCH_DB
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backalley_site.settings")
    os.environ["DJANGO_DEBUG"] = "false"
    os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver,localhost")
    # A table's bots play it to its end in one run (bots/runs.py), as a worker would.
    os.environ.setdefault("BOTS_RUN_SLICE_S", "60")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from bots.house import house_bots_ensure

    house_bots_ensure()


def _entrants(n: int, tag: str) -> list[Any]:
    """``n`` hosted bots of the house strategies, one owner each (a person's one account)."""
    from django.contrib.auth import get_user_model

    from accounts.models import Player
    from bots.models import Bot, BotKind

    User = get_user_model()
    owners = User.objects.bulk_create(User(username=f"bdl-{tag}-{k}") for k in range(n))
    players = Player.objects.bulk_create(
        Player(name=f"bdl{tag}-{k}", is_bot=True, owner=owners[k]) for k in range(n)
    )
    Bot.objects.bulk_create(
        Bot(
            player=p,
            kind=BotKind.HOSTED,
            strategy="heuristic" if k % 2 == 0 else "random",
            params={},
        )
        for k, p in enumerate(players)
    )
    return players


def _event(title: str, pool: int) -> Any:
    from daylong import services

    return services.event_create(
        title=title,
        boards=BOARDS,
        pool_size=pool,
        partner_strength="medium",
        opponent_strength="medium",
    )


def _eager() -> None:
    from backalley_site.celery import app

    app.conf.task_always_eager = True


def _play_all(event: Any, players: list[Any], *, report_every: int = 100) -> None:
    """Every entrant's every stage played to its end, in this process."""
    from daylong import services
    from daylong.models import Table, TableStatus

    began = time.monotonic()
    boards = len(BOARDS)
    for k, p in enumerate(players, start=1):
        services.entry_create(event_id=event.pk, player=p)
        for _ in range(boards):
            table = services.board_play_next(event_id=event.pk, player=p)
            status = Table.objects.filter(pk=table.pk).values_list("status", flat=True)[0]
            if status != TableStatus.FINISHED:
                raise RuntimeError(f"table {table.pk} was not played to its end: {status}")
        if k % report_every == 0:
            rate = k / (time.monotonic() - began)
            print(f"  scoring: {k} entrants played ({rate:.1f} entrants/s); {load()}", flush=True)


def _timed(client: Any, path: str, runs: int) -> tuple[float, float, float]:
    times, cpu = [], []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        response = client.get(path)
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        assert response.status_code == 200, (path, response.status_code)
    times.sort()
    return statistics.median(times), times[int(0.9 * len(times))], statistics.median(cpu)


def _queries(client: Any, path: str) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        assert client.get(path).status_code == 200
    return len(ctx.captured_queries)


def _pages(label: str, big: Any, small: Any, reader: Any, small_reader: Any, runs: int) -> None:
    from django.test import Client

    n = big.entries.count()
    for page in ("/daylong/{}/", "/api/v1/daylong/{}/standings/"):
        client, small_client = Client(), Client()
        client.force_login(reader.owner)
        small_client.force_login(small_reader.owner)
        path = page.format(big.pk)
        p50, p90, cpu = _timed(client, path, runs)
        verdict = "ok" if p50 <= 50 else "OVER"
        small_client.get(page.format(small.pk))  # its session read, as the big one's was
        q_big, q_small = _queries(client, path), _queries(small_client, page.format(small.pk))
        print(
            f"standings ({label}): {path} ({n:,} entrants, K = {big.pool_size}): wall p50 "
            f"{p50:.1f} ms, p90 {p90:.1f} ms, this process's CPU p50 {cpu:.1f} ms over {runs} "
            f"(target p50 <= 50 ms: {verdict}); queries {q_big} at {n:,} entrants, {q_small} "
            f"at {small.entries.count()} ({'constant' if q_big == q_small else 'NOT constant'})"
            f"; {load()}",
            flush=True,
        )


def bench_scoring(entrants: int, pool: int, runs: int) -> None:
    from django.db import transaction
    from django.db.models import Count
    from django.utils import timezone

    from daylong import services, tasks
    from daylong.models import BoardInstance, Entry, Event, Table
    from games.models import Move

    _eager()
    tag = secrets.token_hex(3)
    big, small = _event(f"Bench {entrants} {tag}", pool), _event(f"Bench 10 {tag}", pool)
    players = _entrants(entrants + 10, tag)
    moves0 = Move.objects.count()
    began, load0 = time.monotonic(), os.getloadavg()
    _play_all(small, players[entrants:])
    _play_all(big, players[:entrants])
    wrote = time.monotonic() - began
    tables = Table.objects.filter(entry__event=big).count()
    moves = Move.objects.count() - moves0
    print(
        f"scoring: {entrants:,} entrants (+10 in a small event), K = {pool}, "
        f"{len(BOARDS)} stages ({', '.join(f'deals {a}-{b}' for a, b in BOARDS)}): "
        f"{tables:,} tables, {moves:,} moves written in {wrote:.0f} s "
        f"({moves / wrote:.0f} moves/s, every move through the services); load at start "
        f"{load0[0]:.2f}, {load()}",
        flush=True,
    )
    # What a finish costs the live standings: its version rescored under its lock (the
    # largest version, as the last table to finish there found it).
    widest = (
        Table.objects.filter(entry__event=big)
        .values("instance_id")
        .annotate(n=Count("pk"))
        .order_by("-n")
        .first()
    )
    assert widest is not None
    rescores = []
    for _ in range(5):
        t0 = time.perf_counter()
        with transaction.atomic():
            BoardInstance.objects.select_for_update().get(pk=widest["instance_id"])
            services.instance_rescore(instance_id=widest["instance_id"])
        rescores.append(time.perf_counter() - t0)
    t_scored = statistics.median(rescores)
    print(
        f"scoring: a finished table scored (its version of {widest['n']} tables rescored "
        f"under its lock: the live standings move) in {1000 * t_scored:.1f} ms, median of 5; "
        f"{load()}",
        flush=True,
    )
    reader, small_reader = players[0], players[entrants]
    _pages("live", big, small, reader, small_reader, runs)

    # The window's end: the final standings, through the task the beat enqueues.
    for e in (big, small):
        Event.objects.filter(pk=e.pk).update(
            starts_at=timezone.now() - timedelta(days=1), ends_at=timezone.now()
        )
    t0 = time.perf_counter()
    assert tasks.close_event.apply(args=[big.pk]).get() == "closed"
    t_close = time.perf_counter() - t0
    services.event_close(event_id=small.pk)
    top = Entry.objects.filter(event=big).order_by("rank").select_related("player").first()
    assert top is not None
    print(
        f"scoring: the window's end (close_event: {len(BOARDS) * pool} deal sets closed, the "
        f"final standings of {entrants:,} written) in {1000 * t_close:.0f} ms; so from the "
        f"last stage's finish to final standings {1000 * (t_scored + t_close):.0f} ms of work "
        f"(its scoring, then the close; the wait for the window's end aside); first "
        f"{top.player.name} {top.percent}%; {load()}",
        flush=True,
    )
    big.refresh_from_db()
    small.refresh_from_db()
    _pages("final", big, small, reader, small_reader, runs)


def _cpu_s(main_pid: int) -> float:
    pipeline = _bench_module("bots_pipeline")
    return float(pipeline._cpu_s(pipeline._worker_pids(main_pid)))


def bench_worker(bots: int, pool: int, timeout: float) -> None:
    from django.conf import settings

    if not settings.CELERY_BROKER_URL.startswith("redis"):
        print("worker: needs CELERY_BROKER_URL=redis://...; skipped")
        return
    from backalley_site.celery import app
    from daylong import services
    from daylong.models import Table, TableStatus
    from games.models import Move

    app.conf.task_always_eager = False
    tag = secrets.token_hex(3)
    event = _event(f"Bench worker {tag}", pool)
    players = _entrants(bots, tag)
    for p in players:
        services.entry_create(event_id=event.pk, player=p)
    log = Path(os.environ.get("TMPDIR", "/tmp")) / f"bench-daylong-worker-{tag}.log"
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "backalley_site",
            "worker",
            "-Q",
            "bots,celery,ratings,clock,events,notify",
            "-c",
            "1",
            "--pool=prefork",
            "-n",
            f"bench-daylong-{os.getpid()}@%h",
            "--without-gossip",
            "--without-mingle",
            "-l",
            "WARNING",
        ],
        cwd=ROOT,
        env={
            **os.environ,
            "DATABASE_URL": BENCH_DB + "?conn_max_age=600",
            "BOTS_RUN_SLICE_S": "2",  # the site's default
        },
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        time.sleep(5)  # the worker's start-up, not counted
        cpu0, load0 = _cpu_s(worker.pid), os.getloadavg()
        moves0 = Move.objects.count()
        began = time.monotonic()
        stages = len(BOARDS)
        # Play for each entrant (the first stage); then, as each table is scored, the next.
        for p in players:
            services.board_play_next(event_id=event.pk, player=p)
        while True:
            rows = Table.objects.filter(entry__event=event).values_list(
                "entry__player_id", "status"
            )
            started: Counter[int] = Counter(pid for pid, _ in rows)
            playing = {pid for pid, status in rows if status == TableStatus.PLAYING}
            n_done = sum(started.values()) - len(playing)
            if n_done == bots * stages:
                break
            if time.monotonic() - began > timeout:
                print(f"worker: NOT finished after {timeout:.0f} s ({n_done} stages); {load()}")
                return
            for p in players:  # Play, for each entrant whose stage was scored
                if p.pk not in playing and started[p.pk] < stages:
                    services.board_play_next(event_id=event.pk, player=p)
            time.sleep(0.2)
        wall = time.monotonic() - began
        cpu = _cpu_s(worker.pid) - cpu0
        moves = Move.objects.count() - moves0
        n = bots * stages
        print(
            f"worker: {bots} bot entrants x {stages} stages = {n} tables, {moves:,} moves, "
            f"through one worker (prefork, 1 process): wall {wall:.1f} s, worker CPU "
            f"{cpu:.1f} s ({1000 * cpu / n:.0f} ms per stage, {1000 * cpu / max(moves, 1):.1f} "
            f"ms per move); load at start {load0[0]:.2f}, {load()}",
            flush=True,
        )
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, 9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sections", nargs="*", default=["scoring", "worker"])
    parser.add_argument("--entrants", type=int, default=1000)
    parser.add_argument("--pool", type=int, default=4)
    parser.add_argument("--bots", type=int, default=20)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--timeout", type=float, default=900)
    args = parser.parse_args()
    setup_django()
    if "scoring" in args.sections:
        bench_scoring(args.entrants, args.pool, args.runs)
    if "worker" in args.sections:
        bench_worker(args.bots, args.pool, args.timeout)


if __name__ == "__main__":
    main()
