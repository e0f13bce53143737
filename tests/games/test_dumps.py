"""The nightly dump (games.dumps): every public record once, each line a record the
validator accepts, a checksum file that sha256sum would accept, written atomically, the
newest GAMES_DUMP_KEEP kept, and served by GET /api/v1/dumps/."""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import json
from datetime import UTC, datetime
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from backalley_engine import validate_record
from backalley_site.celery import app
from games import dumps, exports, services, tasks
from games.models import GameStatus
from tests.asgi_calls import asgi_get_to_the_end
from tests.factories import PlayerFactory
from tests.games.helpers import play

pytestmark = pytest.mark.django_db

ONE_DEAL = {"rated": False, "schedule": {"first": 13, "last": 13}}


@pytest.fixture(autouse=True)
def _dump_dir(settings: Any, tmp_path: Path) -> Path:
    settings.GAMES_EXPORT_SETTLE_S = 0
    settings.GAMES_DUMP_DIR = tmp_path / "dumps"
    return settings.GAMES_DUMP_DIR


def _game(seats: list[Any], **kwargs: Any) -> Any:
    return services.game_create(creator=seats[0], seats=seats, options=dict(ONE_DEAL), **kwargs)


def _world() -> set[str]:
    """Three public records, a running game and a finished one whose cards another table
    still plays; the public ids of the three."""
    people = [PlayerFactory() for _ in range(8)]
    public = {play(_game(people[i : i + 4]), 200).public_id for i in (0, 2, 4)}
    running = play(_game(people[:4]), 3)
    assert running.status == GameStatus.ACTIVE
    shared = services.deal_set_create(kind="duplicate", closed=True)
    held = play(_game(people[:4], deal_set=shared), 200)
    _game(people[4:8], deal_set=shared)
    assert held.status == GameStatus.FINISHED
    return public


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in gzip.decompress(path.read_bytes()).splitlines()]


def test_the_dump_holds_every_public_record_once_with_a_right_checksum(_dump_dir: Path) -> None:
    public = _world()
    out = StringIO()
    call_command("dump_games", stdout=out)
    [dump] = dumps.dumps_list()
    assert "3 games" in out.getvalue()
    records = _lines(dump.path)
    assert sorted(r["game"] for r in records) == sorted(public)
    for record in records:
        assert validate_record(record) == []
        assert record["seed"] is not None
    digest = hashlib.sha256(dump.path.read_bytes()).hexdigest()
    checksum = dump.path.with_name(dump.name + ".sha256").read_text()
    assert checksum == f"{digest}  {dump.name}\n" and dump.sha256 == digest
    assert sorted(p.name for p in _dump_dir.iterdir()) == [dump.name, dump.name + ".sha256"]


def test_the_site_serves_the_dumps_and_their_checksums(client: Client) -> None:
    _world()
    dumps.dump_write(now=datetime(2020, 1, 1, 3, tzinfo=UTC))
    written = dumps.dump_write()
    assert written.games == 3
    listing = client.get("/api/v1/dumps/").json()
    assert [d["name"] for d in listing["dumps"]] == [written.name, "games-2020-01-01.ndjson.gz"]
    latest = listing["latest"]
    assert latest["name"] == written.name and latest["sha256"] == written.sha256
    assert latest["size"] == written.path.stat().st_size
    for url in (latest["url"], "/api/v1/dumps/latest.ndjson.gz"):
        r = client.get(url)
        assert r.status_code == 200 and r["Content-Type"] == "application/gzip"
        assert f'filename="{written.name}"' in r["Content-Disposition"]
        body = b"".join(r.streaming_content)
        assert body == written.path.read_bytes()
        assert hashlib.sha256(body).hexdigest() == latest["sha256"]
    for url in (latest["sha256_url"], "/api/v1/dumps/latest.ndjson.gz.sha256"):
        r = client.get(url)
        assert r.status_code == 200 and r["Content-Type"].startswith("text/plain")
        assert r.content.decode() == f"{written.sha256}  {written.name}\n"
    for name in ("games-2019-01-01.ndjson.gz", "..%2F..%2Fsettings.py", "dumps.sha256"):
        r = client.get(f"/api/v1/dumps/{name}")
        assert r.status_code == 404 and r.json()["code"] in ("dump_not_found", "not_found")
    assert client.get("/api/v1/dumps/nope.gz").json()["code"] == "dump_not_found"


def test_before_the_first_dump_there_is_none_to_serve(client: Client, _dump_dir: Path) -> None:
    assert client.get("/api/v1/dumps/").json() == {"latest": None, "dumps": []}
    _dump_dir.mkdir(parents=True)
    # A dump without its checksum file is one still being written (or never finished).
    (_dump_dir / "games-2026-12-02.ndjson.gz").write_bytes(gzip.compress(b""))
    assert client.get("/api/v1/dumps/").json()["latest"] is None
    r = client.get("/api/v1/dumps/latest.ndjson.gz")
    assert r.status_code == 404 and r.json()["code"] == "dump_not_found"


def test_a_failed_dump_leaves_the_last_one_whole_and_no_temporary_file(
    monkeypatch: pytest.MonkeyPatch, _dump_dir: Path
) -> None:
    _world()
    first = dumps.dump_write()
    assert first.games == 3
    before = first.path.read_bytes()
    calls = {"n": 0}
    original = exports.records

    def failing(ids: Any) -> Any:
        for record in original(ids):
            calls["n"] += 1
            if calls["n"] == 2:
                raise RuntimeError("the database went away")
            yield record

    monkeypatch.setattr(exports, "records", failing)
    with pytest.raises(RuntimeError):
        dumps.dump_write()  # the same day's name
    assert first.path.read_bytes() == before
    assert sorted(p.name for p in _dump_dir.iterdir()) == [first.name, first.name + ".sha256"]
    assert dumps.dumps_list()[0].sha256 == hashlib.sha256(before).hexdigest()


def test_the_newest_dumps_are_kept(settings: Any) -> None:
    settings.GAMES_DUMP_KEEP = 2
    for day in (1, 2, 3):
        dumps.dump_write(now=datetime(2026, 12, day, 3, tzinfo=UTC))
    assert [d.name for d in dumps.dumps_list()] == [
        "games-2026-12-03.ndjson.gz",
        "games-2026-12-02.ndjson.gz",
    ]


def test_the_beat_writes_the_dump_every_night_off_the_events_queue(settings: Any) -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["games-dump"]
    assert entry["task"] == tasks.dump_games.name
    assert entry["options"]["queue"] == "celery"
    route = app.amqp.router.route({}, tasks.dump_games.name)
    assert route["queue"].name == "celery"
    _world()
    result = tasks.dump_games.apply().get()
    assert result["games"] == 3 and result["name"] == dumps.dumps_list()[0].name


@pytest.mark.django_db(transaction=True)
def test_under_asgi_a_dump_is_read_from_disk_in_chunks(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    from django.db import connection

    from backalley_site.asgi import application
    from games.api import dumps as dump_view

    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 0)
    monkeypatch.setattr(dump_view, "READ_SIZE", 100)
    _world()
    written = dumps.dump_write()
    assert written.size > 3 * 100  # several reads
    status, headers, body = asyncio.run(
        asgi_get_to_the_end(application, "/api/v1/dumps/latest.ndjson.gz")
    )
    assert status == 200 and headers[b"content-type"] == b"application/gzip"
    assert headers[b"content-length"] == str(written.size).encode()
    assert body == written.path.read_bytes()
