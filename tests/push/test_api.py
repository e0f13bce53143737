"""The push API: the public key, and a person's devices (add, renew, list, remove)."""

from __future__ import annotations

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from push.models import PushSubscription
from tests.factories import ApiTokenFactory, BotPlayerFactory, PlayerFactory, auth_header
from tests.push.helpers import PUBLIC, PUSH_SETTINGS, Browser

pytestmark = pytest.mark.django_db

URL = "/api/v1/push/subscriptions/"
PHONE_UA = "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0"


def _client(player) -> APIClient:  # type: ignore[no-untyped-def]
    client = APIClient()
    client.credentials(**auth_header(ApiTokenFactory(user=player.user, scopes=["play"])))
    return client


def test_the_public_key_is_given_to_anyone_only_when_push_is_on() -> None:
    assert APIClient().get("/api/v1/push/vapid-key/").json() == {"enabled": False, "public_key": ""}
    with override_settings(**PUSH_SETTINGS):
        body = APIClient().get("/api/v1/push/vapid-key/").json()
    assert body == {"enabled": True, "public_key": PUBLIC}


def test_push_turned_on_without_its_keys_sends_and_offers_nothing() -> None:
    with override_settings(PUSH_ENABLED=True, PUSH_VAPID_PRIVATE_KEY=""):
        assert APIClient().get("/api/v1/push/vapid-key/").json()["enabled"] is False
        r = _client(PlayerFactory()).post(URL, Browser().subscription(), format="json")
    assert (r.status_code, r.json()["code"]) == (409, "push_disabled")


@override_settings(**PUSH_SETTINGS)
def test_a_device_subscribes_is_listed_and_removed() -> None:
    me = PlayerFactory()
    client = _client(me)
    browser = Browser()
    r = client.post(URL, browser.subscription(), format="json", HTTP_USER_AGENT=PHONE_UA)
    assert r.status_code == 201, r.content
    row = PushSubscription.objects.get()
    assert (row.player, row.endpoint, row.p256dh, row.auth) == (
        me,
        browser.endpoint,
        browser.p256dh,
        browser.auth,
    )
    assert r.json()["user_agent"] == "Firefox · Android"
    listed = client.get(URL).json()
    assert [d["id"] for d in listed] == [row.pk]
    assert "p256dh" not in listed[0] and "auth" not in listed[0]
    # Someone else's list is theirs alone, and they cannot remove mine.
    other = _client(PlayerFactory())
    assert other.get(URL).json() == []
    assert other.delete(f"{URL}{row.pk}/").status_code == 404
    assert client.delete(f"{URL}{row.pk}/").status_code == 204
    assert not PushSubscription.objects.exists()


@override_settings(**PUSH_SETTINGS)
def test_subscribing_again_renews_the_one_row_of_that_endpoint() -> None:
    first, second = PlayerFactory(), PlayerFactory()
    browser = Browser()
    assert _client(first).post(URL, browser.subscription(), format="json").status_code == 201
    renewed = Browser(endpoint=browser.endpoint)  # new keys, same push address
    assert _client(first).post(URL, renewed.subscription(), format="json").status_code == 201
    row = PushSubscription.objects.get()
    assert row.p256dh == renewed.p256dh
    # Another account signs in on that browser: the device is theirs now.
    assert _client(second).post(URL, renewed.subscription(), format="json").status_code == 201
    assert PushSubscription.objects.get().player == second


@override_settings(**PUSH_SETTINGS)
@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"keys": {"p256dh": "bm90IGEga2V5", "auth": None}}, "p256dh"),
        ({"keys": {"p256dh": None, "auth": "c2hvcnQ"}}, "auth"),
    ],
)
def test_keys_that_no_browser_gives_are_refused(change: dict, field: str) -> None:  # type: ignore[type-arg]
    body = Browser().subscription()
    body["keys"] = {k: v or body["keys"][k] for k, v in change["keys"].items()}
    r = _client(PlayerFactory()).post(URL, body, format="json")
    assert (r.status_code, r.json()["code"], r.json()["extra"]) == (
        400,
        "bad_subscription",
        {"field": field},
    )


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://push.example.net/v1/abc",
        "https://127.0.0.1/v1/abc",
        "https://[::1]/v1/abc",
        "https://localhost/v1/abc",
        "https://intranet/v1/abc",
    ],
)
def test_an_endpoint_must_be_a_push_services_https_address(endpoint: str) -> None:
    with override_settings(**{**PUSH_SETTINGS, "PUSH_ALLOW_PRIVATE_ENDPOINTS": False}):
        r = _client(PlayerFactory()).post(
            URL, Browser(endpoint=endpoint).subscription(), format="json"
        )
    assert (r.status_code, r.json()["code"]) == (400, "bad_subscription"), endpoint


@override_settings(**{**PUSH_SETTINGS, "PUSH_MAX_SUBSCRIPTIONS": 2})
def test_a_person_has_a_bounded_number_of_devices() -> None:
    client = _client(PlayerFactory())
    for n in range(2):
        body = Browser(endpoint=f"https://push.example.net/v1/{n}").subscription()
        assert client.post(URL, body, format="json").status_code == 201
    r = client.post(
        URL, Browser(endpoint="https://push.example.net/v1/3").subscription(), format="json"
    )
    assert (r.status_code, r.json()["code"]) == (409, "too_many_subscriptions")


@override_settings(**PUSH_SETTINGS)
def test_read_and_one_bot_tokens_cannot_add_devices() -> None:
    owner = PlayerFactory()
    bot = BotPlayerFactory(owner=owner.user)
    for token in (
        ApiTokenFactory(user=owner.user, scopes=["read"]),
        ApiTokenFactory(user=owner.user, scopes=["bot", "play"], bot=bot),
    ):
        r = APIClient().post(URL, Browser().subscription(), format="json", **auth_header(token))
        assert (r.status_code, r.json()["code"]) == (403, "insufficient_scope")
    assert not PushSubscription.objects.exists()
