"""The house bots: a newcomer starts a game against three bots by name, and they play."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from bots import turns
from bots.models import Bot
from games.models import Game, Move

pytestmark = pytest.mark.django_db

house = importlib.import_module("bots.migrations.0002_house_bots")


@pytest.fixture
def house_bots(db):  # type: ignore[no-untyped-def]
    # The data migration made them; a flush by an earlier transactional test may not have
    # restored them, and the migration's function is idempotent.
    house.create_house_bots(apps, None)


def test_the_house_bots_are_hosted_bots_of_each_strategy(house_bots) -> None:  # type: ignore[no-untyped-def]
    bots = {b.player.name: b for b in Bot.objects.filter(player__owner__username="house")}
    assert {n: b.strategy for n, b in bots.items()} == {
        "house-random": "random",
        "house-heuristic": "heuristic",
        "house-heuristic-2": "heuristic",
        "house-strong": "strong",
    }
    assert all(b.kind == "hosted" and b.player.is_bot for b in bots.values())
    house.create_house_bots(apps, None)  # running it again changes nothing
    assert Bot.objects.filter(player__owner__username="house").count() == 4


def test_a_newcomer_plays_against_three_house_bots_by_name(house_bots, api) -> None:  # type: ignore[no-untyped-def]
    seats = [{"kind": "me"}] + [
        {"kind": "bot", "name": n} for n in ("house-random", "house-heuristic", "house-strong")
    ]
    r = api.post("/api/v1/games/", {"seats": seats}, format="json")
    assert r.status_code == 201, r.json()
    game = Game.objects.get(public_id=r.json()["id"])
    assert game.status == "active"
    # Play the bots' turns (as the worker would) until the newcomer is to act.
    while game.to_act != 0:
        assert turns.play_turn(game_id=game.pk, expected_seq=game.move_count) == "played"
        game.refresh_from_db()
    assert set(Move.objects.filter(game=game).values_list("submitted_by", flat=True)) <= {"bot"}
    legal = api.get(f"/api/v1/games/{game.public_id}/legal/").json()
    assert legal["seat"] == 0 and legal["actions"]
