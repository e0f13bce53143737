"""The notice "everyone is at your table" (clock.together): told to the one person whose
seat is away while every other seat is there, in the app, at most once per game an hour."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from clock.models import Notification, NotificationKind
from games.services import game_create
from tests.factories import BotPlayerFactory, PlayerFactory
from tests.games.conftest import clear_presence, client_for

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_marks() -> None:
    clear_presence()


def _shown(player: Any, game: Any) -> None:
    r = client_for(player.user).post(
        f"/api/v1/games/{game.public_id}/presence/", {"shown": True}, format="json"
    )
    assert r.status_code == 200, r.content


def _told(player: Any) -> list[Notification]:
    return list(Notification.objects.filter(player=player, kind=NotificationKind.TOGETHER))


def test_the_one_person_away_is_told_once_when_everyone_else_is_there() -> None:
    people = [PlayerFactory() for _ in range(4)]
    game = game_create(creator=people[0], seats=people)
    _shown(people[0], game)
    _shown(people[1], game)
    assert not any(_told(p) for p in people)  # two are still away: nobody is told
    _shown(people[2], game)
    (notice,) = _told(people[3])
    assert notice.game_id == game.pk and game.public_id in notice.title
    assert not any(_told(p) for p in people[:3])
    for p in people[:3]:  # the pings go on: still once
        _shown(p, game)
    assert len(_told(people[3])) == 1
    cache.clear()  # even past the cheap gate, the hour holds
    _shown(people[0], game)
    assert len(_told(people[3])) == 1


def test_a_bot_is_always_there_and_never_told() -> None:
    people = [PlayerFactory() for _ in range(3)]
    bot = BotPlayerFactory()
    game = game_create(creator=people[0], seats=[people[0], bot, people[1], people[2]])
    _shown(people[0], game)
    _shown(people[1], game)
    assert len(_told(people[2])) == 1
    assert not _told(bot)


def test_nobody_is_told_when_everyone_is_there() -> None:
    people = [PlayerFactory() for _ in range(4)]
    game = game_create(creator=people[0], seats=people)
    for p in people:
        _shown(p, game)
    assert not any(_told(p) for p in people[:3])
    # The last one was told before arriving (when the other three were there), not after.
    assert len(_told(people[3])) == 1
