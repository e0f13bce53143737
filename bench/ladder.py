"""Ladder benchmarks: recompute speed, ladder page render time, and predictive power.

    python bench/ladder.py [--games 100000] [--players 10000] [--arena-games 1200]

1. `manage.py recompute_ratings` over N synthetic finished rated games (target <= 60 s).
2. The ladder page with P players: p50/p95 render time through Django's test client
   (target p50 <= 50 ms) and its query count; the same for a deep page, a player page and
   the standings API.
3. Predictive power: bots of three strengths play arena games (bots.strategies.arena);
   ratings are fitted on the first games and predict the held-out rest. Prints the mean
   log loss with its 95% interval (target: below a coin's ln 2 = 0.693).

It always uses its own PostgreSQL database (BENCH_DATABASE_URL, default
postgres://postgres@127.0.0.1:5432/ba_bench_ladder), which it empties first.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from multiprocessing import Pool
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BENCH_DB = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/ba_bench_ladder"
)


def ensure_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')


def setup_django() -> None:
    os.environ["DATABASE_URL"] = BENCH_DB
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backalley_site.settings")
    os.environ["DJANGO_DEBUG"] = "false"
    os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver,localhost")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


# --- synthetic data -------------------------------------------------------------------------


def copy_rows(table: str, columns: list[str], rows: list[tuple[Any, ...]]) -> None:
    from django.db import connection

    sql = f"COPY {table} ({', '.join(columns)}) FROM STDIN"
    with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
        for row in rows:
            copy.write_row(row)


def build_data(n_players: int, n_games: int, seed: int = 1) -> None:
    from django.db import connection, transaction

    rng = random.Random(seed)
    now = datetime(2026, 1, 1, tzinfo=UTC)
    started = time.perf_counter()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "TRUNCATE ladder_ratingchange, ladder_pairratingchange, ladder_ratedgame, "
            "ladder_playerrating, ladder_pairrating, ladder_ladderstate, games_move, "
            "games_seededdeal, games_seat, games_game, games_team, accounts_player, auth_user "
            "RESTART IDENTITY CASCADE"
        )
        n_bots = n_players // 10
        users = [
            (i, "!", False, f"u{i}", "", "", "", False, True, now) for i in range(1, n_players + 1)
        ]
        copy_rows(
            "auth_user",
            ["id", "password", "is_superuser", "username", "first_name", "last_name", "email",
             "is_staff", "is_active", "date_joined"],
            users,
        )  # fmt: skip
        people = n_players - n_bots
        players = [
            (i, f"p{i:05d}" if i <= people else f"bot{i:05d}", i if i <= people else None,
             i > people, 1 if i > people else None, now)
            for i in range(1, n_players + 1)
        ]  # fmt: skip
        copy_rows(
            "accounts_player", ["id", "name", "user_id", "is_bot", "owner_id", "created_at"],
            players,
        )  # fmt: skip
        # A hidden strength per player, so results carry information.
        strength = {i: rng.gauss(0, 200) for i in range(1, n_players + 1)}
        teams: dict[tuple[int, int], int] = {}
        games, seats = [], []
        for g in range(1, n_games + 1):
            four = rng.sample(range(1, n_players + 1), 4)
            ids = []
            for a, b in ((four[0], four[2]), (four[1], four[3])):
                key = (min(a, b), max(a, b))
                ids.append(teams.setdefault(key, len(teams) + 1))
            diff = (
                strength[four[0]] + strength[four[2]] - strength[four[1]] - strength[four[3]]
            ) / 2
            p0 = 1 / (1 + 10 ** (-diff / 400))
            u = rng.random()
            winner = None if u < 0.04 else (0 if rng.random() < p0 else 1)
            totals = {0: (150, 90), 1: (90, 150), None: (120, 120)}[winner]
            finished = now + timedelta(seconds=g // 2)  # pairs of games finish together
            seed_hex = hashlib.sha256(f"bench:{g}".encode()).hexdigest()
            games.append(
                (g, f"g_b{g:08d}", "finished", json.dumps({"rated": True}), True, seed_hex,
                 hashlib.sha256(seed_hex.encode()).hexdigest(), 0, now, now, finished, finished,
                 800, None, 25, totals[0], totals[1], winner, ids[0], ids[1])
            )  # fmt: skip
            seats += [(g, pos, pid, now) for pos, pid in enumerate(four)]
        copy_rows(
            "games_team",
            ["id", "player_low_id", "player_high_id", "created_at"],
            [(tid, a, b, now) for (a, b), tid in teams.items()],
        )
        copy_rows(
            "games_game",
            ["id", "public_id", "status", "options", "rated", "seed", "commitment",
             "first_dealer", "created_at", "started_at", "finished_at", "last_move_at",
             "move_count", "to_act", "deal_number", "total_0", "total_1", "winner", "team_0_id",
             "team_1_id"],
            games,
        )  # fmt: skip
        copy_rows("games_seat", ["game_id", "position", "player_id", "joined_at"], seats)
        for table in ("auth_user", "accounts_player", "games_team", "games_game", "games_seat"):
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"(SELECT MAX(id) FROM {table}))"
            )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    print(
        f"data: {n_players} players ({n_players // 10} bots), {n_games} finished rated games, "
        f"{len(teams)} partnerships, built in {time.perf_counter() - started:.1f} s"
    )


# --- 1. recompute ---------------------------------------------------------------------------


def backend_cpu() -> float:
    """CPU seconds used so far by this connection's PostgreSQL backend (same machine)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bench_recompute(n_games: int) -> None:
    from ladder.models import PlayerRating, RatingChange
    from ladder.recompute import ladder_recompute

    print(f"load average before the recompute: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for _ in range(2):
        label = "rows replaced" if RatingChange.objects.exists() else "empty ladder"
        db_cpu = backend_cpu()
        started, cpu = time.perf_counter(), time.process_time()
        summary = ladder_recompute()
        took, cpu = time.perf_counter() - started, time.process_time() - cpu
        db_cpu = backend_cpu() - db_cpu
        phases = ", ".join(f"{k} {v:.1f}" for k, v in summary.seconds.items())
        print(
            f"recompute_ratings ({label}): {summary.games} games in {took:.1f} s wall "
            f"(target <= 60 s); CPU: {cpu:.1f} s this process + {db_cpu:.1f} s its PostgreSQL "
            f"backend; phases (s wall): {phases}; load average now "
            f"{os.getloadavg()[0]:.1f} -> {RatingChange.objects.count()} changes, "
            f"{PlayerRating.objects.count()} ratings"
        )


def bench_incremental(count: int = 200) -> None:
    """The task's path: rate `count` newly finished games one by one."""
    from django.db import connection

    from games.models import Game, Seat
    from ladder.services import ladder_rate_game

    last = Game.objects.order_by("-id").first()
    assert last is not None and last.finished_at is not None
    donors = list(Game.objects.order_by("id")[:count])
    times = []
    for i, donor in enumerate(donors):
        game = Game.objects.create(
            status="finished", rated=True, options={"rated": True}, seed=donor.seed,
            commitment=donor.commitment, first_dealer=0, finished_at=last.finished_at
            + timedelta(seconds=i + 1), total_0=donor.total_0, total_1=donor.total_1,
            winner=donor.winner, team_0_id=donor.team_0_id, team_1_id=donor.team_1_id,
        )  # fmt: skip
        Seat.objects.bulk_create(
            Seat(game=game, position=s.position, player_id=s.player_id)
            for s in Seat.objects.filter(game=donor)
        )
        started = time.perf_counter()
        assert ladder_rate_game(game_id=game.pk) == 1
        times.append((time.perf_counter() - started) * 1000)
    connection.close()
    print(
        f"incremental rate_game on a ladder of that size: p50 {pct(times, 0.5):.1f} ms, "
        f"p95 {pct(times, 0.95):.1f} ms over {count} games"
    )


# --- 2. pages -------------------------------------------------------------------------------


def bench_pages(runs: int = 60) -> None:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from ladder.models import PlayerRating

    client = Client()
    established = PlayerRating.objects.filter(games__gte=20).count()
    top = PlayerRating.objects.select_related("player").order_by("-rating").first()
    assert top is not None
    pages = [
        ("ladder page 1", "/ladder/"),
        ("ladder page 100", "/ladder/?page=100"),
        ("ladder, all incl. provisional", "/ladder/?kind=all&provisional=1"),
        ("player page", f"/ladder/players/{top.player.name}/"),
        ("standings API", "/api/v1/ladder/standings/"),
    ]
    load = os.getloadavg()[0]
    print(
        f"pages: {PlayerRating.objects.count()} rated players, {established} established "
        f"(load average {load:.1f} on {os.cpu_count()} cores; wall times include waiting for "
        "a core, CPU times do not)"
    )
    for label, url in pages:
        for _ in range(5):  # warm-up
            assert client.get(url).status_code == 200, url
        times, cpus = [], []
        for _ in range(runs):
            started, cpu = time.perf_counter(), time.process_time()
            response = client.get(url)
            times.append((time.perf_counter() - started) * 1000)
            cpus.append((time.process_time() - cpu) * 1000)
            assert response.status_code == 200
        with CaptureQueriesContext(connection) as ctx:
            client.get(url)
        db = sum(float(q["time"]) for q in ctx.captured_queries) * 1000
        print(
            f"  {label:32s} p50 {pct(times, 0.5):6.1f} ms  p95 {pct(times, 0.95):6.1f} ms  "
            f"(CPU p50 {pct(cpus, 0.5):5.1f} ms)  {len(ctx.captured_queries)} queries "
            f"({db:.1f} ms)  [{runs} runs]"
        )


# --- 3. predictive power --------------------------------------------------------------------


class NoisyHeuristic:
    """The heuristic, but a random legal action with probability `noise`: a middle strength."""

    def __init__(self, noise: float) -> None:
        from bots.strategies import get_strategy

        self.noise = noise
        self.inner = get_strategy("heuristic")
        self.name = f"heuristic~{noise}"

    def choose(self, info, rng):  # type: ignore[no-untyped-def]
        if rng.random() < self.noise:
            return rng.choice(info.legal)
        return self.inner.choose(info, rng)


BOTS = ["random"] * 3 + ["noisy"] * 3 + ["heuristic"] * 3  # nine bots, three strengths


def _strategy(kind: str):  # type: ignore[no-untyped-def]
    from bots.strategies import get_strategy

    return NoisyHeuristic(0.5) if kind == "noisy" else get_strategy(kind)


def _arena_game(job: tuple[int, tuple[int, ...]]) -> tuple[int, tuple[int, int]]:
    from bots.strategies.arena import pair_seed, play_game

    index, seats = job
    strategies = tuple(_strategy(BOTS[b]) for b in seats)
    return index, play_game(pair_seed(2026, index), strategies)


def bench_predictive(n_games: int, held_out: float = 1 / 3, seed: int = 7) -> None:
    from bots.strategies.stats import mean_ci
    from ladder.ledger import GameResult, Ledger
    from ladder.rating import expected_score, team_rating

    rng = random.Random(seed)
    jobs = [(i, tuple(rng.sample(range(len(BOTS)), 4))) for i in range(n_games)]
    started = time.perf_counter()
    with Pool(processes=min(2, os.cpu_count() or 1)) as pool:
        played = dict(pool.imap_unordered(_arena_game, jobs, chunksize=8))
    took = time.perf_counter() - started
    split = round(n_games * (1 - held_out))
    book = Ledger()
    for i, seats in jobs[:split]:
        t0, t1 = played[i]
        winner = None if t0 == t1 else (0 if t0 > t1 else 1)
        book.rate(GameResult(i, seats, winner))  # type: ignore[arg-type]
    losses = []
    for i, seats in jobs[split:]:
        r = [book.player(b).rating for b in seats]
        p = float(expected_score(team_rating(r[0], r[2]), team_rating(r[1], r[3])))
        p = min(max(p, 1e-6), 1 - 1e-6)
        t0, t1 = played[i]
        y = 0.5 if t0 == t1 else (1.0 if t0 > t1 else 0.0)
        losses.append(-(y * math.log(p) + (1 - y) * math.log(1 - p)))
    mean, lo, hi = mean_ci(losses)
    by_kind: dict[str, list[float]] = {}
    for b, kind in enumerate(BOTS):
        by_kind.setdefault(kind, []).append(float(book.player(b).rating))
    spread = ", ".join(f"{k} {statistics.mean(v):.0f}" for k, v in by_kind.items())
    print(
        f"predictive power: {n_games} arena games between {len(BOTS)} bots ({took:.0f} s to "
        f"play); ratings fitted on {split}, log loss on {len(losses)} held-out games = "
        f"{mean:.3f} (95% CI {lo:.3f}-{hi:.3f}; a coin scores {math.log(2):.3f})"
    )
    print(f"  mean rating by strength after fitting: {spread}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--arena-games", type=int, default=1200)
    parser.add_argument("--reuse", action="store_true", help="keep the data of a previous run")
    args = parser.parse_args()

    ensure_database(BENCH_DB)
    setup_django()
    from games.models import Game

    if not (args.reuse and Game.objects.count() >= args.games):
        build_data(args.players, args.games)
    bench_recompute(args.games)
    bench_pages()
    bench_incremental()
    if args.arena_games:
        bench_predictive(args.arena_games)


if __name__ == "__main__":
    main()
