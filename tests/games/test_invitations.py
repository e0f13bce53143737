"""Invitations: nobody is seated in a game without agreeing to it (issue 12, finding 3)."""

from __future__ import annotations

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
