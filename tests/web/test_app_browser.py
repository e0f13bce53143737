"""The installable app in Chromium: the browser's own installability check passes, the
service worker takes the site, and with the network cut a page shows the offline page,
never a stored table."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games import services
from tests.factories import PlayerFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_MS = 30_000


def _signed_in_context(browser: Any, live_server: Any, user: Any) -> Any:
    client = Client()
    client.force_login(user)
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    ctx.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    ctx.set_default_timeout(WAIT_MS)
    return ctx


def _worker_ready(page: Any) -> None:
    """Wait until the service worker is active and controls the page."""
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    if not page.evaluate("() => !!navigator.serviceWorker.controller"):
        page.wait_for_function("() => !!navigator.serviceWorker.controller")


def test_the_browser_finds_the_site_installable(profile_browser: Any, live_server: Any) -> None:
    # A profile on disk: Chromium never offers to install from an incognito window.
    ctx = profile_browser()
    page = ctx.pages[0] if ctx.pages else ctx.new_page()
    page.goto(live_server.url + "/")
    _worker_ready(page)
    cdp = ctx.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"].endswith("/manifest.webmanifest")
    assert not manifest.get("errors"), manifest.get("errors")
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []


def test_with_the_network_cut_a_table_shows_the_offline_page_not_a_stored_board(
    browser: Any, live_server: Any
) -> None:
    me, *others = [PlayerFactory() for _ in range(4)]
    game = services.game_create(creator=me, seats=[me, *others])
    ctx = _signed_in_context(browser, live_server, me.user)
    page = ctx.new_page()
    table = f"{live_server.url}/games/{game.public_id}/"
    page.goto(table)
    page.locator("#board").wait_for()
    _worker_ready(page)
    page.reload()  # the table again, now through the worker
    page.locator("#board").wait_for()
    # What the worker keeps: the offline page, and no page of the site besides.
    kept = page.evaluate(
        """async () => { const out = [];
          for (const name of await caches.keys()) {
            const cache = await caches.open(name);
            for (const r of await cache.keys()) out.push(new URL(r.url).pathname);
          }
          return out; }"""
    )
    assert kept == ["/offline/"]
    ctx.set_offline(True)
    page.goto(table)
    page.locator("#offline h1").wait_for()
    assert page.locator("#board").count() == 0
    assert "You are offline" in page.title()
    # Back online, the page loads again by itself: the table as it is now.
    ctx.set_offline(False)
    page.locator("#board").wait_for()
    ctx.close()
