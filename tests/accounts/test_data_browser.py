"""Your data page in real headless Chromium: reached from the account page, the archive
downloads as a JSON file, a wrong password deletes nothing, the right one deletes the
account and signs out; the page fits a phone and a desktop. Screenshots go to
test-output/accounts/."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

from accounts.models import Player
from tests.conftest import TEST_OUTPUT
from tests.factories import PASSWORD, PlayerFactory
from tests.web.layout import PHONE, check_layout

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OUT = TEST_OUTPUT / "accounts"


def _log_in(page: Any, base: str, username: str) -> None:
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(base + "/")


def test_download_your_data_and_delete_the_account_in_a_browser(
    browser: Any, live_server: Any
) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    me = PlayerFactory(name="Ada-Data", user__username="ada_data", user__email="ada@example.org")
    page = browser.new_page(viewport={"width": 1280, "height": 800}, accept_downloads=True)
    page.set_default_timeout(15_000)
    _log_in(page, live_server.url, "ada_data")
    page.locator("nav.site-nav").get_by_role("link", name="Ada-Data").click()
    page.get_by_role("link", name="Your data: download it, or delete your account").click()
    expect(page.get_by_role("heading", name="Your data", level=1)).to_be_visible()
    check_layout(page, "data page, desktop")
    page.screenshot(path=str(OUT / "data-desktop.png"), full_page=True)

    with page.expect_download() as caught:
        page.get_by_role("link", name="Download (JSON)").click()
    download = caught.value
    assert download.suggested_filename.startswith("backalley-Ada-Data-")
    archive = json.loads(open(download.path(), encoding="utf-8").read())  # noqa: SIM115
    assert archive["account"]["email"] == "ada@example.org"

    page.fill("#id_password", "not my password")
    page.check("#id_understood")
    page.get_by_role("button", name="Delete my account").click()
    expect(page.locator("#delete-account .errorlist")).to_contain_text("not your password")
    assert Player.objects.get(pk=me.pk).erased_at is None

    page.fill("#id_password", PASSWORD)
    page.check("#id_understood")
    page.get_by_role("button", name="Delete my account").click()
    page.wait_for_url(live_server.url + "/")
    expect(page.get_by_text("Your account has been deleted.")).to_be_visible()
    expect(page.locator("nav.site-nav").get_by_role("link", name="Log in")).to_be_visible()
    gone = Player.objects.get(pk=me.pk)
    assert gone.erased_at is not None and gone.name.startswith("gone-")
    page.close()


def test_the_data_and_privacy_pages_fit_a_phone(browser: Any, live_server: Any) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    PlayerFactory(name="Pia-Phone", user__username="pia_phone")
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    _log_in(page, live_server.url, "pia_phone")
    page.goto(live_server.url + "/accounts/data/")
    expect(page.get_by_role("button", name="Delete my account")).to_be_visible()
    for path, label in (("/accounts/data/", "data"), ("/privacy/", "privacy")):
        page.goto(live_server.url + path)
        check_layout(page, f"{label} page, phone")
        page.screenshot(path=str(OUT / f"{label}-phone.png"), full_page=True)
    ctx.close()
