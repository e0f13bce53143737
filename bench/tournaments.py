"""Tournaments benchmark (figures for docs/tournaments.md).

1. ``pairing``: one Swiss round of 1,000 partnerships after 5 rounds of random results
   (pure Python and networkx; target <= 2 s).
2. ``standings``: the standings page of a 1,000-entrant event (5 rounds played), p50 over
   repeated requests through Django's test client, and its number of queries compared
   with a 10-entrant event (target p50 <= 50 ms, the same number of queries).
3. ``duplicate``: a 16-bot-partnership, 4-round duplicate event from the start to the
   final standings, played and paired by a real Celery worker: wall time and the worker's
   CPU (needs Redis: ``CELERY_BROKER_URL=redis://...``).

Sections 2 and 3 use their own PostgreSQL database (``BENCH_DATABASE_URL``, default
``.../ba_bench_tournaments``), migrated here. The load average is printed with every
figure: the machine may be shared.

    python bench/tournaments.py [pairing standings duplicate] [--partnerships 16 --rounds 4]
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BENCH_DB = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/ba_bench_tournaments"
)


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f}"


# --- 1. pairing ------------------------------------------------------------------------


def simulate(n: int, rounds: int, seed: int = 1):  # type: ignore[no-untyped-def]
    """Histories of ``n`` partnerships after ``rounds`` Swiss rounds of random results."""
    from tournaments.pairing import History, swiss_pairs

    rng = random.Random(seed)
    score: Counter[int] = Counter()
    opp: dict[int, Counter[int]] = {i: Counter() for i in range(n)}
    sides = {i: [0, 0] for i in range(n)}
    byes: Counter[int] = Counter()

    def ranked() -> list[History]:
        order = sorted(range(n), key=lambda i: (-score[i], i))
        return [
            History(i, score[i], sides[i][0], sides[i][1], byes[i], dict(opp[i])) for i in order
        ]

    plan = []
    for r in range(1, rounds + 1):
        rnd = swiss_pairs(ranked(), round_number=r)
        plan.append(rnd)
        for b in rnd.byes:
            byes[b] += 1
            score[b] += 2
        for t in rnd.tables:
            a, b = t.seats[0], t.seats[1]
            opp[a][b] += 1
            opp[b][a] += 1
            sides[a][0] += 1
            sides[b][1] += 1
            x = rng.choice([0, 1, 2])
            score[a] += x
            score[b] += 2 - x
    return ranked, plan


def bench_pairing(n: int = 1000) -> None:
    from tournaments.pairing import swiss_pairs

    ranked, _ = simulate(n, 5)
    field = ranked()
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        rnd = swiss_pairs(field, round_number=6)
        times.append(time.perf_counter() - t0)
    rematches = sum(
        1
        for t in rnd.tables
        if t.seats[1] in dict(next(h.opponents for h in field if h.id == t.seats[0]))
    )
    verdict = "ok" if min(times) <= 2 else "OVER"
    print(
        f"pairing: Swiss round 6 of {n} partnerships: best {min(times):.2f} s, "
        f"median {statistics.median(times):.2f} s of 3 (target <= 2 s: {verdict}); "
        f"{len(rnd.tables)} tables, {rematches} rematches; {load()}"
    )


# --- database set-up ---------------------------------------------------------------------


def _bench_module(name: str):  # type: ignore[no-untyped-def]
    """A sibling bench script as a module (``bench/ladder.py`` would shadow the app)."""
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
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def build_event(n: int, rounds: int = 5) -> int:
    """A finished pairs Swiss of ``n`` entrants over ``rounds`` rounds, written in bulk
    (the games are result rows only: the page reads results, never the moves)."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from accounts.models import Player
    from backalley_engine import shuffle
    from games.models import Game, GameStatus
    from tournaments.models import Entrant, Result, Round, RoundStatus, Status, Table, Tournament

    tag = secrets.token_hex(3)
    owner = get_user_model().objects.create(username=f"bench-t-{tag}")
    players = Player.objects.bulk_create(
        Player(name=f"bt{tag}-{i}", is_bot=True, owner=owner) for i in range(2 * n)
    )
    t = Tournament.objects.create(
        name=f"Bench {n}",
        organiser=players[0],
        rounds=rounds,
        status=Status.FINISHED,
        current_round=rounds,
        started_at=timezone.now(),
        finished_at=timezone.now(),
    )
    entrants = Entrant.objects.bulk_create(
        Entrant(tournament=t, player_a=players[2 * i], player_b=players[2 * i + 1])
        for i in range(n)
    )
    _, plan = simulate(n, rounds, seed=n)
    seed = "0" * 64
    commitment = shuffle.commitment(seed)
    rng = random.Random(n)
    for number, rnd in enumerate(plan, start=1):
        r = Round.objects.create(tournament=t, number=number, status=RoundStatus.FINISHED)
        totals = [(rng.randint(-50, 200), rng.randint(-50, 200)) for _ in rnd.tables]
        games = Game.objects.bulk_create(
            Game(
                status=GameStatus.FINISHED,
                seed=seed,
                commitment=commitment,
                first_dealer=0,
                total_0=a,
                total_1=b,
                winner=None if a == b else (0 if a > b else 1),
            )
            for a, b in totals
        )
        tables = Table.objects.bulk_create(
            Table(round=r, number=k, game=g, scored_at=timezone.now())
            for k, g in enumerate(games, start=1)
        )
        rows = []
        for tb, plan_table, (a, b) in zip(tables, rnd.tables, totals, strict=True):
            ns, ew = plan_table.seats[0], plan_table.seats[1]
            win = 1 if a == b else (2 if a > b else 0)
            for seat, (entrant, half_points, mine, theirs) in enumerate(
                ((ns, win, a, b), (ew, 2 - win, b, a))
            ):
                rows.append(
                    Result(
                        round=r,
                        entrant=entrants[entrant],
                        table=tb,
                        seat=seat,
                        scored=True,
                        half_points=half_points,
                        total=mine,
                        against=theirs,
                    )
                )
        rows += [
            Result(round=r, entrant=entrants[e], bye=True, scored=True, half_points=2)
            for e in rnd.byes
        ]
        Result.objects.bulk_create(rows)
    return t.pk


def bench_standings(runs: int = 40) -> None:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    big, small = build_event(1000), build_event(10)
    client = Client()

    def queries(pk: int) -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(f"/tournaments/{pk}/standings/").status_code == 200
        return len(ctx.captured_queries)

    q_big, q_small = queries(big), queries(small)
    for path in (f"/tournaments/{big}/standings/", f"/api/v1/tournaments/{big}/standings/"):
        times, cpu = [], []
        for _ in range(runs):
            t0, c0 = time.perf_counter(), time.process_time()
            response = client.get(path)
            times.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.process_time() - c0) * 1000)
            assert response.status_code == 200
        times.sort()
        p50, p90 = statistics.median(times), times[int(0.9 * len(times))]
        verdict = "ok" if p50 <= 50 else "OVER"
        # On a shared machine the wall time waits for the CPU; this process's own CPU time
        # per request (the database's is not counted) shows what the page itself costs.
        print(
            f"standings: {path} (1,000 entrants, 5 rounds): wall p50 {p50:.1f} ms, "
            f"p90 {p90:.1f} ms, this process's CPU p50 {statistics.median(cpu):.1f} ms "
            f"over {runs} (target p50 <= 50 ms: {verdict}); {load()}"
        )
    print(
        f"standings: queries per page: {q_big} at 1,000 entrants, {q_small} at 10 "
        f"({'constant' if q_big == q_small else 'NOT constant'})"
    )


# --- 3. a duplicate event through the worker ---------------------------------------------


def _cpu_s(main_pid: int) -> float:
    """User + system CPU of the worker's main process and its pool children."""
    pipeline = _bench_module("bots_pipeline")
    return float(pipeline._cpu_s(pipeline._worker_pids(main_pid)))


def bench_duplicate(partnerships: int, rounds: int, timeout: float) -> None:
    from django.conf import settings

    if not settings.CELERY_BROKER_URL.startswith("redis"):
        print("duplicate: needs CELERY_BROKER_URL=redis://...; skipped")
        return
    from django.contrib.auth import get_user_model

    from accounts.models import Player
    from bots.models import Bot
    from games.models import Game
    from tournaments import selectors, services
    from tournaments.models import Status, Tournament

    User = get_user_model()
    tag = secrets.token_hex(3)
    organiser = Player.objects.create(
        name=f"bo-{tag}", user=User.objects.create(username=f"bo-{tag}")
    )
    t = services.tournament_create(
        organiser=organiser,
        name=f"Bench duplicate {tag}",
        scoring="duplicate",
        rounds=rounds,
        bots_allowed=True,
    )
    for k in range(partnerships):
        owner = User.objects.create(username=f"bd-{tag}-{k}")
        pair = []
        for side in "ab":
            p = Player.objects.create(name=f"bd{tag}-{k}{side}", is_bot=True, owner=owner)
            Bot.objects.create(player=p, kind="hosted", strategy="random", params={})
            pair.append(p)
        services.entrant_register(tournament_id=t.pk, player=pair[0], partner=pair[1], by=owner)
    log = Path(os.environ.get("TMPDIR", "/tmp")) / f"bench-tournaments-worker-{tag}.log"
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
            f"bench-tournaments-{os.getpid()}@%h",
            "--without-gossip",
            "--without-mingle",
            "-l",
            "WARNING",
        ],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": BENCH_DB + "?conn_max_age=600"},
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        time.sleep(5)  # the worker's start-up, not counted
        cpu0, load0 = _cpu_s(worker.pid), os.getloadavg()
        began = time.monotonic()
        services.tournament_start(tournament_id=t.pk, by=organiser)
        while Tournament.objects.get(pk=t.pk).status != Status.FINISHED:
            if time.monotonic() - began > timeout:
                done = Game.objects.filter(
                    tournament_table__round__tournament=t, status="finished"
                ).count()
                print(
                    f"duplicate: NOT finished after {timeout:.0f} s ({done} games done); {load()}"
                )
                return
            time.sleep(0.5)
        wall = time.monotonic() - began
        cpu = _cpu_s(worker.pid) - cpu0
        games = Game.objects.filter(tournament_table__round__tournament=t)
        moves = sum(games.values_list("move_count", flat=True))
        table = selectors.standings(tournament=t)
        print(
            f"duplicate: {partnerships} bot partnerships, {rounds} rounds, {games.count()} games, "
            f"{moves} moves: wall {wall:.1f} s, worker CPU {cpu:.1f} s "
            f"({1000 * cpu / max(moves, 1):.1f} ms per move); load at start "
            f"{load0[0]:.2f}, {load()}; winner {table.names[table.lines[0].entrant_id]} "
            f"{table.lines[0].percent}%"
        )
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, 9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sections", nargs="*", default=["pairing", "standings", "duplicate"])
    parser.add_argument("--partnerships", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--timeout", type=float, default=1800)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backalley_site.settings")
    if "pairing" in args.sections:
        bench_pairing()  # pure Python: no database
    if {"standings", "duplicate"} & set(args.sections):
        setup_django()
    if "standings" in args.sections:
        bench_standings()
    if "duplicate" in args.sections:
        bench_duplicate(args.partnerships, args.rounds, args.timeout)


if __name__ == "__main__":
    main()
