"""A bot of the kit (clients/python, backalley_bot) played through a live server, unchanged:
one copy as an API bot (the event stream, reopened every second, the legal actions, moves
with expected_seq and Idempotency-Key), three as webhook bots (signed turns, answered in
time)."""

from __future__ import annotations

import threading

import pytest

from accounts.models import Player
from accounts.tokens import token_create
from backalley_bot import Bot, Client, Observation
from backalley_bot.api import play
from backalley_bot.webhook import WebhookServer, serve
from backalley_site.celery import app as celery_app
from games.models import Game, Move


class Cautious(Bot):
    """Bids low, plays its highest card when it leads and its lowest otherwise."""

    def choose(self, observation: Observation) -> str:
        legal = observation.legal
        if observation.is_bidding:
            numbers = [a for a in legal if a.isdigit()]
            return min(numbers, key=int) if numbers else legal[0]
        return legal[-1] if not observation.trick else legal[0]


@pytest.fixture
def eager_tasks():  # type: ignore[no-untyped-def]
    """Bot turns run in the server thread that committed the move (no worker needed here)."""
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = False


@pytest.mark.django_db(transaction=True)
def test_one_kit_bot_plays_as_an_api_bot_and_as_webhook_bots_on_a_live_server(
    live_server, client_for, owner, allow_loopback, eager_tasks
) -> None:  # type: ignore[no-untyped-def]
    api = client_for(owner)
    servers: list[WebhookServer] = []
    for i in range(3):
        server = serve(Cautious(), port=0)  # no secret yet: it answers the ping only
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        r = api.post(
            "/api/v1/bots/",
            {"name": f"KitHook-{i}", "kind": "webhook", "webhook_url": server.url},
            format="json",
        )
        assert r.status_code == 201, r.json()
        server.set_secret(r.json()["secret"])  # the secret shown once
    r = api.post("/api/v1/bots/", {"name": "KitFeed", "kind": "api"}, format="json")
    assert r.status_code == 201
    _, token = token_create(
        user=owner, name="kit", scopes=["bot"], bot=Player.objects.get(name="KitFeed")
    )
    seats = [{"kind": "bot", "name": n} for n in ("KitHook-0", "KitFeed", "KitHook-1", "KitHook-2")]
    r = api.post("/api/v1/games/", {"seats": seats, "options": {"rated": False}}, format="json")
    assert r.status_code == 201, r.json()
    game_id = r.json()["id"]
    try:
        with Client(live_server.url, token) as client:
            made = play(Cautious(), client, game_id, name="KitFeed", max_moves=25, stream_timeout=1)
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()
    assert made == 25
    moves = Move.objects.filter(game=Game.objects.get(public_id=game_id))
    mine = moves.filter(seat=1)
    assert mine.filter(submitted_by="bot").count() == 25
    assert mine.values("seq").distinct().count() == mine.count()  # never a move twice
    # The webhook copies verified every signature and answered in time, legally: no house
    # substitute, no fallback.
    others = moves.exclude(seat=1).exclude(submitted_by="auto")
    assert others.count() >= 3 * 20
    assert set(others.values_list("submitted_by", flat=True)) == {"bot"}
    assert sum(s.turns for s in servers) == others.count()
    assert sum(s.late for s in servers) == 0
