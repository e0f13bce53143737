"""The push settings page in Chromium on a phone: "Turn on notifications on this device"
asks for permission, subscribes through the service worker with the site's VAPID key and
hands the subscription to the site; the device is listed as this one, a push to it reaches
its push service and decrypts with its keys; "Turn off" forgets it; the choices of what is
pushed and when are saved; the page fits 390 px in every language.

**What is stood in for, and why.** Chromium's ``PushManager.subscribe()`` registers with
Google's push service (FCM) before it answers; with no network (the test machines have
none) it never answers at all (tried: still pending after 20 s, no error). So the tests
replace the browser's push service only: ``PushManager.prototype.subscribe`` and
``getSubscription`` hand back a subscription made from a key pair the test holds (as a
browser would make it), whose endpoint is the fake push service on loopback. Everything
else is the real thing: the permission prompt's answer, the service worker's registration,
the page's script and its posts, the site, the push's encryption, and the service worker
showing the pushed payload (delivered to it through the DevTools protocol, as the push
service would)."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from clock.models import NotificationPreference
from push.delivery import notice_deliver
from push.models import PushSubscription
from tests.factories import PlayerFactory
from tests.push.helpers import PUBLIC, PUSH_SETTINGS, Browser, FakePushService
from tests.web.english import english_left
from tests.web.layout import PHONE, check_layout

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_MS = 30_000
LOCALES = {"lt": "lt-LT", "sv": "sv-SE", "gu": "gu-IN"}
PAGE = "/notifications/push/"

# The browser's push service, stood in for (see the module's doc): the subscription is the
# test's, kept in localStorage as a browser keeps its own; each call is recorded.
STAND_IN = """
(() => {
  const given = %s;
  const calls = () => JSON.parse(localStorage.getItem("push-calls") || "[]");
  const note = (c) => localStorage.setItem("push-calls", JSON.stringify([...calls(), c]));
  const made = (key) => ({
    endpoint: given.endpoint,
    expirationTime: null,
    options: { userVisibleOnly: true, applicationServerKey: key },
    toJSON() { return { endpoint: given.endpoint, expirationTime: null, keys: given.keys }; },
    unsubscribe() { note({ unsubscribe: true }); localStorage.removeItem("push-sub"); return Promise.resolve(true); },
  });
  const toBytes = (k) => new Uint8Array(k instanceof ArrayBuffer ? k : k.buffer || k);
  PushManager.prototype.subscribe = function (options) {
    const key = toBytes(options.applicationServerKey);
    note({ subscribe: true, userVisibleOnly: options.userVisibleOnly, key: Array.from(key) });
    localStorage.setItem("push-sub", JSON.stringify(Array.from(key)));
    return Promise.resolve(made(key.buffer));
  };
  PushManager.prototype.getSubscription = function () {
    const key = localStorage.getItem("push-sub");
    return Promise.resolve(key ? made(new Uint8Array(JSON.parse(key)).buffer) : null);
  };
})();
"""


@pytest.fixture
def push_site(settings: Any) -> Iterator[FakePushService]:
    for name, value in PUSH_SETTINGS.items():
        setattr(settings, name, value)
    service = FakePushService()
    yield service
    service.stop()


def _phone(browser: Any, live_server: Any, user: Any, device: Browser | None, **extra: Any) -> Any:
    client = Client()
    client.force_login(user)
    ctx = browser.new_context(**(PHONE | extra))
    ctx.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    ctx.set_default_timeout(WAIT_MS)
    if device is not None:
        ctx.add_init_script(STAND_IN % json.dumps(device.subscription()))
    return ctx


def _state(page: Any, wanted: str) -> None:
    page.wait_for_function(
        "w => document.getElementById('this-device').dataset.now === w", arg=wanted
    )


def _calls(page: Any) -> list[dict[str, Any]]:
    return list(page.evaluate("() => JSON.parse(localStorage.getItem('push-calls') || '[]')"))


def test_turning_on_this_device_subscribes_with_the_site_s_key_and_a_push_reaches_it(
    browser: Any, live_server: Any, push_site: FakePushService
) -> None:
    me = PlayerFactory()
    device = push_site.browser("phone")
    ctx = _phone(browser, live_server, me.user, device)
    ctx.grant_permissions(["notifications"], origin=live_server.url)
    page = ctx.new_page()
    page.goto(live_server.url + PAGE)
    _state(page, "off")
    assert page.locator("#push-on").is_visible() and not page.locator("#push-off").is_visible()
    check_layout(page, "push settings, off (phone)")

    page.locator("#push-on").click()
    page.wait_for_load_state()
    _state(page, "on")
    # Subscribed once, for the user-visible pushes the site's key signs.
    (call,) = _calls(page)
    assert call["userVisibleOnly"] is True
    assert bytes(call["key"]) == base64.urlsafe_b64decode(PUBLIC + "=" * (-len(PUBLIC) % 4))
    row = PushSubscription.objects.get()
    assert (row.player, row.endpoint, row.p256dh, row.auth) == (
        me,
        device.endpoint,
        device.p256dh,
        device.auth,
    )
    assert row.user_agent  # named after the browser
    assert page.locator("#devices li.this-device").count() == 1
    assert page.locator("#push-off").is_visible() and not page.locator("#push-on").is_visible()
    check_layout(page, "push settings, on (phone)")

    # A push to the person reaches this device's push service, and reads with its keys.
    payload = {"title": "Your move in game abc", "body": "It is your turn.", "url": "/", "tag": "t"}
    assert notice_deliver(player_id=me.pk, key="test:1", payload=payload).sent == 1
    assert push_site.delivered(device) == [payload]

    # The service worker shows what the push service hands it (delivered as it would be).
    registration = page.evaluate("() => navigator.serviceWorker.ready.then(r => r.scope)")
    cdp = ctx.new_cdp_session(page)
    found: list[dict[str, Any]] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: found.extend(e["registrations"]))
    cdp.send("ServiceWorker.enable")
    page.wait_for_timeout(500)
    ids = [
        r["registrationId"] for r in found if r["scopeURL"] == registration and not r["isDeleted"]
    ]
    assert ids, found
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": live_server.url, "registrationId": ids[0], "data": json.dumps(payload)},
    )
    shown = page.evaluate(
        """async () => {
          const registration = await navigator.serviceWorker.ready;
          for (let i = 0; i < 100; i++) {
            const ns = await registration.getNotifications();
            if (ns.length) return ns.map(n => ({title: n.title, body: n.body, url: n.data.url, tag: n.tag}));
            await new Promise(r => setTimeout(r, 100));
          }
          return [];
        }"""
    )
    assert shown == [{"title": payload["title"], "body": payload["body"], "url": "/", "tag": "t"}]

    # Turned off: the site forgets the device, then the browser unsubscribes.
    page.locator("#push-off").click()
    page.wait_for_load_state()
    _state(page, "off")
    assert not PushSubscription.objects.exists()
    assert _calls(page)[-1] == {"unsubscribe": True}
    assert page.locator("#no-devices").is_visible()
    ctx.close()


def test_a_browser_that_blocks_notifications_is_told_so_and_nothing_is_subscribed(
    browser: Any, live_server: Any, push_site: FakePushService
) -> None:
    me = PlayerFactory()
    ctx = _phone(browser, live_server, me.user, push_site.browser("blocked"))
    ctx.grant_permissions([], origin=live_server.url)
    page = ctx.new_page()
    page.goto(live_server.url + PAGE)
    # Not granted: headless Chromium answers the prompt "denied" (nobody to click "allow").
    page.wait_for_function("() => document.getElementById('this-device').dataset.now")
    assert page.evaluate("document.getElementById('this-device').dataset.now") in ("off", "denied")
    page.locator("#push-on").click()
    _state(page, "denied")
    assert _calls(page) == [] and not PushSubscription.objects.exists()
    ctx.close()


def test_a_device_is_removed_from_the_list_and_the_choices_are_saved_on_a_phone(
    browser: Any, live_server: Any, push_site: FakePushService
) -> None:
    from tests.push.helpers import subscribe

    me = PlayerFactory()
    lost = subscribe(me, Browser(endpoint="https://push.example.net/v1/lost-phone"))
    ctx = _phone(
        browser, live_server, me.user, push_site.browser("this"), timezone_id="Europe/Vilnius"
    )
    page = ctx.new_page()
    page.goto(live_server.url + PAGE)
    _state(page, "off")
    assert page.locator("#devices li").count() == 1
    page.locator(f"#devices li[data-id='{lost.pk}'] button").click()
    page.locator("#no-devices").wait_for()
    assert not PushSubscription.objects.exists()

    page.locator("#id_over_push").uncheck()
    page.locator("#id_quiet_from").fill("22:00")
    page.locator("#id_quiet_until").fill("07:30")
    page.locator("#use-device-zone").click()  # the phone's own zone
    check_layout(page, "push settings, choices (phone)")
    page.locator("#push-choices button[type=submit]").click()
    page.locator(".messages").wait_for()
    prefs = NotificationPreference.objects.get(player=me)
    assert (prefs.over_push, prefs.turn_push, prefs.time_zone) == (False, True, "Europe/Vilnius")
    assert (prefs.quiet_from.isoformat(), prefs.quiet_until.isoformat()) == ("22:00:00", "07:30:00")
    ctx.close()


@pytest.mark.parametrize("lang", ["lt", "sv", "gu"])
def test_the_push_page_fits_a_phone_and_has_no_english_left(
    browser: Any, live_server: Any, push_site: FakePushService, lang: str
) -> None:
    from tests.push.helpers import subscribe

    me = PlayerFactory()
    me.language = lang
    me.save(update_fields=["language"])
    subscribe(me, Browser())
    ctx = _phone(browser, live_server, me.user, None, locale=LOCALES[lang])
    page = ctx.new_page()
    page.goto(live_server.url + PAGE)
    _state(page, "off")
    assert page.evaluate("document.documentElement.lang") == lang
    check_layout(page, f"push settings ({lang}, phone)")
    text = str(page.evaluate("() => document.body.innerText + '\\n' + document.title"))
    assert not english_left(text, lang, [me.name, "Back Alley Club", "Back Alley"])
    ctx.close()
