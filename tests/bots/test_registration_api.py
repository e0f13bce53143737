"""Registering and managing bots through /api/v1/bots/."""

from __future__ import annotations

import json

import pytest

from accounts.models import Player
from accounts.tokens import token_create
from bots import signing
from bots.models import Bot, BotFault, BotStatus, FaultKind
from tests.bots.helpers import game_with, hosted_bot
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

URL = "/api/v1/bots/"


def _error(response) -> str:  # type: ignore[no-untyped-def]
    body = response.json()
    assert set(body) == {"code", "message", "extra"}, body
    return body["code"]


def test_register_a_hosted_bot(api, owner) -> None:  # type: ignore[no-untyped-def]
    r = api.post(URL, {"name": "Robo-1", "kind": "hosted", "strategy": "random"}, format="json")
    assert r.status_code == 201, r.json()
    body = r.json()
    assert (body["name"], body["kind"], body["strategy"], body["status"]) == (
        "Robo-1",
        "hosted",
        "random",
        "active",
    )
    assert body["secret"] is None
    player = Player.objects.get(name="Robo-1")
    assert player.is_bot and player.owner == owner and player.user is None
    assert player.bot.kind == "hosted"


def test_unknown_strategy_and_bad_params_are_refused_and_write_nothing(api) -> None:  # type: ignore[no-untyped-def]
    r = api.post(URL, {"name": "Robo-2", "kind": "hosted", "strategy": "psychic"}, format="json")
    assert r.status_code == 400 and _error(r) == "bad_strategy"
    assert "random" in r.json()["extra"]["available"]
    r = api.post(
        URL,
        {"name": "Robo-2", "kind": "hosted", "strategy": "random", "params": {"zzz_nope": 1}},
        format="json",
    )
    assert r.status_code == 400 and _error(r) == "bad_params"
    r = api.post(URL, {"name": "Robo-2", "kind": "hosted"}, format="json")
    assert r.status_code == 400 and _error(r) == "bad_strategy"
    assert not Player.objects.filter(name="Robo-2").exists()


@pytest.mark.parametrize(
    "payload, code",
    [
        ({"name": "x", "kind": "api"}, "invalid_name"),
        ({"name": "Robo-3", "kind": "mystery"}, "invalid"),
        ({"name": "Robo-3", "kind": "api", "webhook_url": "http://x.example/"}, "bad_bot"),
        ({"name": "Robo-3", "kind": "webhook"}, "bad_bot"),
        ({"name": "Robo-3", "kind": "api", "strategy": "random"}, "bad_bot"),
        (
            {"name": "Robo-3", "kind": "hosted", "strategy": "random", "webhook_url": "http://x/"},
            "bad_bot",
        ),
    ],
)
def test_malformed_registrations_are_refused(api, payload, code) -> None:  # type: ignore[no-untyped-def]
    before = Bot.objects.count()
    r = api.post(URL, payload, format="json")
    assert r.status_code == 400
    assert _error(r) == code
    assert Bot.objects.count() == before


def test_a_taken_name_is_a_conflict(api) -> None:  # type: ignore[no-untyped-def]
    PlayerFactory(name="Taken")
    r = api.post(URL, {"name": "taken", "kind": "api"}, format="json")
    assert r.status_code == 409 and _error(r) == "name_taken"


def test_register_an_api_bot(api) -> None:  # type: ignore[no-untyped-def]
    r = api.post(URL, {"name": "ApiBot", "kind": "api", "description": "mine"}, format="json")
    assert r.status_code == 201
    assert r.json()["kind"] == "api" and r.json()["description"] == "mine"


def test_register_a_webhook_bot_pings_it_and_shows_the_secret_once(
    api, hook_server, allow_loopback
) -> None:  # type: ignore[no-untyped-def]
    r = api.post(
        URL, {"name": "Hooky", "kind": "webhook", "webhook_url": hook_server.url}, format="json"
    )
    assert r.status_code == 201, r.json()
    secret = r.json()["secret"]
    assert secret.startswith("whsec_")
    # The ping was signed with that very secret and carried a challenge.
    (ping,) = hook_server.requests
    assert ping["payload"]["type"] == "ping" and ping["payload"]["challenge"]
    body = json.dumps(ping["payload"], separators=(",", ":")).encode()
    assert signing.verify(secret, ping["headers"], body)
    # Never shown again: not in the detail, the list, nor stored as such.
    assert "secret" not in api.get(URL + "Hooky/").json()
    assert secret not in json.dumps(api.get(URL).json())
    bot = Bot.objects.get(player__name="Hooky")
    assert secret not in json.dumps([bot.secret_nonce, bot.webhook_url, bot.params])


def test_a_webhook_that_does_not_echo_the_challenge_is_refused(
    api, hook_server, allow_loopback
) -> None:  # type: ignore[no-untyped-def]
    hook_server.server.RequestHandlerClass.do_POST = (  # type: ignore[union-attr]
        lambda self: self._send(200, b'{"challenge": "wrong"}')
    )
    r = api.post(
        URL, {"name": "Hooky", "kind": "webhook", "webhook_url": hook_server.url}, format="json"
    )
    assert r.status_code == 400 and _error(r) == "webhook_ping_failed"
    assert not Player.objects.filter(name="Hooky").exists()


def test_an_unreachable_webhook_is_refused(api, allow_loopback) -> None:  # type: ignore[no-untyped-def]
    r = api.post(
        URL,
        {"name": "Hooky", "kind": "webhook", "webhook_url": "http://127.0.0.1:9/x"},
        format="json",
    )
    assert r.status_code == 400 and _error(r) == "webhook_ping_failed"
    # Neutral: nothing tells whether the port was closed, slow or answered badly.
    assert r.json()["extra"] == {}
    assert "refused" not in r.json()["message"].lower()


def test_a_loopback_webhook_is_refused_without_the_operator_setting(
    api, hook_server, settings
) -> None:  # type: ignore[no-untyped-def]
    settings.BOTS_ALLOW_PRIVATE_WEBHOOKS = False
    r = api.post(
        URL, {"name": "Hooky", "kind": "webhook", "webhook_url": hook_server.url}, format="json"
    )
    assert r.status_code == 400 and _error(r) == "bad_webhook_url"
    assert hook_server.requests == []  # refused before any request went out
    assert not Player.objects.filter(name="Hooky").exists()


def test_rotating_the_secret_shows_a_new_one_and_the_old_one_stops(
    api, hook_server, allow_loopback
) -> None:  # type: ignore[no-untyped-def]
    old = api.post(
        URL, {"name": "Hooky", "kind": "webhook", "webhook_url": hook_server.url}, format="json"
    ).json()["secret"]
    r = api.post(URL + "Hooky/rotate-secret/")
    assert r.status_code == 200
    new = r.json()["secret"]
    assert new != old and new.startswith("whsec_")
    from bots.services import bot_secret, bot_signing_secrets

    assert bot_secret(Bot.objects.get(player__name="Hooky")) == new
    assert bot_signing_secrets(Bot.objects.get(player__name="Hooky")) == [new]
    assert r.json()["previous_secret_until"] is None


def test_a_rotation_may_keep_the_old_secret_signing_for_a_while(
    api, hook_server, allow_loopback
) -> None:  # type: ignore[no-untyped-def]
    from datetime import timedelta

    from django.utils import timezone
    from django.utils.dateparse import parse_datetime

    from bots.services import bot_secret, bot_signing_secrets

    old = api.post(
        URL, {"name": "Hooky", "kind": "webhook", "webhook_url": hook_server.url}, format="json"
    ).json()["secret"]
    r = api.post(URL + "Hooky/rotate-secret/", {"keep_previous_hours": 24}, format="json")
    assert r.status_code == 200, r.content
    new = r.json()["secret"]
    until = parse_datetime(r.json()["previous_secret_until"])
    assert until is not None
    assert timedelta(hours=23.9) < until - timezone.now() <= timedelta(hours=24)
    assert bot_signing_secrets(Bot.objects.get(player__name="Hooky")) == [new, old]
    # Rotating again keeps only the secret it replaces.
    newer = api.post(
        URL + "Hooky/rotate-secret/", {"keep_previous_hours": 1}, format="json"
    ).json()["secret"]
    assert bot_signing_secrets(Bot.objects.get(player__name="Hooky")) == [newer, new]
    # Out of range, or not a number: refused, and nothing changes.
    for bad in (73, -1, "soon", 1.5):
        r = api.post(URL + "Hooky/rotate-secret/", {"keep_previous_hours": bad}, format="json")
        assert r.status_code == 400 and _error(r) == "invalid", (bad, r.content)
    assert bot_secret(Bot.objects.get(player__name="Hooky")) == newer
    # The grace ends: only the current secret signs, and the bot's answer says so.
    Bot.objects.filter(player__name="Hooky").update(previous_secret_until=timezone.now())
    assert bot_signing_secrets(Bot.objects.get(player__name="Hooky")) == [newer]
    assert api.get(URL + "Hooky/").json()["previous_secret_until"] is None


def test_update_changes_strategy_and_status_and_refuses_kind_mismatches(api) -> None:  # type: ignore[no-untyped-def]
    api.post(URL, {"name": "Robo-4", "kind": "hosted", "strategy": "random"}, format="json")
    r = api.patch(URL + "robo-4/", {"description": "new", "status": "disabled"}, format="json")
    assert (
        r.status_code == 200
        and r.json()["status"] == "disabled"
        and r.json()["description"] == "new"
    )
    r = api.patch(URL + "Robo-4/", {"webhook_url": "http://x.example/"}, format="json")
    assert r.status_code == 400 and _error(r) == "bad_bot"
    r = api.patch(URL + "Robo-4/", {"strategy": "psychic"}, format="json")
    assert r.status_code == 400 and _error(r) == "bad_strategy"
    r = api.patch(URL + "Robo-4/", {"status": "suspended"}, format="json")
    assert r.status_code == 400
    assert Bot.objects.get(player__name="Robo-4").strategy == "random"


def test_reactivating_a_suspended_bot_clears_its_fault_streak(api, owner) -> None:  # type: ignore[no-untyped-def]
    bot = hosted_bot("Robo-5", owner=owner)
    Bot.objects.filter(pk=bot.pk).update(status=BotStatus.SUSPENDED, consecutive_faults=5)
    r = api.patch(URL + "Robo-5/", {"status": "active"}, format="json")
    assert r.json()["status"] == "active" and r.json()["consecutive_faults"] == 0


def test_list_detail_and_faults_show_only_my_bots(api, owner, client_for) -> None:  # type: ignore[no-untyped-def]
    mine = hosted_bot("Mine-1", owner=owner)
    hosted_bot("Theirs-1")
    BotFault.objects.create(bot=mine, kind=FaultKind.TIMEOUT, detail="slow", seq=4)
    names = [b["name"] for b in api.get(URL).json()["results"]]
    assert names == ["Mine-1"]
    assert api.get(URL + "Theirs-1/").status_code == 404
    faults = api.get(URL + "Mine-1/faults/").json()["results"]
    assert [(f["kind"], f["seq"], f["detail"]) for f in faults] == [("timeout", 4, "slow")]
    other = client_for(UserFactory())
    assert other.get(URL + "Mine-1/faults/").status_code == 404


def test_delete_removes_a_bot_that_never_played_and_disables_one_that_did(api, owner) -> None:  # type: ignore[no-untyped-def]
    hosted_bot("Fresh-1", owner=owner)
    assert api.delete(URL + "Fresh-1/").json() == {"result": "deleted"}
    assert not Player.objects.filter(name="Fresh-1").exists()
    played = hosted_bot("Played-1", owner=owner)
    game_with([PlayerFactory(), played.player, hosted_bot("B-2").player, hosted_bot("B-3").player])
    assert api.delete(URL + "Played-1/").json() == {"result": "disabled"}
    assert Bot.objects.get(pk=played.pk).status == "disabled"


def test_tokens_need_the_bot_scope_and_a_bot_token_cannot_manage_bots(owner) -> None:  # type: ignore[no-untyped-def]
    from rest_framework.test import APIClient

    bot = hosted_bot("Scoped-1", owner=owner)
    _, read_only = token_create(user=owner, name="ro", scopes=["read"])
    _, full = token_create(user=owner, name="full", scopes=["read", "bot"])
    _, bot_only = token_create(user=owner, name="b", scopes=["read", "bot"], bot=bot.player)
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Bearer {read_only}")
    r = c.get(URL)
    assert r.status_code == 403 and r.json()["code"] == "insufficient_scope"
    c.credentials(HTTP_AUTHORIZATION=f"Bearer {full}")
    assert c.get(URL).status_code == 200
    r = c.post(URL, {"name": "ByToken", "kind": "api"}, format="json")
    assert r.status_code == 201
    c.credentials(HTTP_AUTHORIZATION=f"Bearer {bot_only}")
    r = c.get(URL)
    assert r.status_code == 403 and r.json()["code"] == "insufficient_scope"
    anonymous = APIClient()
    assert anonymous.get(URL).status_code == 401


def test_strategies_are_listed(api) -> None:  # type: ignore[no-untyped-def]
    names = [s["name"] for s in api.get(URL + "strategies/").json()]
    assert "random" in names
