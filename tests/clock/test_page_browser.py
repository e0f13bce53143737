"""The notifications page in real headless Chromium: log in, read them, mark them read.

Screenshots go to test-output/clock/.
"""

from __future__ import annotations

from typing import Any

import pytest

from clock.models import Notification
from tests.conftest import TEST_OUTPUT
from tests.factories import PASSWORD, PlayerFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OUT = TEST_OUTPUT / "clock"


def test_reading_and_clearing_notifications_in_a_browser(browser: Any, live_server: Any) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    me = PlayerFactory(name="Reminded-Rae", user__username="rae")
    Notification.objects.create(
        player=me,
        kind="reminder",
        title="Your move in game g_clock1: time is running out",
        body="Your time for this move runs out at 2026-03-04 09:00 UTC.",
    )
    Notification.objects.create(player=me, kind="digest", title="2 games waiting on you")
    page = browser.new_page(viewport={"width": 1000, "height": 700})
    page.set_default_timeout(15_000)
    page.goto(live_server.url + "/notifications/")
    page.fill("#id_username", "rae")  # redirected to the login page first
    page.fill("#id_password", PASSWORD)
    page.locator("main").get_by_role("button").click()
    page.wait_for_url(live_server.url + "/notifications/")
    items = page.locator("#notifications li")
    assert items.count() == 2
    assert items.nth(0).locator(".title").inner_text() == "2 games waiting on you"
    assert page.locator("#notifications li.unread").count() == 2
    page.screenshot(path=str(OUT / "notifications.png"), full_page=True)
    page.get_by_role("button", name="Mark all read").click()
    page.wait_for_url(live_server.url + "/notifications/")
    assert page.locator("#notifications li.unread").count() == 0
    assert not Notification.objects.filter(player=me, read_at__isnull=True).exists()

    # Turn the e-mail reminder off from the same page.
    page.get_by_label("Reminder by e-mail when 80 percent of a move's time is used").uncheck()
    page.locator("#preferences").get_by_role("button", name="Save").click()
    page.wait_for_url(live_server.url + "/notifications/")
    assert page.get_by_text("Your reminder preferences are saved.").is_visible()
    assert not page.get_by_label(
        "Reminder by e-mail when 80 percent of a move's time is used"
    ).is_checked()
    assert page.locator("#vacation button").is_disabled()  # no vacation days earned yet
    page.screenshot(path=str(OUT / "notifications-preferences.png"), full_page=True)
    me.notification_preference.refresh_from_db()
    assert me.notification_preference.reminder_email is False
