"""One click against house bots, from the home page and My games; one greeting after sign-up."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from bots.house import house_bots_ensure
from games.models import Game, GameStatus
from tests.factories import PlayerFactory
from tests.web.conftest import signed_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def house(db) -> None:  # type: ignore[no-untyped-def]
    house_bots_ensure()


@pytest.mark.parametrize("page", ["home", "my-games"])
def test_the_one_click_form_is_on_home_and_my_games(house, page: str) -> None:  # type: ignore[no-untyped-def]
    html = signed_in(PlayerFactory().user).get(reverse(page)).content.decode()
    assert f'action="{reverse("play-bots")}"' in html
    for strength in ("easy", "medium", "hard"):
        assert f'value="{strength}"' in html
    assert 'name="rated" value="on" checked' in html


@pytest.mark.parametrize(("strength", "strategy"), [("easy", "random"), ("hard", "strong")])
def test_one_click_starts_a_rated_game_against_three_house_bots(
    house,  # type: ignore[no-untyped-def]
    strength: str,
    strategy: str,
) -> None:
    me = PlayerFactory()
    r = signed_in(me.user).post(reverse("play-bots"), {"strength": strength, "rated": "on"})
    game = Game.objects.get()
    assert r.status_code == 302 and r["Location"] == reverse("game-table", args=[game.public_id])
    assert game.rated and game.status == GameStatus.ACTIVE and game.creator == me
    seats = list(game.seats.order_by("position").select_related("player__bot"))
    assert seats[0].player == me
    assert all(s.player.is_house and s.player.bot.strategy == strategy for s in seats[1:])


def test_one_click_unrated_when_unticked_and_an_unknown_strength_is_refused(house) -> None:  # type: ignore[no-untyped-def]
    client = signed_in(PlayerFactory().user)
    client.post(reverse("play-bots"), {"strength": "easy", "rated": "off"})
    assert Game.objects.get().rated is False
    r = client.post(reverse("play-bots"), {"strength": "godlike"}, follow=True)
    assert Game.objects.count() == 1
    assert "strength is one of easy, medium, hard" in r.content.decode()


def test_sign_up_greets_once(client: Client) -> None:
    r = client.post(
        reverse("signup"),
        {
            "username": "newbie",
            "name": "Newbie-1",
            "password1": "a-Long-pass-77",
            "password2": "a-Long-pass-77",
        },
        follow=True,
    )
    html = r.content.decode()
    assert "Welcome to the club" in html and "Welcome back" not in html
    assert "Welcome back" in client.get(reverse("home")).content.decode()


def test_rematch_keeps_the_seats_with_a_new_seed_and_invites_the_other_people(house) -> None:  # type: ignore[no-untyped-def]
    from bots.house import house_players
    from games import services
    from games.models import Invitation

    me, friend = PlayerFactory(), PlayerFactory()
    bots = house_players(strength="easy", count=2)
    game = services.game_create(creator=me, seats=[me, bots[0], friend, bots[1]])
    Game.objects.filter(pk=game.pk).update(status=GameStatus.FINISHED, total_0=10, total_1=5)
    # Only a player of the finished game may ask for it.
    r = signed_in(PlayerFactory().user).post(reverse("game-rematch", args=[game.public_id]))
    assert Game.objects.count() == 1
    r = signed_in(me.user).post(reverse("game-rematch", args=[game.public_id]))
    again = Game.objects.exclude(pk=game.pk).get()
    assert r["Location"] == reverse("game-table", args=[again.public_id])
    assert again.seed != game.seed and again.options == game.options
    seated = dict(again.seats.values_list("position", "player_id"))
    assert seated == {0: me.pk, 1: bots[0].pk, 3: bots[1].pk}  # the friend is invited
    invite = Invitation.objects.get(game=again)
    assert (invite.position, invite.player_id) == (2, friend.pk)
