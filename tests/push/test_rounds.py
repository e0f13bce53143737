"""A tournament's round starting, a game called off and "everyone is at your table" reach
the person's devices too, each once per device, as their switches and quiet hours allow."""

from __future__ import annotations

from datetime import UTC, datetime, time
from typing import Any

import pytest
import time_machine

from clock.models import NotificationPreference
from clock.together import everyone_else_here
from games.models import Game, Seat
from games.services import game_call_off, game_create
from push import tasks
from push.models import PushSent
from tests.factories import PlayerFactory
from tests.push.helpers import Browser, FakePushService, subscribe
from tests.tournaments.helpers import event, pairs
from tournaments import services as tournament_services
from tournaments.models import Table

pytestmark = pytest.mark.django_db(transaction=True)


def _titled(service: FakePushService, phone: Browser, start: str) -> list[dict[str, Any]]:
    return [p for p in service.delivered(phone) if p["title"].startswith(start)]


def _round_one(service: FakePushService) -> tuple[Any, Game, dict[int, Browser]]:
    """A tournament of two partnerships, each person with a phone, started: one table."""
    t = event(name="Friday Swiss")
    entrants = pairs(t, 2)
    phones: dict[int, Browser] = {}
    for entrant in entrants:
        for player in (entrant.player_a, entrant.player_b):
            phones[player.pk] = service.browser(f"p{player.pk}")
            subscribe(player, phones[player.pk])
    tournament_services.tournament_start(tournament_id=t.pk, by=t.organiser)
    game = Table.objects.select_related("game").get(round__tournament=t).game
    return t, game, phones


def test_a_round_starting_tells_each_person_at_the_table_once_which_table_is_theirs(
    push_service: FakePushService,
) -> None:
    t, game, phones = _round_one(push_service)
    for phone in phones.values():
        (payload,) = _titled(push_service, phone, "Round 1")
        assert payload == {
            "title": "Round 1 of Friday Swiss has started",
            "body": f"You play at table 1: game {game.public_id}.",
            "url": f"/games/{game.public_id}/",
            "tag": f"game-{game.public_id}",
        }
    # The outbox's second delivery, a retry: nobody is told twice.
    for player_id in phones:
        tasks.push_round_start.apply(kwargs={"game_id": game.pk, "player_id": player_id})
    tasks.push_round.apply(kwargs={"game_id": game.pk})
    assert all(len(_titled(push_service, p, "Round 1")) == 1 for p in phones.values())
    assert PushSent.objects.filter(key=f"round:{game.pk}").count() == 4


def test_a_game_outside_every_tournament_tells_no_round(push_service: FakePushService) -> None:
    people = [PlayerFactory() for _ in range(4)]
    phones = [push_service.browser(f"n{i}") for i in range(4)]
    for person, phone in zip(people, phones, strict=True):
        subscribe(person, phone)
    game_create(creator=people[0], seats=people, options={"rated": False})
    assert not any(_titled(push_service, p, "Round") for p in phones)
    assert not PushSent.objects.filter(key__startswith="round:").exists()


def test_the_round_switch_and_quiet_hours_hold_a_round_s_start(
    push_service: FakePushService,
) -> None:
    t = event(name="Night owls")
    entrants = pairs(t, 2)
    off, quiet, *rest = [p for e in entrants for p in (e.player_a, e.player_b)]
    NotificationPreference.objects.create(player=off, round_push=False)
    NotificationPreference.objects.create(
        player=quiet, quiet_from=time(22, 0), quiet_until=time(7, 0), time_zone="UTC"
    )
    phones = {p.pk: push_service.browser(f"r{p.pk}") for p in (off, quiet, *rest)}
    for p in (off, quiet, *rest):
        subscribe(p, phones[p.pk])
    with time_machine.travel(datetime(2026, 12, 2, 23, 0, tzinfo=UTC), tick=True):
        tournament_services.tournament_start(tournament_id=t.pk, by=t.organiser)
    assert not _titled(push_service, phones[off.pk], "Round")
    assert not _titled(push_service, phones[quiet.pk], "Round")  # held until 07:00
    assert all(len(_titled(push_service, phones[p.pk], "Round 1")) == 1 for p in rest)


def test_a_game_called_off_tells_every_person_seated_that_it_ended_without_a_score(
    push_service: FakePushService,
) -> None:
    people = [PlayerFactory() for _ in range(4)]
    phones = [push_service.browser(f"c{i}") for i in range(4)]
    for person, phone in zip(people, phones, strict=True):
        subscribe(person, phone)
    game = game_create(creator=people[0], seats=people, options={"rated": False})
    game_call_off(game_id=game.pk)
    for phone in phones:
        (payload,) = _titled(push_service, phone, f"Game {game.public_id} is over")
        assert payload["body"] == "The game was called off before its end."
        assert payload["url"] == f"/games/{game.public_id}/"
    tasks.push_game_over.apply(kwargs={"game_id": game.pk})  # delivered again: told once
    assert all(len(_titled(push_service, p, "Game")) == 1 for p in phones)


def test_everyone_at_your_table_is_pushed_with_the_your_move_switch(
    push_service: FakePushService,
) -> None:
    people = [PlayerFactory() for _ in range(4)]
    away = people[3]
    phone = push_service.browser("away")
    subscribe(away, phone)
    game = Game.objects.get(
        pk=game_create(creator=people[0], seats=people, options={"rated": False}).pk
    )
    seats = list(Seat.objects.select_related("player").filter(game=game).order_by("position"))
    everyone_else_here(None, game=game, seats=seats, here=[True, True, True, False])
    (payload,) = _titled(push_service, phone, "Everyone is at your table")
    assert payload["url"] == f"/games/{game.public_id}/"
    assert payload["tag"] == f"together-{game.public_id}"

    # With "your move" switched off, the call to the table is not pushed either.
    other = PlayerFactory()
    quiet_phone = push_service.browser("no-turns")
    subscribe(other, quiet_phone)
    NotificationPreference.objects.create(player=other, turn_push=False)
    second = Game.objects.get(
        pk=game_create(creator=people[0], seats=[*people[:3], other], options={"rated": False}).pk
    )
    seats = list(Seat.objects.select_related("player").filter(game=second).order_by("position"))
    everyone_else_here(None, game=second, seats=seats, here=[True, True, True, False])
    assert push_service.to(quiet_phone) == []
