"""In-process preparation for bench/api.py: a fresh database, players, tokens and games.

Everything goes through the services (accounts, tokens, ``game_create``, ``move_submit``), in
this process, so the server under test finds games exactly as play leaves them (move log,
per-deal snapshots, stored deals). The caller sets ``DATABASE_URL`` and
``DJANGO_SETTINGS_MODULE`` before :func:`django_setup`.
"""

from __future__ import annotations

import os
import secrets
import threading
from dataclasses import dataclass, field
from typing import Any

from backalley_engine.actions import PASS
from backalley_engine.state import GameState

PING_PATH = "/api/v1/bench-ping/"  # the trivial endpoint of bench/api_urls.py


def policy(state: GameState) -> int:
    """The clients' deterministic choice: the lowest numeric bid, else the first legal action."""
    legal = state.legal_actions()
    return legal[1] if len(legal) > 1 and legal[0] == PASS else legal[0]


def game_length(seed: str) -> int:
    """How many moves a whole game takes when every seat plays :func:`policy`."""
    state = GameState.new(seed)
    while not state.is_terminal():
        state.apply(policy(state))
    return state.move_count


@dataclass
class Table:
    """One game and what a client needs to play it: the four seats' tokens and the seed."""

    id: str
    pk: int
    seed: str
    tokens: list[str]
    state: GameState = field(init=False)

    def __post_init__(self) -> None:
        self.state = GameState.new(self.seed)


def recreate_database(url: str) -> None:
    """Drop and create the benchmark's own database (never anyone else's)."""
    import psycopg

    name = url.rsplit("/", 1)[1].split("?", 1)[0]
    if not name.startswith("ba_bench"):
        raise SystemExit(f"refusing to drop {name!r}: the benchmark's database starts 'ba_bench'")
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def django_setup(migrate: bool = True) -> None:
    import django

    django.setup()
    if migrate:
        from django.core.management import call_command

        call_command("migrate", verbosity=0)


def make_players(count: int) -> list[tuple[Any, str]]:
    """``count`` people, each with a player and a read+play token: (player, secret)."""
    from django.contrib.auth import get_user_model

    from accounts.services import player_create
    from accounts.tokens import token_create

    run = secrets.token_hex(3)
    out = []
    for i in range(count):
        user = get_user_model().objects.create_user(f"bench-{run}-{i}")
        player = player_create(user=user, name=f"b{run}p{i}")
        out.append((player, token_create(user=user, name="bench", scopes=["read", "play"])[1]))
    return out


def make_game(four: list[tuple[Any, str]]) -> Table:
    """A started unrated game with these four people seated 0..3."""
    from games.services import game_create

    game = game_create(creator=four[0][0], seats=[p for p, _ in four], options={"rated": False})
    game.refresh_from_db()
    return Table(game.public_id, game.pk, game.seed, [t for _, t in four])


def advance(table: Table, upto: int) -> None:
    """Play ``table`` to move ``upto`` through ``move_submit`` (in this process)."""
    from games.services import move_submit

    state = table.state
    while state.move_count < upto and not state.is_terminal():
        action, seat = policy(state), state.seat_to_act
        assert seat is not None  # a game not over has a seat to act
        move_submit(
            game_id=table.pk,
            seats=[seat],
            action=action,
            expected_seq=state.move_count,
            idempotency_key=f"prep-{state.move_count}",
        )
        state.apply(action)


def advance_all(jobs: list[tuple[Table, int]], threads: int = 4) -> None:
    """Advance many games at once (database round trips overlap across threads).

    Only these preparing connections skip waiting for the WAL flush at commit
    (``synchronous_commit off``); the server under test keeps the database's setting.
    """
    from django.db import connection, connections

    todo = list(jobs)
    lock = threading.Lock()
    errors: list[BaseException] = []

    def work() -> None:
        try:
            if connection.vendor == "postgresql":
                with connection.cursor() as cur:
                    cur.execute("SET synchronous_commit TO off")
            while True:
                with lock:
                    if not todo or errors:
                        return
                    table, upto = todo.pop()
                advance(table, upto)
        except BaseException as exc:  # reported by the caller
            errors.append(exc)
        finally:
            connections.close_all()

    pool = [threading.Thread(target=work) for _ in range(max(1, threads))]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    if errors:
        raise errors[0]


def settings_env(url: str) -> dict[str, str]:
    """The environment the server and this process share."""
    return {
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "bench.api_settings",
        "DJANGO_DEBUG": "false",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "LOG_LEVEL": "WARNING",
        "PYTHONPATH": os.pathsep.join(
            p for p in (str(_root()), os.environ.get("PYTHONPATH", "")) if p
        ),
    }


def _root() -> Any:
    from pathlib import Path

    return Path(__file__).resolve().parents[1]
