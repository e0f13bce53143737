"""Fixtures for the play API: four people at a table, each with their own API client."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from rest_framework.test import APIClient

from games import feed, statecache
from games.models import Game
from tests.factories import PlayerFactory


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_caches() -> Iterator[None]:
    statecache.forget()
    feed.forget()
    yield
    statecache.forget()
    feed.forget()


def client_for(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@dataclass
class Table:
    """A started game and a client per seat (``clients[s]`` holds seat ``s``)."""

    game_id: str
    players: list[Any]
    clients: list[APIClient]
    responses: list[tuple[int, Any]] = field(default_factory=list)  # (seat, body) seen

    @property
    def game(self) -> Game:
        return Game.objects.get(public_id=self.game_id)

    def url(self, tail: str = "") -> str:
        return f"/api/v1/games/{self.game_id}/{tail}"

    def to_act(self) -> int:
        to_act = self.game.to_act
        assert to_act is not None
        return to_act

    def legal(self, seat: int) -> list[dict[str, Any]]:
        r = self.clients[seat].get(self.url("legal/"))
        assert r.status_code == 200, r.content
        self.responses.append((seat, r.json()))
        return r.json()["actions"]

    def move(
        self, seat: int, action: dict[str, Any], expected_seq: int, key: str | None = None
    ) -> Any:
        headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
        r = self.clients[seat].post(
            self.url("moves/"),
            {"action": action, "expected_seq": expected_seq},
            format="json",
            **headers,
        )
        self.responses.append((seat, r.json()))
        return r


def make_table(
    names: tuple[str, ...] = ("north", "east", "south", "west"), **options: Any
) -> Table:
    players = [PlayerFactory(name=n) for n in names]
    clients = [client_for(p.user) for p in players]
    seats = [{"kind": "me"}] + [{"kind": "player", "name": p.name} for p in players[1:]]
    r = clients[0].post("/api/v1/games/", {"seats": seats, "options": options}, format="json")
    assert r.status_code == 201, r.content
    accept_invitations(r.json()["id"], clients[1:])
    return Table(r.json()["id"], players, clients)


def accept_invitations(game_id: str, clients: list[APIClient]) -> None:
    """Each client accepts its invitation to ``game_id`` through the API."""
    for client in clients:
        listed = client.get("/api/v1/invitations/").json()["results"]
        (invitation,) = [i for i in listed if i["game"] == game_id]
        r = client.post(f"/api/v1/invitations/{invitation['id']}/accept/")
        assert r.status_code == 200, r.content


@pytest.fixture
def table(db: Any) -> Table:
    return make_table()


def choose(legal: list[Any]) -> Any:
    """A simple, deterministic player: bid 1 when it may (so deals get played), else the
    first legal action."""
    return legal[1] if len(legal) > 1 and legal[0] in (54, {"bid": "pass"}) else legal[0]


def play_first_legal(table: Table, moves: int) -> None:
    """Play ``moves`` moves, each seat choosing with :func:`choose`."""
    for _ in range(moves):
        seat = table.to_act()
        action = choose(table.legal(seat))
        r = table.move(seat, action, table.game.move_count)
        assert r.status_code == 201, r.content


@pytest.fixture
def live_redis() -> Any:
    """The live channel's Redis (LIVE_REDIS_URL, the broker's by default), reachable."""
    import redis
    from django.conf import settings

    from tests.conftest import require_service

    url = settings.LIVE_REDIS_URL
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=2) if url else None
        reachable = client is not None and bool(client.ping())
    except redis.RedisError:
        reachable = False
    require_service(reachable, "needs Redis: set CELERY_BROKER_URL (or LIVE_REDIS_URL) to redis://")
    return client


def clear_presence() -> None:
    """Forget every presence mark: they are keyed by game id, which the database hands out
    again after a test's tables are flushed, while Redis keeps the marks."""
    from django.conf import settings
    from django.core.cache import cache

    cache.clear()
    if settings.LIVE_REDIS_URL:
        import redis

        client = redis.Redis.from_url(settings.LIVE_REDIS_URL)
        for name in client.scan_iter(f"{settings.LIVE_CHANNEL_PREFIX}presence:*"):
            client.delete(name)
