"""The examples for bot authors run against a live test server: the API bot plays its seat
through the event feed while three copies of the webhook bot play theirs."""

from __future__ import annotations

import importlib.util
import sys
import threading
from pathlib import Path

import pytest

from accounts.models import Player
from accounts.tokens import token_create
from backalley_site.celery import app as celery_app
from games.models import Game, Move

ROOT = Path(__file__).resolve().parents[2]


def _load(name: str):  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(
        f"examples_{name}", ROOT / "examples" / f"{name}.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def eager_tasks():  # type: ignore[no-untyped-def]
    """Bot turns run in the server thread that committed the move (no worker needed here)."""
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = False


@pytest.mark.django_db(transaction=True)
def test_api_bot_and_webhook_bots_play_a_game_on_a_live_server(
    live_server, client_for, owner, allow_loopback, eager_tasks
) -> None:  # type: ignore[no-untyped-def]
    webhook_example, api_example = _load("webhook_bot"), _load("api_bot")
    api = client_for(owner)
    servers = []
    for i in range(3):
        server = webhook_example.make_server("127.0.0.1", 0)  # no secret yet: answers pings only
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        r = api.post(
            "/api/v1/bots/",
            {"name": f"Hooky-{i}", "kind": "webhook", "webhook_url": url},
            format="json",
        )
        assert r.status_code == 201, r.json()
        server.secret = r.json()["secret"]  # the author configures the secret shown once
    assert (
        api.post("/api/v1/bots/", {"name": "Feedy", "kind": "api"}, format="json").status_code
        == 201
    )
    # A token made for the bot alone, as docs/bots.md tells bot authors to make.
    feedy = Player.objects.get(name="Feedy")
    _, token = token_create(user=owner, name="feedy", scopes=["bot"], bot=feedy)
    seats = [{"kind": "bot", "name": n} for n in ("Feedy", "Hooky-0", "Hooky-1", "Hooky-2")]
    # Unrated: one account's bots fill the table (a rated table seats one per account).
    r = api.post("/api/v1/games/", {"seats": seats, "options": {"rated": False}}, format="json")
    assert r.status_code == 201, r.json()
    game_id = r.json()["id"]
    try:
        made = api_example.play(live_server.url, token, "Feedy", game_id, seed=1, max_moves=20)
    finally:
        for server in servers:
            server.shutdown()
    assert made == 20
    game = Game.objects.get(public_id=game_id)
    moves = Move.objects.filter(game=game)
    assert moves.filter(seat=0).count() == 20
    # The webhook examples verified every signature and answered legally: no house substitutes.
    others = moves.exclude(seat=0)
    assert others.count() >= 3 * 19
    assert set(others.values_list("submitted_by", flat=True)) == {"bot"}


def test_webhook_example_refuses_bad_signatures_stale_timestamps_and_replays() -> None:
    import time

    from bots import signing

    example = _load("webhook_bot")
    body = b'{"type":"turn"}'
    now = int(time.time())
    good = signing.signed_headers(["sec"], body, now=now)
    seen = example.SeenDeliveries()
    assert not example.signature_ok("other", good, body)
    assert not example.signature_ok("sec", good, body + b" ")
    assert example.signature_ok("sec", good, body)
    assert seen.first_time(good[signing.DELIVERY_HEADER], now)
    # The same request again (a replay within the freshness window) is refused.
    assert example.signature_ok("sec", good, body)
    assert not seen.first_time(good[signing.DELIVERY_HEADER], now + 1)
    moved = {**good, signing.DELIVERY_HEADER: "another-id"}
    assert not example.signature_ok("sec", moved, body)  # the id is signed
    old = signing.signed_headers(["sec"], body, now=now - 3600)
    assert not example.signature_ok("sec", old, body)
    rotating = signing.signed_headers(["new", "sec"], body, now=now)
    assert example.signature_ok("sec", rotating, body)
