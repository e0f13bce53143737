"""Arena benchmark (``make bench-arena``): the matchmaker's tick at scale, and the arena's
throughput with one worker.

Needs PostgreSQL and Redis (``DATABASE_URL``, ``CELERY_BROKER_URL``); migrates the database
it is given (use a database of its own: it adds thousands of bench bots) and drops the bot
turns it enqueued from the broker's queues at the end. Prints:

1. ``tick``: with ``BENCH_ARENA_BOTS`` (default 10,000) hosted bots opted in, each of its own
   owner and with a ladder rating, the wall time of the matchmaker's beat tick
   (``bots.arena.services.arena_plan``: benching, lapsed API turns, choosing the tables;
   target <= 1 s), of starting one pair (its own task), and of choosing the tables alone;
   median and max over ``BENCH_ARENA_TICKS`` ticks.
2. ``worker``: 32 hosted bots (``BENCH_ARENA_STRATEGY``, default heuristic) opted in, one
   worker (``-c 1``) and the tick run every ``ARENA_TICK_S`` seconds for
   ``BENCH_ARENA_SECONDS`` (default 600): arena games finished per hour, and the worker's
   CPU seconds (user + system, all its processes) per finished game; per move, and per
   game from that (a short window ends with many games unfinished); then, for
   ``BENCH_ARENA_PROFILE_SECONDS`` (default 60; 0 skips it), the same under cProfile
   (``bench/arena_profile.py``): the shares of the worker's CPU by where it goes (engine,
   bot, database, events, service, other).

``python bench/arena.py [tick] [worker]`` runs the parts named (default both).
"""

from __future__ import annotations

import os
import random
import secrets
import signal
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backalley_site.settings")

BOTS = int(os.environ.get("BENCH_ARENA_BOTS", "10000"))
TICKS = int(os.environ.get("BENCH_ARENA_TICKS", "5"))
SECONDS = float(os.environ.get("BENCH_ARENA_SECONDS", "600"))
STRATEGY = os.environ.get("BENCH_ARENA_STRATEGY", "heuristic")
PROFILE_SECONDS = float(os.environ.get("BENCH_ARENA_PROFILE_SECONDS", "60"))


def _bots(n: int, tag: str, strategy: str, rated: bool) -> list[int]:
    """``n`` hosted bots, each of its own owner, opted in; their bot ids."""
    from decimal import Decimal

    from django.contrib.auth import get_user_model

    from accounts.models import Player
    from bots.arena.models import ArenaEntry
    from bots.models import Bot
    from ladder.models import PlayerRating

    User = get_user_model()
    users = User.objects.bulk_create(User(username=f"ab-{tag}-{i}", password="!") for i in range(n))
    players = Player.objects.bulk_create(
        Player(name=f"ab-{tag}-{i}", is_bot=True, owner=u) for i, u in enumerate(users)
    )
    bots = Bot.objects.bulk_create(
        Bot(player=p, kind="hosted", strategy=strategy, params={}) for p in players
    )
    ArenaEntry.objects.bulk_create(
        ArenaEntry(bot=b, opted_in=True, max_concurrent=2, max_per_day=1000) for b in bots
    )
    if rated:
        rng = random.Random(1)
        PlayerRating.objects.bulk_create(
            PlayerRating(player=p, rating=Decimal(round(rng.gauss(1500, 150), 4)), games=30)
            for p in players
        )
    return [b.pk for b in bots]


def _purge() -> None:
    import redis
    from django.conf import settings

    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    for key in ("bots", "celery", "ratings"):
        client.delete(key)


def tick() -> None:
    from django.conf import settings
    from django.utils import timezone

    from bots.arena import matchmaker, services

    tag = secrets.token_hex(3)
    t0 = time.perf_counter()
    _bots(BOTS, tag, "random", rated=True)
    print(f"bench-arena tick: {BOTS} opted-in bots made in {time.perf_counter() - t0:.0f} s")
    settings.ARENA_MAX_PAIRS_IN_FLIGHT = 10**9  # measure a full tick every time
    ticks, starts, chooses = [], [], []
    for i in range(TICKS):
        # The beat task: bench, lapsed turns, choose the tables (bots.arena.tasks.arena_tick).
        t = time.perf_counter()
        plan = services.arena_plan(rng=random.Random(i))
        ticks.append(time.perf_counter() - t)
        # Each table's pair then starts in a task of its own (bots.arena.tasks.arena_start_pair).
        for table in plan.tables:
            t = time.perf_counter()
            services.pair_start(bot_ids=table)
            starts.append(time.perf_counter() - t)
        t = time.perf_counter()
        cands = services.candidates(timezone.now())
        matchmaker.choose_tables(cands, random.Random(i))
        chooses.append(time.perf_counter() - t)
    _purge()
    print(
        f"  matchmaker tick ({len(plan.tables)} tables chosen per tick, {plan.eligible} "
        f"eligible): median {1000 * statistics.median(ticks):.0f} ms, "
        f"max {1000 * max(ticks):.0f} ms (target <= 1000 ms)"
    )
    if starts:
        print(
            f"  starting one pair (two games, its own task): median "
            f"{1000 * statistics.median(starts):.0f} ms, max {1000 * max(starts):.0f} ms"
        )
    print(
        f"  reading the {len(cands)} eligible bots and choosing all their tables: median "
        f"{1000 * statistics.median(chooses):.0f} ms, max {1000 * max(chooses):.0f} ms; "
        f"load average {os.getloadavg()[0]:.1f}"
    )


def _play(ids: list[int], seconds: float, log: Path, **options: object) -> dict[str, float]:
    """Tick the arena for ``seconds`` with one worker: games finished, moves, worker CPU."""
    from django.conf import settings

    from bench.bots_pipeline import _cpu_s, _start_worker, _wait, _worker_pids
    from bots.arena import services
    from bots.arena.models import ArenaPair
    from games.models import Game

    proc = _start_worker(log, **options)  # type: ignore[arg-type]
    tick_s = float(getattr(settings, "ARENA_TICK_S", 10.0))
    ours = ArenaPair.objects.filter(bot_0_id__in=ids)

    def games() -> list[int]:
        return [g for p in ours.values_list("game_a_id", "game_b_id") for g in p]

    def moves() -> int:
        counts = Game.objects.filter(pk__in=games()).values_list("move_count", flat=True)
        return sum(counts)

    try:
        _wait(lambda: b" ready." in log.read_bytes() or proc.poll() is not None, 60, 0.1)
        pids = _worker_pids(proc.pid) + [proc.pid]
        before = set(games())
        moves0 = moves()
        done0 = Game.objects.filter(pk__in=before, status="finished").count()
        cpu0, t0 = _cpu_s(pids), time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            services.arena_tick()
            time.sleep(tick_s)
        wall = time.perf_counter() - t0
        cpu = _cpu_s(pids) - cpu0
        finished = Game.objects.filter(pk__in=games(), status="finished")
        lengths = list(finished.values_list("move_count", flat=True))
        return {
            "wall": wall,
            "cpu": cpu,
            "finished": len(lengths) - done0,
            "moves": moves() - moves0,
            "length": statistics.mean(lengths) if lengths else float("nan"),
        }
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)
        _purge()


def worker() -> None:
    import tempfile

    from bench import arena_profile

    tag = secrets.token_hex(3)
    ids = _bots(32, tag, STRATEGY, rated=False)
    log = ROOT / "var" / "bench-arena-worker.log"
    log.parent.mkdir(exist_ok=True)
    load0 = os.getloadavg()[0]
    got = _play(ids, SECONDS, log)
    wall, cpu, finished, moves = got["wall"], got["cpu"], got["finished"], got["moves"]
    per_move = cpu / moves if moves else float("nan")
    per_game = per_move * got["length"]
    print(
        f"bench-arena worker: 32 hosted {STRATEGY!r} bots, one worker (-c 1), "
        f"{wall:.0f} s: {finished:.0f} arena games finished = {3600 * finished / wall:.0f} "
        f"games/hour; worker CPU {cpu:.0f} s = "
        f"{cpu / finished if finished else float('nan'):.1f} s per finished game; "
        f"load average {load0:.1f} at the start, {os.getloadavg()[0]:.1f} at the end"
    )
    # Games run side by side, so a short window ends with many unfinished: the CPU per move
    # times a game's length says what one finished game costs, whatever the window.
    print(
        f"  {moves:.0f} moves: worker CPU {1000 * per_move:.2f} ms per move x "
        f"{got['length']:.0f} moves a game = {per_game:.2f} s per game "
        f"(= {3600 / per_game:.0f} games/hour on one fully busy worker process)"
    )
    if PROFILE_SECONDS <= 0:
        return
    with tempfile.TemporaryDirectory() as directory:
        got = _play(
            ids,
            PROFILE_SECONDS,
            log.with_suffix(".profile.log"),
            extra=("--include=bench.arena_profile",),
            env={"BENCH_PROFILE_DIR": directory},
        )
        spent = arena_profile.buckets(Path(directory))
    total = sum(spent.values()) or float("nan")
    shares = ", ".join(
        f"{name} {100 * spent[name] / total:.0f}%"
        for name in sorted(spent, key=lambda n: -spent[n])
    )
    print(
        f"  where the pool process's CPU goes (cProfile, own time, {PROFILE_SECONDS:.0f} s, "
        f"{got['moves']:.0f} moves): {shares}; load average {os.getloadavg()[0]:.1f}"
    )


def run(parts: list[str]) -> None:
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    if connection.vendor != "postgresql" or not settings.CELERY_BROKER_URL.startswith("redis"):
        print("bench-arena: needs DATABASE_URL=postgres://... and CELERY_BROKER_URL=redis://...")
        return
    call_command("migrate", verbosity=0)
    for part in parts or ["tick", "worker"]:
        {"tick": tick, "worker": worker}[part]()


if __name__ == "__main__":
    run(sys.argv[1:])
