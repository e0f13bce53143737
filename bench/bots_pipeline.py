"""Bots pipeline benchmark: bot turns played by a real Celery worker.

Needs PostgreSQL and Redis (``DATABASE_URL``, ``CELERY_BROKER_URL``); migrates the database
it is given and adds uniquely named bench players to it. Prints:

1. a game of four hosted heuristic bots: actions per second from the start to the end;
2. a person (this process) against three hosted heuristic bots: the time from the commit
   of the person's move to the bot's answer, median and p90 over the person's moves that
   hand the turn to a bot. Two clocks: to the bot's move row being written (its
   ``created_at``, stamped just before its commit) and to this process seeing the answer
   committed (polling every 2 ms, so an upper bound).
"""

from __future__ import annotations

import os
import secrets
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backalley_site.settings")

PERSON_MOVES = int(os.environ.get("BENCH_PERSON_MOVES", "80"))
STRATEGY = os.environ.get("BENCH_STRATEGY", "heuristic")


def _start_worker(
    log: Path, extra: tuple[str, ...] = (), env: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "backalley_site",
            "worker",
            "-Q",
            "bots,celery,ratings",
            "-c",
            "1",
            "--pool=prefork",
            "-n",
            f"bench-bots-{os.getpid()}@%h",
            "--without-gossip",
            "--without-mingle",
            "-l",
            "INFO",
            *extra,
        ],
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    return proc


def _wait(predicate, timeout: float, step: float = 0.002):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    raise TimeoutError("bench timed out waiting")


def _cpu_s(pids: list[int]) -> float:
    """User + system CPU seconds used so far by these processes (from /proc)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def _worker_pids(main_pid: int) -> list[int]:
    pids = [main_pid]
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == main_pid:
                pids.append(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    return pids


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def run() -> None:
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    if connection.vendor != "postgresql" or not settings.CELERY_BROKER_URL.startswith("redis"):
        print(
            "bench-bots pipeline: needs DATABASE_URL=postgres://... and CELERY_BROKER_URL=redis://..."
        )
        return
    call_command("migrate", verbosity=0)

    from django.contrib.auth import get_user_model

    from accounts.models import Player
    from bots.models import Bot
    from games import statecache
    from games.models import Game, Move
    from games.services import game_create, move_submit

    tag = secrets.token_hex(3)
    owner = get_user_model().objects.create(username=f"bench-{tag}")
    person = Player.objects.create(name=f"bench-p-{tag}", user=owner)

    def bot(i: int) -> Player:
        p = Player.objects.create(name=f"bench-b{i}-{tag}", is_bot=True, owner=owner)
        Bot.objects.create(player=p, kind="hosted", strategy=STRATEGY, params={})
        return p

    bots = [bot(i) for i in range(4)]
    print(
        f"bench-bots pipeline: hosted {STRATEGY!r} bots; worker -c 1 prefork; "
        f"{os.cpu_count()} cores"
    )

    log = ROOT / "var" / "bench-bots-worker.log"
    log.parent.mkdir(exist_ok=True)
    worker = _start_worker(log)
    try:
        _wait(lambda: b" ready." in log.read_bytes() or worker.poll() is not None, 60, 0.1)
        # 1. Four hosted bots, start to end.
        game = game_create(creator=person, seats=[bots[3], bots[2], bots[1], bots[0]])
        pids = _worker_pids(worker.pid)
        cpu0 = _cpu_s(pids)
        t0 = time.perf_counter()
        _wait(lambda: Game.objects.get(pk=game.pk).status == "finished", 1800, 0.05)
        cpu = _cpu_s(pids) - cpu0
        wall = time.perf_counter() - t0
        game.refresh_from_db()
        last = Move.objects.filter(game=game).order_by("-seq").first()
        assert last is not None and game.started_at is not None
        db_span = (last.created_at - game.started_at).total_seconds()
        print(
            f"  four bots: {game.move_count} actions in {db_span:.2f} s "
            f"= {game.move_count / db_span:.1f} actions/s (wall clock as polled: {wall:.2f} s); "
            f"worker CPU {1000 * cpu / game.move_count:.1f} ms per action; "
            f"load average {os.getloadavg()[0]:.1f}"
        )

        # 2. A person against three bots (the worker is warm from the game above).
        g = game_create(creator=person, seats=[person, bots[0], bots[1], bots[2]])
        to_row: list[float] = []
        to_seen: list[float] = []
        rng = __import__("random").Random(1)
        gid = g.pk
        while len(to_row) < PERSON_MOVES:
            g = _wait(
                lambda: (x := Game.objects.get(pk=gid)).status != "active" or x.to_act == 0 and x,
                60,
            )
            if g.status != "active":
                break
            state = statecache.state_for(g)
            result = move_submit(
                game_id=g.pk,
                seats=[0],
                action=rng.choice(state.legal_actions()),
                expected_seq=g.move_count,
                actor=person,
            )
            committed = time.time()  # move_submit returns after its transaction committed
            seq = result.move.seq
            if result.body.get("to_act") in (1, 2, 3):
                _wait(lambda s=seq: Game.objects.filter(pk=gid, move_count__gt=s).exists(), 30)
                seen = time.time()
                answer = Move.objects.get(game=g, seq=seq + 1)
                to_row.append((answer.created_at.timestamp() - committed) * 1000)
                to_seen.append((seen - committed) * 1000)
        print(
            f"  person -> bot answer over {len(to_row)} moves: median "
            f"{statistics.median(to_row):.1f} ms (p90 {_pct(to_row, 0.9):.1f}) to the bot's move row; "
            f"median {statistics.median(to_seen):.1f} ms (p90 {_pct(to_seen, 0.9):.1f}) "
            f"until seen committed (target <= 150 ms); load average {os.getloadavg()[0]:.1f}"
        )
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGTERM)
            worker.wait(timeout=20)


if __name__ == "__main__":
    run()
