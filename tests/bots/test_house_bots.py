"""The house bots: system players. A newcomer starts a rated game against three of them,
by name or by strength, and they play; a user's own bots still take one seat per account."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from accounts.models import Player
from bots import house as house_roster
from bots import turns
from bots.models import Bot
from games.errors import BadGameSetup
from games.models import Game, Move
from games.services import game_create
from tests.factories import BotPlayerFactory, PlayerFactory

pytestmark = pytest.mark.django_db

house = importlib.import_module("bots.migrations.0002_house_bots")


@pytest.fixture
def house_bots(db):  # type: ignore[no-untyped-def]
    # The data migration made them; a flush by an earlier transactional test may not have
    # restored them, and the migration's function is idempotent.
    house.create_house_bots(apps, None)
    house_roster.house_bots_ensure()


def test_the_house_bots_are_hosted_system_players_three_per_strength(house_bots) -> None:  # type: ignore[no-untyped-def]
    bots = {b.player.name: b for b in Bot.objects.filter(player__owner__username="house")}
    assert {n: b.strategy for n, b in bots.items()} == {
        "house-random": "random",
        "house-random-2": "random",
        "house-random-3": "random",
        "house-heuristic": "heuristic",
        "house-heuristic-2": "heuristic",
        "house-heuristic-3": "heuristic",
        "house-strong": "strong",
        "house-strong-2": "strong",
        "house-strong-3": "strong",
    }
    assert all(b.kind == "hosted" and b.player.is_bot and b.player.is_house for b in bots.values())
    house.create_house_bots(apps, None)  # running either again changes nothing
    house_roster.house_bots_ensure()
    assert Bot.objects.filter(player__owner__username="house").count() == 9
    for strength in ("easy", "medium", "hard"):
        assert len({p.pk for p in house_roster.house_players(strength=strength)}) == 3


def test_the_migrations_mark_the_original_house_bots_as_system_players() -> None:
    # The test database was built by the migrations (a later flush may have removed rows).
    marked = set(Player.objects.filter(is_house=True).values_list("name", flat=True))
    if not marked:
        pytest.skip("an earlier transactional test flushed the migrations' rows")
    assert {"house-random", "house-heuristic", "house-heuristic-2", "house-strong"} <= marked
    assert not Player.objects.filter(is_house=True, is_bot=False).exists()


def test_a_rated_game_seats_three_house_bots_but_still_one_seat_per_users_own_bots(
    house_bots,  # type: ignore[no-untyped-def]
) -> None:
    me = PlayerFactory()
    bots = house_roster.house_players(strength="medium")
    game = game_create(creator=me, seats=[me, *bots], options={"rated": True})
    assert game.rated and game.status == "active"
    # A user's own two bots are still one account holding two seats.
    owner = PlayerFactory()
    mine = [BotPlayerFactory(owner=owner.user) for _ in range(2)]
    with pytest.raises(BadGameSetup) as err:
        game_create(creator=owner, seats=[owner, mine[0], bots[0], None], options={"rated": True})
    assert err.value.code == "one_seat_per_account"
    with pytest.raises(BadGameSetup):
        game_create(creator=owner, seats=[mine[0], mine[1], bots[0], None], options={"rated": True})
    assert Game.objects.count() == 1
    with pytest.raises(house_roster.UnknownStrength):
        house_roster.house_players(strength="godlike")


def test_a_newcomer_plays_against_three_house_bots_by_name(house_bots, api) -> None:  # type: ignore[no-untyped-def]
    seats = [{"kind": "me"}] + [
        {"kind": "bot", "name": n} for n in ("house-random", "house-heuristic", "house-strong")
    ]
    r = api.post("/api/v1/games/", {"seats": seats, "options": {"rated": True}}, format="json")
    assert r.status_code == 201, r.json()
    game = Game.objects.get(public_id=r.json()["id"])
    assert game.status == "active" and game.rated
    # Play the bots' turns (as the worker would) until the newcomer is to act.
    while game.to_act != 0:
        assert turns.play_turn(game_id=game.pk, expected_seq=game.move_count) == "played"
        game.refresh_from_db()
    assert set(Move.objects.filter(game=game).values_list("submitted_by", flat=True)) <= {"bot"}
    legal = api.get(f"/api/v1/games/{game.public_id}/legal/").json()
    assert legal["seat"] == 0 and legal["actions"]
