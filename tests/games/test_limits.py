"""Limits on new games per account (issue 12, finding 8)."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Game
from tests.factories import BotPlayerFactory, PlayerFactory
from tests.games.conftest import client_for

pytestmark = pytest.mark.django_db

OPEN3 = [{"kind": "open"}] * 3


def _create(client: Any, seats: list[dict[str, Any]]) -> Any:
    return client.post("/api/v1/games/", {"seats": seats}, format="json")


def test_games_waiting_for_players_are_capped_per_account(settings: Any) -> None:
    settings.GAMES_MAX_WAITING_PER_ACCOUNT = 3
    me = PlayerFactory()
    client = client_for(me.user)
    for _ in range(3):
        assert _create(client, [{"kind": "me"}, *OPEN3]).status_code == 201
    r = _create(client, [{"kind": "me"}, *OPEN3])
    assert r.status_code == 409 and r.json()["code"] == "too_many_waiting_games"
    assert r.json()["extra"]["limit"] == 3
    assert Game.objects.filter(creator=me).count() == 3
    # Calling one off makes room.
    first = Game.objects.filter(creator=me).first()
    assert client.post(f"/api/v1/games/{first.public_id}/abort/").status_code == 200
    assert _create(client, [{"kind": "me"}, *OPEN3]).status_code == 201


def test_games_created_per_hour_are_capped_with_a_429(settings: Any) -> None:
    settings.GAMES_MAX_CREATED_PER_HOUR = 4
    me = PlayerFactory()
    client = client_for(me.user)
    for _ in range(4):
        game_id = _create(client, [{"kind": "me"}, *OPEN3]).json()["id"]
        client.post(f"/api/v1/games/{game_id}/abort/")  # not waiting: only the hourly cap
    r = _create(client, [{"kind": "me"}, *OPEN3])
    assert r.status_code == 429 and r.json()["code"] == "too_many_new_games"
    assert 1 <= r.json()["extra"]["retry_after"] <= 3601
    assert r.headers["Retry-After"] == str(r.json()["extra"]["retry_after"])
    assert Game.objects.filter(creator=me).count() == 4


def test_a_game_seats_its_creator_or_one_of_the_creators_bots() -> None:
    me, other = PlayerFactory(), PlayerFactory()
    client = client_for(me.user)
    r = _create(client, [{"kind": "player", "name": other.name}, *OPEN3])
    assert r.status_code == 409 and r.json()["code"] == "creator_not_seated"
    house = [BotPlayerFactory(owner=other.user) for _ in range(4)]
    r = _create(client, [{"kind": "bot", "name": b.name} for b in house])
    assert r.status_code == 409 and r.json()["code"] == "creator_not_seated"
    assert not Game.objects.exists()
    mine = BotPlayerFactory(owner=me.user)
    r = _create(client, [{"kind": "bot", "name": mine.name}, *OPEN3])
    assert r.status_code == 201
