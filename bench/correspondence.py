"""Do correspondence games finish? Forced actions and settled deals, measured (docs/rules.md §10).

Plays seeded games with the heuristic strategy in every seat through the games services, on
a real database (``BENCH_DATABASE_URL``, default ``.../ba_bench_correspondence``, migrated
here), twice per seed: as the service was (``GAMES_AUTOPLAY`` off: every decision is a
person's) and with forced actions and settled deals played by the service (on). Every
submission is timed inside Django (``move_submit``, the chain of the service's own moves
included), and every settled-deal check alone.

Then each game's sequence of decisions asked of people is replayed on a model of people:
each of the four opens the game S times a day at random moments of a 16-hour waking day and
stays V minutes (S = 4, 8, 12; V = 10, 10, 15), and answers a turn in 20 s while there;
nobody premoves or claims. A decision waits for its person to be there. Printed, for both
runs: decisions asked of people per game, and the median days a game takes (over the games,
each replayed on ``BENCH_SCHEDULES`` random schedules); the settled check's p50/p99; a
move's time inside Django with the checks and without.

The targets (at S = 8): people asked <= 65% of today's decisions, median days <= 0.65x.

    python bench/correspondence.py [--games 20] [--seed 1] [--schedules 20]
"""

from __future__ import annotations

import argparse
import bisect
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BENCH_DB = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/ba_bench_correspondence"
)
DAY = 24 * 3600.0
WAKE = 7 * 3600.0  # the waking day: 07:00 to 23:00
AWAKE = 16 * 3600.0
ANSWER = 20.0
HABITS = ((4, 10), (8, 10), (12, 15))  # visits a day, minutes a visit


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f}"


def ensure_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')


def setup_django() -> None:
    ensure_database(BENCH_DB)
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
    return s[min(len(s) - 1, round(q * (len(s) - 1)))] if s else float("nan")


# --- playing through the services ------------------------------------------------------------


@dataclass
class Run:
    """One game as played: who was asked each decision, in order, and the timings."""

    asked: list[int] = field(default_factory=list)  # the seat of each person's decision
    moves: int = 0
    submit_s: list[float] = field(default_factory=list)  # per submission, inside Django


def play_game(seed_hex: str, index: int, *, autoplay: bool) -> Run:
    from django.conf import settings
    from django.contrib.auth import get_user_model

    from accounts.models import Player
    from bots.strategies import get_strategy
    from bots.strategies.knowledge import SeatKnowledge
    from games import statecache
    from games.models import Game
    from games.services import game_create, move_submit

    settings.GAMES_AUTOPLAY = autoplay
    tag = f"{'on' if autoplay else 'off'}{index}-{seed_hex[:6]}-{time.time_ns() % 10**9}"
    User = get_user_model()
    players = []
    for s in range(4):
        name = f"c{tag}"[:26] + str(s)
        players.append(Player.objects.create(name=name, user=User.objects.create(username=name)))
    game = game_create(creator=players[0], seats=players, options={"rated": False}, seed=seed_hex)
    strategy = get_strategy("heuristic", {})
    run = Run()
    game = Game.objects.get(pk=game.pk)
    while game.to_act is not None:
        state = statecache.state_for(game)
        seat = game.to_act
        rng = random.Random(f"{seed_hex}:{game.move_count}")
        action = strategy.choose(SeatKnowledge.from_state(state, seat), rng)
        t0 = time.perf_counter()
        move_submit(game_id=game.pk, seats=[seat], action=action, expected_seq=game.move_count)
        run.submit_s.append(time.perf_counter() - t0)
        run.asked.append(seat)
        game = Game.objects.get(pk=game.pk)
    run.moves = game.move_count
    return run


def timed_checks(checks: list[float]) -> Callable[[], None]:
    """Record the time of every settled-deal check the move path makes; returns undo."""
    from backalley_engine import solver

    original = solver.is_settled

    def timed(deal: Any, *, budget: int = solver.DEFAULT_BUDGET) -> bool | None:
        t0 = time.perf_counter()
        answer: bool | None = original(deal, budget=budget)
        checks.append(time.perf_counter() - t0)
        return answer

    solver.is_settled = timed

    def undo() -> None:
        solver.is_settled = original

    return undo


# --- the model of people -----------------------------------------------------------------------


class Person:
    """Visits: each day, ``visits`` random starts in the waking day, ``minutes`` long
    (overlapping visits merge)."""

    def __init__(self, rng: random.Random, visits: int, minutes: int) -> None:
        self.rng = rng
        self.visits = visits
        self.length = minutes * 60.0
        self.starts: list[float] = []
        self.ends: list[float] = []
        self.days = 0

    def _extend(self) -> None:
        d = self.days
        for s in sorted(d * DAY + WAKE + self.rng.random() * AWAKE for _ in range(self.visits)):
            e = s + self.length
            if self.ends and s <= self.ends[-1]:
                self.ends[-1] = max(e, self.ends[-1])
            else:
                self.starts.append(s)
                self.ends.append(e)
        self.days += 1

    def answer_at(self, t: float) -> float:
        """When a turn that became theirs at ``t`` is answered: 20 s into the first visit
        (or the one under way) that leaves them 20 s."""
        while not self.ends or self.ends[-1] < t + ANSWER:
            self._extend()
        i = bisect.bisect_left(self.ends, t + ANSWER)
        return max(t, self.starts[i]) + ANSWER


def days_to_finish(asked: list[int], rng: random.Random, visits: int, minutes: int) -> float:
    people = [Person(random.Random(rng.random()), visits, minutes) for _ in range(4)]
    t = WAKE  # the game starts at the beginning of a waking day
    for seat in asked:
        t = people[seat].answer_at(t)
    return (t - WAKE) / DAY


# --- the report ------------------------------------------------------------------------------


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=int(os.environ.get("BENCH_GAMES", "20")))
    ap.add_argument("--seed", type=int, default=int(os.environ.get("BENCH_SEED", "1")))
    ap.add_argument("--schedules", type=int, default=int(os.environ.get("BENCH_SCHEDULES", "20")))
    args = ap.parse_args()
    setup_django()
    import hashlib

    from games.autoplay import settled_limits

    seeds = [
        hashlib.sha256(f"correspondence:{args.seed}:{i}".encode()).hexdigest()
        for i in range(args.games)
    ]
    print(f"{args.games} games, heuristic strategy in every seat, {load()}")
    print(
        f"settled check: at most {settled_limits()[0]} tricks left, {settled_limits()[1]} placements"
    )
    checks: list[float] = []
    runs: dict[bool, list[Run]] = {False: [], True: []}
    started = time.perf_counter()
    for i, seed_hex in enumerate(seeds):
        for on in (False, True):
            if on:
                undo = timed_checks(checks)
                try:
                    runs[on].append(play_game(seed_hex, i, autoplay=True))
                finally:
                    undo()
            else:
                runs[on].append(play_game(seed_hex, i, autoplay=False))
        print(
            f"  game {i + 1}: {runs[False][-1].moves} moves; people asked "
            f"{len(runs[False][-1].asked)} -> {len(runs[True][-1].asked)}",
            flush=True,
        )
    print(f"played in {time.perf_counter() - started:.0f} s, {load()}")

    today = statistics.mean(len(r.asked) for r in runs[False])
    now = statistics.mean(len(r.asked) for r in runs[True])
    print()
    print(
        f"decisions asked of people per game: today {today:.1f}, with 1+2 {now:.1f} "
        f"({now / today:.1%} of today's; target <= 65%)"
    )
    for visits, minutes in HABITS:
        medians = {}
        for on in (False, True):
            days = [
                days_to_finish(r.asked, random.Random(f"{args.seed}:{k}:{j}"), visits, minutes)
                for k, r in enumerate(runs[on])
                for j in range(args.schedules)
            ]
            medians[on] = statistics.median(days)
        ratio = medians[True] / medians[False]
        target = "  (target <= 0.65x)" if visits == 8 else ""
        print(
            f"S={visits:2d}, {minutes} min: median days today {medians[False]:.1f}, "
            f"with 1+2 {medians[True]:.1f} ({ratio:.2f}x){target}"
        )
    print()
    print(
        f"settled-deal check: {len(checks)} checks, p50 {pct(checks, 0.5) * 1e3:.2f} ms, "
        f"p99 {pct(checks, 0.99) * 1e3:.2f} ms, max {max(checks, default=0) * 1e3:.2f} ms"
    )
    off = [s for r in runs[False] for s in r.submit_s]
    on_s = [s for r in runs[True] for s in r.submit_s]
    moves_on = sum(r.moves for r in runs[True])
    print(
        f"a move inside Django (move_submit): without the checks p50 {pct(off, 0.5) * 1e3:.2f} ms "
        f"mean {statistics.mean(off) * 1e3:.2f} ms; with them p50 {pct(on_s, 0.5) * 1e3:.2f} ms "
        f"mean {statistics.mean(on_s) * 1e3:.2f} ms per submission "
        f"({statistics.mean(on_s) / statistics.mean(off):.2f}x; target <= 1.3x), "
        f"{sum(on_s) / moves_on * 1e3:.2f} ms per move of the log"
    )
    print(load())


if __name__ == "__main__":
    main()
