"""Deleting a bot that has played retires it for real (issue 12, finding 7)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from bots.arena.models import ArenaEntry
from bots.models import Bot, BotKind
from games import services
from games.errors import PlayerRetired
from games.models import GameStatus, Invitation, InvitationStatus
from tests.factories import ApiTokenFactory, BotPlayerFactory, PlayerFactory, auth_header

pytestmark = pytest.mark.django_db


def _client(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_a_deleted_bot_that_played_loses_its_tokens_seats_and_invitations() -> None:
    owner, friend = PlayerFactory(), PlayerFactory()
    bot = BotPlayerFactory(owner=owner.user)
    row = Bot.objects.create(player=bot, kind=BotKind.API)
    ArenaEntry.objects.create(bot=row, opted_in=True)
    token = ApiTokenFactory(user=owner.user, bot=bot, scopes=["bot"])
    others = [PlayerFactory() for _ in range(3)]
    services.game_create(creator=owner, seats=[bot, *others])  # it has played
    waiting = services.game_create(
        creator=owner, seats=[owner, bot, None, None], options={"rated": False}
    )
    invited = _client(friend.user).post(
        "/api/v1/games/",
        {"seats": [{"kind": "me"}, {"kind": "bot", "name": bot.name}] + [{"kind": "open"}] * 2},
        format="json",
    )
    assert invited.status_code == 201 and invited.json()["seats"][1] is None
    assert APIClient().get("/api/v1/me/", **auth_header(token)).status_code == 200

    r = _client(owner.user).delete(f"/api/v1/bots/{bot.name}/")
    assert r.status_code == 200 and r.json() == {"result": "disabled"}

    # It left the arena.
    assert ArenaEntry.objects.get(bot=row).opted_in is False
    # Its token no longer works.
    r = APIClient().get("/api/v1/me/", **auth_header(token))
    assert r.status_code == 401 and r.json()["code"] == "token_revoked"
    # It left the waiting game, and its invitation was declined.
    assert not waiting.seats.filter(player=bot).exists()
    assert Invitation.objects.get(player=bot).status == InvitationStatus.DECLINED
    # It can be neither seated nor invited again, by its owner or anyone.
    for client, seats in (
        (_client(owner.user), [{"kind": "me"}, {"kind": "bot", "name": bot.name}]),
        (_client(friend.user), [{"kind": "me"}, {"kind": "bot", "name": bot.name}]),
    ):
        r = client.post("/api/v1/games/", {"seats": seats + [{"kind": "open"}] * 2}, format="json")
        assert r.status_code == 409 and r.json()["code"] == "player_retired"
    open_game = services.game_create(creator=friend, seats=[friend, None, None, None])
    r = _client(owner.user).post(
        f"/api/v1/games/{open_game.public_id}/seats/", {"bot": bot.name}, format="json"
    )
    assert r.status_code == 409 and r.json()["code"] == "player_retired"
    with pytest.raises(PlayerRetired):
        services.game_join_seat(game_id=open_game.pk, player=bot)
    # Gone from the owner's list; its finished record keeps its name.
    names = [b["name"] for b in _client(owner.user).get("/api/v1/bots/").json()["results"]]
    assert bot.name not in names
    assert waiting.status == GameStatus.WAITING
