"""Invitations: nobody is seated in a game without agreeing to it (issue 12, finding 3)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone
from rest_framework.test import APIClient

from bots.models import Bot, BotKind
from clock.models import Notification, NotificationPreference
from games import invitations
from games.models import Game, GameStatus, Invitation, InvitationRule, InvitationStatus
from tests.factories import BotPlayerFactory, PlayerFactory
from tests.games.conftest import accept_invitations, client_for

pytestmark = pytest.mark.django_db(transaction=True)


def _create(client: Any, seats: list[dict[str, Any]], **options: Any) -> Any:
    return client.post("/api/v1/games/", {"seats": seats, "options": options}, format="json")


def _named(*players: Any) -> list[dict[str, Any]]:
    return [{"kind": "bot" if p.is_bot else "player", "name": p.name} for p in players]


def _pending(client: Any) -> list[dict[str, Any]]:
    r = client.get("/api/v1/invitations/")
    assert r.status_code == 200, r.content
    return r.json()["results"]


def test_naming_people_invites_them_and_the_game_starts_only_when_all_accept() -> None:
    me, *others = [PlayerFactory() for _ in range(4)]
    r = _create(client_for(me.user), [{"kind": "me"}, *_named(*others)], rated=True)
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["status"] == "waiting"
    assert body["seats"][1:] == [None, None, None]
    assert [(i["position"], i["player"]) for i in body["invited"]] == [
        (1, others[0].name),
        (2, others[1].name),
        (3, others[2].name),
    ]
    game = Game.objects.get(public_id=body["id"])
    # Two accept: still waiting, nobody was rated or timed against their will.
    accept_invitations(game.public_id, [client_for(p.user) for p in others[:2]])
    game.refresh_from_db()
    assert game.status == GameStatus.WAITING and game.seats.count() == 3
    accept_invitations(game.public_id, [client_for(others[2].user)])
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    assert sorted(game.seats.values_list("player_id", flat=True)) == sorted(
        p.pk for p in [me, *others]
    )


def test_an_invited_seat_is_held_and_a_declined_one_opens() -> None:
    me, bob, carol = PlayerFactory(), PlayerFactory(), PlayerFactory()
    r = _create(client_for(me.user), [{"kind": "me"}, *_named(bob), {"kind": "open"}])
    assert r.status_code == 400 and not Invitation.objects.exists()  # three seats
    seats = [{"kind": "me"}, *_named(bob), {"kind": "open"}, {"kind": "open"}]
    game_id = _create(client_for(me.user), seats).json()["id"]
    carol_client = client_for(carol.user)
    r = carol_client.post(f"/api/v1/games/{game_id}/seats/", {"position": 1}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "seat_taken"
    r = client_for(bob.user).post(f"/api/v1/games/{game_id}/seats/", {}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "already_invited"
    (inv,) = _pending(client_for(bob.user))
    r = client_for(bob.user).post(f"/api/v1/invitations/{inv['id']}/decline/")
    assert r.status_code == 200 and r.json()["status"] == "declined"
    r = client_for(bob.user).post(f"/api/v1/invitations/{inv['id']}/accept/")
    assert r.status_code == 409 and r.json()["code"] == "invitation_closed"
    r = carol_client.post(f"/api/v1/games/{game_id}/seats/", {"position": 1}, format="json")
    assert r.status_code == 201, r.content


def test_only_the_invitee_may_answer_and_a_read_token_may_not() -> None:
    from tests.factories import ApiTokenFactory, auth_header

    me, bob, eve = PlayerFactory(), PlayerFactory(), PlayerFactory()
    r = _create(client_for(me.user), [{"kind": "me"}, *_named(bob), *[{"kind": "open"}] * 2])
    assert r.status_code == 201
    (inv,) = _pending(client_for(bob.user))
    r = client_for(eve.user).post(f"/api/v1/invitations/{inv['id']}/accept/")
    assert r.status_code == 404 and r.json()["code"] == "invitation_not_found"
    read = ApiTokenFactory(user=bob.user, scopes=["read"])
    r = APIClient().post(f"/api/v1/invitations/{inv['id']}/accept/", **auth_header(read))
    assert r.status_code == 403 and r.json()["code"] == "insufficient_scope"
    assert Invitation.objects.get(pk=inv["id"]).status == InvitationStatus.PENDING


def test_an_expired_invitation_cannot_be_accepted_and_its_seat_opens(settings: Any) -> None:
    me, bob = PlayerFactory(), PlayerFactory()
    game_id = _create(
        client_for(me.user), [{"kind": "me"}, *_named(bob), *[{"kind": "open"}] * 2]
    ).json()["id"]
    inv = Invitation.objects.get(game__public_id=game_id)
    lifetime = timedelta(hours=settings.GAMES_INVITATION_HOURS)
    assert abs(inv.expires_at - inv.created_at - lifetime) < timedelta(seconds=10)
    Invitation.objects.filter(pk=inv.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert _pending(client_for(bob.user)) == []
    r = client_for(bob.user).post(f"/api/v1/invitations/{inv.pk}/accept/")
    assert r.status_code == 409 and r.json()["code"] == "invitation_closed"
    listed = client_for(bob.user).get("/api/v1/games/open/").json()["results"]
    assert game_id in [g["id"] for g in listed]
    assert invitations.invitations_expire() == 1
    assert Invitation.objects.get(pk=inv.pk).status == InvitationStatus.EXPIRED
    assert Notification.objects.filter(player=me, kind="invitation").count() == 1


def test_own_bots_are_seated_at_once_and_other_owners_bots_are_invited() -> None:
    me, stranger = PlayerFactory(), PlayerFactory()
    mine = BotPlayerFactory(owner=me.user)
    theirs = BotPlayerFactory(owner=stranger.user)
    other_person = PlayerFactory()
    seats = [{"kind": "me"}, *_named(mine, theirs, other_person)]
    r = _create(client_for(me.user), seats, rated=False)
    body = r.json()
    assert body["seats"][1]["player"] == mine.name
    assert body["seats"][2] is None and body["seats"][3] is None
    # The bot's owner answers for it.
    (inv,) = _pending(client_for(stranger.user))
    assert inv["player"] == theirs.name and inv["is_bot"]


def test_a_bot_can_accept_invitations_automatically_from_anyone_or_listed_players() -> None:
    owner, friend, stranger = PlayerFactory(), PlayerFactory(), PlayerFactory()
    bot = BotPlayerFactory(owner=owner.user)
    Bot.objects.create(player=bot, kind=BotKind.API)
    invitations.invitation_rule_set(player=bot, accept_from="listed", listed=[friend])
    seats = [{"kind": "me"}, *_named(bot), *[{"kind": "open"}] * 2]
    assert _create(client_for(friend.user), seats).json()["seats"][1]["player"] == bot.name
    assert _create(client_for(stranger.user), seats).json()["seats"][1] is None
    r = client_for(owner.user).patch(
        f"/api/v1/bots/{bot.name}/", {"accept_invitations": "anyone"}, format="json"
    )
    assert r.status_code == 200 and r.json()["accept_invitations"] == "anyone"
    assert InvitationRule.objects.get(player=bot).accept_from == "anyone"
    assert _create(client_for(stranger.user), seats).json()["seats"][1]["player"] == bot.name


@pytest.fixture
def _mail_tasks_inline() -> Iterator[None]:
    """The mail's task (queue "notify", sent once the invitation commits) runs in the test."""
    from backalley_site.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before


@pytest.mark.usefixtures("_mail_tasks_inline")
def test_the_invitee_is_notified_in_app_and_by_email_as_allowed(settings: Any) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    me, bob, carol = PlayerFactory(), PlayerFactory(), PlayerFactory()
    NotificationPreference.objects.create(player=carol, invitation_email=False)
    _create(client_for(me.user), [{"kind": "me"}, *_named(bob, carol), {"kind": "open"}])
    assert Notification.objects.filter(player=bob, kind="invitation").count() == 1
    assert Notification.objects.filter(player=carol, kind="invitation").count() == 1
    assert [m.to for m in mail.outbox] == [[bob.user.email]]
    (inv,) = _pending(client_for(bob.user))
    client_for(bob.user).post(f"/api/v1/invitations/{inv['id']}/accept/")
    assert Notification.objects.filter(player=me, kind="invitation", title__contains="accepted")


def test_the_site_invites_and_my_games_answers(client: Any) -> None:
    me, bob = PlayerFactory(), PlayerFactory()
    client.force_login(me.user)
    r = client.post("/games/new/", {"partner": bob.name, "rated": "on"})
    assert r.status_code == 302
    game = Game.objects.get(creator=me)
    assert game.status == GameStatus.WAITING and game.seats.count() == 1
    client.force_login(bob.user)
    page = client.get("/games/").content.decode()
    inv = Invitation.objects.get(game=game)
    assert f"/games/invitations/{inv.pk}/" in page and "invites you" in page
    r = client.post(f"/games/invitations/{inv.pk}/", {"answer": "accept"})
    assert r.status_code == 302
    assert game.seats.filter(player=bob, position=2).exists()


def _invite(client: Any, game_id: str, position: int, player: Any) -> Any:
    kind = "bot" if player.is_bot else "player"
    return client.post(
        f"/api/v1/games/{game_id}/invitations/",
        {"position": position, "kind": kind, "name": player.name},
        format="json",
    )


def test_the_creator_invites_someone_else_to_a_declined_seat() -> None:
    me, bob, carol = PlayerFactory(), PlayerFactory(), PlayerFactory()
    seats = [{"kind": "me"}, *_named(bob), {"kind": "open"}, {"kind": "open"}]
    game_id = _create(client_for(me.user), seats).json()["id"]
    (inv,) = _pending(client_for(bob.user))
    client_for(bob.user).post(f"/api/v1/invitations/{inv['id']}/decline/")
    r = _invite(client_for(me.user), game_id, 1, carol)
    assert r.status_code == 201, r.content
    assert [(i["position"], i["player"]) for i in r.json()["invited"]] == [(1, carol.name)]
    assert r.json()["seats"][1] is None  # held, not taken: carol has not agreed yet
    assert Notification.objects.filter(player=carol, kind="invitation").count() == 1
    accept_invitations(game_id, [client_for(carol.user)])
    assert Game.objects.get(public_id=game_id).seats.filter(player=carol, position=1).exists()


def test_an_expired_invitations_seat_can_be_offered_to_another() -> None:
    me, bob, carol = PlayerFactory(), PlayerFactory(), PlayerFactory()
    seats = [{"kind": "me"}, *_named(bob), {"kind": "open"}, {"kind": "open"}]
    game_id = _create(client_for(me.user), seats).json()["id"]
    old = Invitation.objects.get(game__public_id=game_id)
    Invitation.objects.filter(pk=old.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    # Not swept yet: the row still says pending, but the seat is open and may be offered.
    r = _invite(client_for(me.user), game_id, 1, carol)
    assert r.status_code == 201, r.content
    assert Invitation.objects.get(pk=old.pk).status == InvitationStatus.EXPIRED
    assert Invitation.objects.get(game=old.game, status=InvitationStatus.PENDING).player == carol
    # The expired invitee may be asked again, to another seat.
    r = _invite(client_for(me.user), game_id, 3, bob)
    assert r.status_code == 201, r.content
    assert sorted((i["position"], i["player"]) for i in r.json()["invited"]) == [
        (1, carol.name),
        (3, bob.name),
    ]


def test_own_and_house_bots_sit_down_at_once_and_the_fourth_starts_the_game() -> None:
    me, bob = PlayerFactory(), PlayerFactory()
    mine = BotPlayerFactory(owner=me.user)
    house = BotPlayerFactory(is_house=True)
    seats = [{"kind": "me"}, *_named(bob), {"kind": "open"}, {"kind": "open"}]
    game_id = _create(client_for(me.user), seats, rated=False).json()["id"]
    r = _invite(client_for(me.user), game_id, 2, mine)
    assert r.status_code == 201 and r.json()["seats"][2]["player"] == mine.name
    accept_invitations(game_id, [client_for(bob.user)])
    r = _invite(client_for(me.user), game_id, 3, house)
    assert r.status_code == 201 and r.json()["status"] == "active"
    assert Invitation.objects.filter(game__public_id=game_id).count() == 1  # bob's only


def test_a_refused_invitation_says_why_and_changes_nothing() -> None:
    me, bob, carol, dave = (PlayerFactory() for _ in range(4))
    seats = [{"kind": "me"}, *_named(bob), {"kind": "open"}, {"kind": "open"}]
    game_id = _create(client_for(me.user), seats).json()["id"]
    client_for(carol.user).post(f"/api/v1/games/{game_id}/seats/", {"position": 2}, format="json")

    def rows() -> list[Any]:
        return list(Invitation.objects.order_by("pk").values_list("pk", "status", "position"))

    before = rows()

    def refused(r: Any, status: int, code: str) -> None:
        assert (r.status_code, r.json()["code"]) == (status, code), r.content
        assert rows() == before and Game.objects.get(public_id=game_id).seats.count() == 2

    refused(_invite(client_for(carol.user), game_id, 3, dave), 403, "not_your_seat")
    refused(_invite(client_for(me.user), game_id, 2, dave), 409, "seat_taken")  # carol's
    refused(_invite(client_for(me.user), game_id, 1, dave), 409, "seat_taken")  # held for bob
    refused(_invite(client_for(me.user), game_id, 3, carol), 409, "already_seated")
    refused(_invite(client_for(me.user), game_id, 3, bob), 409, "already_invited")
    nobody = {"position": 3, "kind": "player", "name": "nobody-here"}
    url = f"/api/v1/games/{game_id}/invitations/"
    refused(client_for(me.user).post(url, nobody, format="json"), 400, "unknown_player")
    r = client_for(me.user).post(url, {"position": 4, "kind": "player"}, format="json")
    refused(r, 400, "invalid")
    assert set(r.json()["extra"]["fields"]) >= {"position", "name"}
    Game.objects.filter(public_id=game_id).update(status=GameStatus.ACTIVE)
    refused(_invite(client_for(me.user), game_id, 3, dave), 409, "game_not_waiting")


def test_a_game_sends_a_limited_number_of_invitations(settings: Any) -> None:
    settings.GAMES_MAX_INVITATIONS_PER_GAME = 2
    me, bob, carol, dave = (PlayerFactory() for _ in range(4))
    seats = [{"kind": "me"}, *_named(bob), {"kind": "open"}, {"kind": "open"}]
    game_id = _create(client_for(me.user), seats, rated=False).json()["id"]
    Invitation.objects.filter(player=bob).update(status=InvitationStatus.DECLINED)
    assert _invite(client_for(me.user), game_id, 1, carol).status_code == 201
    Invitation.objects.filter(player=carol).update(status=InvitationStatus.DECLINED)
    r = _invite(client_for(me.user), game_id, 1, dave)
    assert r.status_code == 409 and r.json()["code"] == "too_many_invitations"
    assert r.json()["extra"] == {"limit": 2}
    assert not Invitation.objects.filter(player=dave).exists()
    # The seat stays open to anyone, and the creator's own bot may still sit down.
    mine = BotPlayerFactory(owner=me.user)
    assert _invite(client_for(me.user), game_id, 1, mine).status_code == 201


def test_a_rated_game_seats_each_account_once_counting_invitations() -> None:
    me, eve = PlayerFactory(), PlayerFactory()
    eves_bot = BotPlayerFactory(owner=eve.user)
    seats = [{"kind": "me"}, *_named(eve), {"kind": "open"}, {"kind": "open"}]
    game_id = _create(client_for(me.user), seats, rated=True).json()["id"]
    r = _invite(client_for(me.user), game_id, 3, eves_bot)
    assert r.status_code == 400 and r.json()["code"] == "one_seat_per_account", r.content
    assert Invitation.objects.filter(game__public_id=game_id).count() == 1
    # The same for a bot of hers that would sit down at once (a standing yes): refused now,
    # not when eve comes to accept.
    eager = BotPlayerFactory(owner=eve.user)
    Bot.objects.create(player=eager, kind=BotKind.API)
    invitations.invitation_rule_set(player=eager, accept_from="anyone")
    r = _invite(client_for(me.user), game_id, 3, eager)
    assert r.status_code == 400 and r.json()["code"] == "one_seat_per_account", r.content
    assert Game.objects.get(public_id=game_id).seats.count() == 1


def test_the_site_shows_held_seats_and_lets_the_creator_invite_and_call_off(client: Any) -> None:
    me, bob, carol, dave = (PlayerFactory() for _ in range(4))
    client.force_login(me.user)
    client.post("/games/new/", {"partner": bob.name})
    game = Game.objects.get(creator=me)
    url = f"/games/{game.public_id}/"
    page = client.get(url).content.decode()
    assert f"invited: <strong>{bob.name}</strong>" in page
    assert page.count('class="invite"') == 2  # the two open seats, not bob's held one
    house = BotPlayerFactory(is_house=True)
    page = client.get(url).content.decode()
    assert f'<option value="{house.name}">' in page  # names offered while typing
    r = client.post(f"{url}invite/", {"position": "1", "name": carol.name.upper()}, follow=True)
    assert f"{carol.name} is invited." in r.content.decode()
    assert Invitation.objects.get(game=game, player=carol).position == 1
    r = client.post(f"{url}invite/", {"position": "2", "name": dave.name}, follow=True)
    assert "held for an invited player" in r.content.decode()
    assert not Invitation.objects.filter(player=dave).exists()
    # Another player sees no invite form and no button to take a held seat.
    client.force_login(dave.user)
    page = client.get(url).content.decode()
    assert 'class="invite"' not in page and "Call off" not in page
    assert page.count('name="position" value=') == 1  # seat 3, the only open one
    r = client.post(f"{url}invite/", {"position": "3", "name": dave.name}, follow=True)
    assert "Only the game" in r.content.decode()
    r = client.post(f"{url}call-off/", follow=True)
    assert Game.objects.get(pk=game.pk).status == GameStatus.WAITING
    client.force_login(me.user)
    r = client.post(f"{url}call-off/", follow=True)
    assert "called off" in r.content.decode()
    assert Game.objects.get(pk=game.pk).status == GameStatus.ABORTED
