"""A daylong through its pages in real headless Chromium on a 390×844 phone, the house bots
and the scoring run by a real worker: the list, enter, play a stage, leave the table half
way, come back to it, finish it, and see the breakdown and the standings. Every page fits
the window. Screenshots go to test-output/daylong/."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from django.test import Client

from bots.house import house_bots_ensure
from daylong.models import Table, TableStatus
from tests.conftest import TEST_OUTPUT
from tests.daylong.helpers import event
from tests.factories import PlayerFactory
from tests.web.layout import PHONE, check_layout
from tests.web.pagelog import PageLog
from tests.web.test_day_one_browser import (  # the day-one flow's fixtures and steps
    WAIT_MS,
    _move,
    _wait_for_me,
    bots_worker,
    short_pause,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
__all__ = ["bots_worker", "short_pause"]  # fixtures, used by name

OUT = TEST_OUTPUT / "daylong"


def _shot(page: Any, name: str) -> None:
    check_layout(page, name)
    page.screenshot(path=str(OUT / f"{name}.png"), full_page=True)


@pytest.mark.timeout(600)
def test_enter_play_leave_come_back_finish_and_see_the_breakdown_on_a_phone(
    browser: Any, live_server: Any, bots_worker: None, short_pause: None
) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    house_bots_ensure()
    ev = event(title="Phone stages", pool_size=1)
    me = PlayerFactory()
    client = Client()
    client.force_login(me.user)
    base = live_server.url
    ctx = browser.new_context(**PHONE)
    ctx.set_default_timeout(WAIT_MS)
    ctx.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}]
    )
    page = ctx.new_page()
    log = PageLog(page)

    page.goto(f"{base}/daylong/")
    _shot(page, "list")
    page.get_by_role("link", name="Phone stages").click()
    page.wait_for_url(re.compile(rf"/daylong/{ev.pk}/$"))
    page.click("#enter")
    page.wait_for_selector("#play")
    assert page.locator("#play").inner_text() == "Play stage 1"
    _shot(page, "entered")

    page.click("#play")
    page.wait_for_url(re.compile(r"/games/[^/]+/$"))
    table_url = page.url
    assert page.locator(".game-part-daylong").inner_text().startswith("This game is stage 1")
    _wait_for_me(page, log)

    # Leave at the seat's turn (the table waits for it: a stage of a 1-card deal is over
    # moments after the seat's bid, its card forced), come back through the event page to
    # the same table.
    page.goto(f"{base}/daylong/{ev.pk}/")
    assert page.locator("#play").inner_text() == "Back to stage 1"
    _shot(page, "half-way")
    page.click("#play")
    page.wait_for_url(table_url)
    for _ in range(60):
        if _wait_for_me(page, log) == "finished":
            break
        _move(page, log, keyboard=False)
    assert page.locator("#board").get_attribute("data-status") == "finished"
    _shot(page, "table-finished")

    # The worker scores the finished table (through the outbox): the breakdown shows it.
    table = Table.objects.get(entry__player=me, board__number=1)
    deadline = time.monotonic() + WAIT_MS / 1000
    while table.status != TableStatus.FINISHED and time.monotonic() < deadline:
        time.sleep(0.2)
        table.refresh_from_db()
    assert table.status == TableStatus.FINISHED
    page.goto(f"{base}/daylong/{ev.pk}/")
    row = page.locator("#my-breakdown tbody tr").first
    assert f"{table.percent}%" in row.inner_text() and str(table.total) in row.inner_text()
    assert page.locator("#play").inner_text() == "Play stage 2"
    assert "(1)" in page.locator("#standings-note").inner_text()
    assert page.locator("#standings tr.me").count() == 1
    _shot(page, "breakdown")
    ctx.close()
