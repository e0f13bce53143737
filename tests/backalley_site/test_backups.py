"""The restore drill: back up a database with finished and running games, restore the
backup into a fresh database, and there: every game replays as stored (verify_games),
rebuilding the ladder gives the same ratings, and a running game goes on."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from backalley_site import backups
from games.models import Game, GameStatus
from games.services import game_create
from ladder.models import PlayerRating
from tests.bots import worker as bot_worker  # a module import: its test_* helper is no test
from tests.clock.helpers import play
from tests.conftest import require_service
from tests.factories import PlayerFactory

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]

# Run in the restored database: the ladder as stored, then as rebuilt from its games.
LADDER = """
import json
from ladder.models import PlayerRating, RatingChange
def rows():
    return {
        "players": sorted([p, str(r), g, w, d, l] for p, r, g, w, d, l in PlayerRating.objects.values_list("player_id", "rating", "games", "wins", "draws", "losses")),
        "changes": sorted([g, p, str(b), str(a)] for g, p, b, a in RatingChange.objects.values_list("game_id", "player_id", "before", "after")),
    }
stored = rows()
from django.core.management import call_command
call_command("recompute_ratings", no_progress=True, verbosity=0)
print(json.dumps({"stored": stored, "rebuilt": rows()}))
"""

# Run in the restored database: the running game's next moves, through the services.
PLAY_ON = """
import json, sys
from tests.clock.helpers import play
from games.models import Game
game = Game.objects.get(public_id=sys.argv[-1])
before = game.move_count
for _ in range(12):
    play(game.pk)
game.refresh_from_db()
print(json.dumps({"before": before, "after": game.move_count, "status": game.status}))
"""


@pytest.fixture(autouse=True)
def _setup(settings: Any) -> Iterator[None]:
    from backalley_site.celery import app

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True  # the ladder rates each game as it finishes
    yield
    app.conf.task_always_eager = before


def _need_tools() -> None:
    require_service(connection.vendor == "postgresql", "backups are of PostgreSQL")
    for tool in ("pg_dump", "pg_restore", "psql", "createdb", "dropdb"):
        require_service(shutil.which(tool) is not None, f"{tool} (postgresql-client)")


def _in(url: str, *args: str) -> str:
    """``manage.py <args>`` against the database at ``url``; its output."""
    env = {**os.environ, "DATABASE_URL": url, "CELERY_TASK_ALWAYS_EAGER": "true"}
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _drop(target: backups.Target) -> None:
    subprocess.run(
        ["dropdb", "--if-exists", target.name],
        env=target.with_name("postgres").env(),
        capture_output=True,
        check=False,
    )


def test_a_restored_backup_verifies_rates_the_same_and_plays_on(tmp_path: Path) -> None:
    _need_tools()
    people = [PlayerFactory() for _ in range(6)]
    finished = [
        game_create(creator=people[0], seats=people[:4], options={"rated": True}),
        game_create(creator=people[2], seats=people[2:6], options={"rated": True}),
    ]
    for game in finished:
        while Game.objects.get(pk=game.pk).status == GameStatus.ACTIVE:
            play(game.pk)
    running = game_create(
        creator=people[1],
        seats=[people[1], people[3], people[5], people[0]],
        options={"rated": True},
    )
    for _ in range(30):
        play(running.pk)
    game_create(creator=people[4], seats=[people[4], None, None, None], options={"rated": False})
    assert PlayerRating.objects.count() == 6

    out = tmp_path / "backups"
    call_command("backup", dir=str(out), keep_days=0)
    (dump,) = out.glob("backalley-*.dump")
    assert dump.stat().st_size > 10_000

    source = backups.configured()
    fresh = source.with_name(f"{source.name}_drill_{secrets.token_hex(4)}")
    url = bot_worker.test_database_url().split("?")[0].rsplit("/", 1)[0] + f"/{fresh.name}"
    try:
        call_command("restore", str(dump), to=url, create=True)
        # Every game, finished, running and waiting, replays as stored.
        verified = _in(url, "verify_games")
        assert verified.strip() == "verified 4 game(s): 0 with problems"
        # The ladder rebuilt from the restored games is the ladder restored, and the original.
        ladder = json.loads(_in(url, "shell", "-c", LADDER).strip().splitlines()[-1])
        assert ladder["rebuilt"] == ladder["stored"]
        assert len(ladder["stored"]["players"]) == 6 and len(ladder["stored"]["changes"]) == 8
        original = sorted(
            [p, str(r)] for p, r in PlayerRating.objects.values_list("player_id", "rating")
        )
        assert [row[:2] for row in ladder["stored"]["players"]] == original
        # The running game goes on in the restored database.
        played = json.loads(_run_play_on(url, running.public_id))
        assert played == {"before": 30, "after": 42, "status": "active"}
        # Restoring again over it is refused unless asked for twice.
        with pytest.raises(CommandError, match="holds tables"):
            call_command("restore", str(dump), to=url)
    finally:
        _drop(fresh)


def _run_play_on(url: str, public_id: str) -> str:
    env = {**os.environ, "DATABASE_URL": url, "CELERY_TASK_ALWAYS_EAGER": "true"}
    code = "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'backalley_site.settings'); django.setup()\n"
    done = subprocess.run(
        [sys.executable, "-c", code + PLAY_ON, public_id],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.strip().splitlines()[-1]


def test_old_backups_are_pruned_and_the_newest_kept(tmp_path: Path) -> None:
    now = datetime(2026, 6, 1, tzinfo=UTC)
    target = backups.Target("backalley")
    names = [backups.backup_name(target, now - timedelta(days=d)) for d in (0, 10, 31, 45)]
    for name in names:
        (tmp_path / name).write_bytes(b"x")
    (tmp_path / "notes.txt").write_text("not a backup")
    gone = backups.prune(folder=tmp_path, keep_days=30, now=now)
    assert sorted(p.name for p in gone) == sorted(names[2:])
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*names[:2], "notes.txt"])
    # However old, the newest backup stays.
    only = tmp_path / "only"
    only.mkdir()
    (only / names[3]).write_bytes(b"x")
    assert backups.prune(folder=only, keep_days=1, now=now) == []


def test_a_backup_url_never_reaches_a_command_line() -> None:
    target = backups.from_url("postgres://ba:s%40cret@db.internal:6543/club")
    assert (target.name, target.user, target.password, target.host, target.port) == (
        "club",
        "ba",
        "s@cret",
        "db.internal",
        "6543",
    )
    env = target.env()
    assert env["PGPASSWORD"] == "s@cret" and env["PGDATABASE"] == "club"
