"""The push settings page: this device added and forgotten by the page's script (JSON, the
session and its CSRF token), the devices listed and removable, and the choices of what is
pushed and when, saved whole or not at all."""

from __future__ import annotations

import json
from datetime import time

import pytest
from django.test import Client, override_settings

from clock.models import NotificationPreference
from push.models import PushSubscription
from push.views import endpoint_mark
from tests.factories import PlayerFactory
from tests.push.helpers import PUBLIC, PUSH_SETTINGS, Browser, subscribe

pytestmark = pytest.mark.django_db

PAGE = "/notifications/push/"
PHONE_UA = "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0"


def _signed_in(player, csrf: bool = False) -> Client:  # type: ignore[no-untyped-def]
    client = Client(enforce_csrf_checks=csrf)
    client.force_login(player.user)
    return client


def _token(client: Client) -> str:
    client.get(PAGE)
    return str(client.cookies["csrftoken"].value)


@override_settings(**PUSH_SETTINGS)
def test_the_page_offers_this_device_with_the_site_s_key_and_lists_devices_without_endpoints() -> (
    None
):
    me = PlayerFactory()
    browser = Browser()
    row = subscribe(me, browser)
    PushSubscription.objects.filter(pk=row.pk).update(user_agent="Firefox · Android")
    subscribe(PlayerFactory(), Browser(endpoint="https://push.example.net/v1/theirs"))
    html = _signed_in(me).get(PAGE).content.decode()
    assert f'data-key="{PUBLIC}"' in html
    assert 'id="push-on"' in html and 'id="push-off"' in html
    assert "Firefox · Android" in html
    # Each device by a digest of its endpoint (the script finds "this device" by it); the
    # endpoint and the keys never in the page, nor anyone else's device.
    assert f'data-mark="{endpoint_mark(browser.endpoint)}"' in html
    assert browser.endpoint not in html and browser.p256dh not in html and browser.auth not in html
    assert html.count('class="btn danger"') == 1


def test_without_push_the_page_says_it_is_not_offered() -> None:
    html = _signed_in(PlayerFactory()).get(PAGE).content.decode()
    assert 'id="push-unavailable"' in html and 'id="push-on"' not in html


@override_settings(**PUSH_SETTINGS)
def test_the_script_s_subscription_is_saved_with_the_csrf_token_and_forgotten_again() -> None:
    me = PlayerFactory()
    client = _signed_in(me, csrf=True)
    browser = Browser()
    body = json.dumps(browser.subscription())
    refused = client.post("/notifications/push/devices/", body, content_type="application/json")
    assert refused.status_code == 403  # no token, no device
    token = _token(client)
    r = client.post(
        "/notifications/push/devices/",
        body,
        content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
        HTTP_USER_AGENT=PHONE_UA,
    )
    assert r.status_code == 201, r.content
    row = PushSubscription.objects.get()
    assert (row.player, row.endpoint, row.user_agent) == (me, browser.endpoint, "Firefox · Android")
    assert r.json() == {"id": row.pk, "name": "Firefox · Android"}
    r = client.post(
        "/notifications/push/devices/forget/",
        json.dumps({"endpoint": browser.endpoint}),
        content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
    )
    assert r.status_code == 204
    assert not PushSubscription.objects.exists()


@override_settings(**PUSH_SETTINGS)
@pytest.mark.parametrize(
    ("body", "field"),
    [
        ("not json", None),
        (
            json.dumps({"endpoint": "https://push.example.net/v1/x", "keys": {"auth": "AAAA"}}),
            "p256dh",
        ),
        (json.dumps({"endpoint": "http://10.0.0.1/x", "keys": {}}), "endpoint"),
    ],
)
def test_a_subscription_no_browser_gives_is_refused_in_the_one_shape(
    body: str, field: str | None, settings: object
) -> None:
    with override_settings(PUSH_ALLOW_PRIVATE_ENDPOINTS=False):
        r = _signed_in(PlayerFactory()).post(
            "/notifications/push/devices/", body, content_type="application/json"
        )
    assert r.status_code == 400
    assert r.json()["code"] == "bad_subscription" and r.json()["message"]
    if field:
        assert r.json()["extra"]["field"] == field
    assert not PushSubscription.objects.exists()


@override_settings(**PUSH_SETTINGS)
def test_a_device_is_removed_from_the_list_by_its_owner_only() -> None:
    me, other = PlayerFactory(), PlayerFactory()
    mine = subscribe(me, Browser())
    r = _signed_in(other).post(f"/notifications/push/devices/{mine.pk}/remove/")
    assert r.status_code == 302 and PushSubscription.objects.filter(pk=mine.pk).exists()
    r = _signed_in(me).post(f"/notifications/push/devices/{mine.pk}/remove/", follow=True)
    assert not PushSubscription.objects.filter(pk=mine.pk).exists()
    assert "is removed" in r.content.decode()


def test_the_choices_are_saved_whole() -> None:
    me = PlayerFactory()
    client = _signed_in(me)
    r = client.post(
        "/notifications/push/choices/",
        {
            "turn_push": "on",
            "claim_push": "on",
            "quiet_from": "22:30",
            "quiet_until": "07:00",
            "time_zone": "Europe/Vilnius",
        },
    )
    assert r.status_code == 302
    prefs = NotificationPreference.objects.get(player=me)
    assert (prefs.turn_push, prefs.claim_push) == (True, True)
    assert (prefs.over_push, prefs.invitation_push, prefs.reminder_push, prefs.round_push) == (
        False,
        False,
        False,
        False,
    )
    assert (prefs.quiet_from, prefs.quiet_until, prefs.time_zone) == (
        time(22, 30),
        time(7, 0),
        "Europe/Vilnius",
    )
    # The page shows them back as saved.
    html = client.get(PAGE).content.decode()
    assert 'value="22:30"' in html and 'value="Europe/Vilnius"' in html


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"time_zone": "Mars/Olympus"}, "Not a time zone we know"),
        ({"quiet_until": ""}, "Give both ends of the quiet hours"),
        ({"quiet_from": "25:00"}, "Enter a valid time"),
    ],
)
def test_bad_choices_change_nothing_and_say_why(change: dict[str, str], said: str) -> None:
    me = PlayerFactory()
    client = _signed_in(me)
    form = {"over_push": "on", "quiet_from": "22:00", "quiet_until": "07:00", "time_zone": "UTC"}
    r = client.post("/notifications/push/choices/", form | change)
    assert r.status_code == 400
    assert said in r.content.decode()
    prefs = NotificationPreference.objects.filter(player=me).first()
    # Nothing written: every switch still on, no quiet hours.
    assert prefs is None or (prefs.turn_push and prefs.quiet_from is None)
