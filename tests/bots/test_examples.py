"""The examples for bot authors (examples/, on the bot kit) run: MyBot wins a move or two
offline, and plays a live test server as an API bot while three copies of the webhook
example play the other seats."""

from __future__ import annotations

import importlib.util
import sys
import threading
from pathlib import Path
from types import ModuleType

import pytest

from accounts.models import Player
from accounts.tokens import token_create
from backalley_bot import Client
from backalley_bot.api import play
from backalley_bot.play import bot_player, heuristic_player, run
from backalley_site.celery import app as celery_app
from games.models import Game, Move

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _load(name: str) -> ModuleType:
    sys.path.insert(0, str(EXAMPLES))  # the examples import mybot, beside them
    try:
        spec = importlib.util.spec_from_file_location(f"examples_{name}", EXAMPLES / f"{name}.py")
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(EXAMPLES))


@pytest.fixture
def eager_tasks():  # type: ignore[no-untyped-def]
    """Bot turns run in the server thread that committed the move (no worker needed here)."""
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = False


def test_every_example_is_under_fifty_lines() -> None:
    for path in EXAMPLES.glob("*.py"):
        assert len(path.read_text().splitlines()) < 50, path.name


def test_mybot_plays_duplicate_pairs_offline() -> None:
    bot = _load("mybot").MyBot()
    results = run(bot_player(bot), heuristic_player, pairs=2, seed=1)
    assert len(results) == 2


@pytest.mark.django_db(transaction=True)
def test_the_api_example_and_the_webhook_examples_play_a_game_on_a_live_server(
    live_server, client_for, owner, allow_loopback, eager_tasks
) -> None:  # type: ignore[no-untyped-def]
    mybot, webhook_example = _load("mybot"), _load("webhook_bot")
    assert webhook_example.serve  # the example's server is the kit's
    api = client_for(owner)
    servers = []
    for i in range(3):
        server = webhook_example.serve(mybot.MyBot(), port=0)  # no secret yet: pings only
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        r = api.post(
            "/api/v1/bots/",
            {"name": f"Hooky-{i}", "kind": "webhook", "webhook_url": server.url},
            format="json",
        )
        assert r.status_code == 201, r.json()
        server.set_secret(r.json()["secret"])  # the author configures the secret shown once
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
        with Client(live_server.url, token) as client:
            made = play(mybot.MyBot(), client, game_id, name="Feedy", max_moves=20)
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()
    assert made == 20
    moves = Move.objects.filter(game=Game.objects.get(public_id=game_id))
    assert moves.filter(seat=0, submitted_by="bot").count() == 20
    # The webhook examples verified every signature and answered legally: no house substitutes.
    others = moves.exclude(seat=0).exclude(submitted_by="auto")
    assert others.count() >= 3 * 15
    assert set(others.values_list("submitted_by", flat=True)) == {"bot"}
