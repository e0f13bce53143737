"""The site shell in real headless Chromium: sign up, see the nav, log out, log in, make a token.

Screenshots (desktop and phone-sized) go to test-output/accounts/.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from accounts.tokens import token_find
from tests.conftest import TEST_OUTPUT
from tests.factories import PASSWORD
from tests.web.layout import check_layout

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OUT = TEST_OUTPUT / "accounts"


def test_sign_up_log_out_log_in_and_make_a_token_in_a_browser(
    browser: Any, live_server: Any
) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport={"width": 1200, "height": 800})
    page.set_default_timeout(15_000)
    page.goto(live_server.url + "/")
    nav = page.locator("nav.site-nav")
    for label in ["Home", "Ladder", "API docs", "Log in", "Sign up"]:
        assert nav.get_by_role("link", name=label, exact=True).is_visible(), label
    # The stylesheet is served and applied: the header has the table-green background.
    header_bg = page.eval_on_selector(
        "header.site-header", "e => getComputedStyle(e).backgroundColor"
    )
    assert header_bg == "rgb(11, 93, 75)"
    page.screenshot(path=str(OUT / "home-desktop.png"), full_page=True)

    nav.get_by_role("link", name="Sign up").click()
    page.fill("#id_username", "browser_user")
    page.fill("#id_name", "Browser-Bea")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    page.wait_for_url(live_server.url + "/")
    assert page.get_by_text("Welcome to the club, Browser-Bea!").is_visible()
    assert nav.get_by_role("link", name="My games").is_visible()
    assert get_user_model().objects.get(username="browser_user").player.name == "Browser-Bea"

    nav.get_by_role("button", name="Log out").click()
    page.wait_for_url(live_server.url + "/")
    assert nav.get_by_role("link", name="Log in").is_visible()

    nav.get_by_role("link", name="Log in").click()
    page.fill("#id_username", "browser_user")
    page.fill("#id_password", "wrong password")
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".errorlist").first).to_be_visible()
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(live_server.url + "/")

    nav.get_by_role("link", name="Browser-Bea").click()
    page.fill("#id_name", "my laptop")
    page.get_by_role("button", name="Make token").click()
    secret = page.locator("#new-token").inner_text().strip()
    token = token_find(secret)
    assert token is not None and token.name == "my laptop"
    assert sorted(token.scopes) == ["play", "read"]
    page.get_by_role("button", name="Revoke").click()
    expect(page.get_by_text("revoked").first).to_be_visible()  # after the page reloads
    token.refresh_from_db()
    assert token.revoked_at is not None
    page.close()


def test_the_nav_fits_a_phone_screen(browser: Any, live_server: Any) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport={"width": 360, "height": 740}, is_mobile=True)
    page.goto(live_server.url + "/")
    # Nothing passes the edge: the nav wraps instead of forcing a horizontal scroll.
    check_layout(page, "home (360 px)")
    for label in ["Home", "Ladder", "API docs", "Log in", "Sign up"]:
        box = (
            page.locator("nav.site-nav").get_by_role("link", name=label, exact=True).bounding_box()
        )
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360, label
    page.screenshot(path=str(OUT / "home-phone.png"), full_page=True)
    page.close()
