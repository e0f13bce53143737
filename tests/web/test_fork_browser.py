"""Fork this hand, in real headless Chromium on a 390×844 phone: the record page's form fits
the window in every language with no English left, and a bot author forks the hand their
bot lost against three house bots, which play it to the end (bot turns run eagerly in the
server's thread). Screenshots go to test-output/forks/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from backalley_site.celery import app as celery_app
from bots.house import house_bots_ensure
from games.models import Game
from games.services import game_create
from tests.bots.helpers import hosted_bot
from tests.conftest import TEST_OUTPUT
from tests.factories import PlayerFactory
from tests.games.helpers import play
from tests.web.english import english_left
from tests.web.layout import PHONE, check_layout
from tests.web.test_languages_browser import LOCALES, _names, _visible_text

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OUT = TEST_OUTPUT / "forks"


@pytest.fixture
def eager_tasks() -> Iterator[None]:
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = False


def _phone(browser: Any, base: str, client: Client, locale: str = "en-GB") -> Any:
    ctx = browser.new_context(locale=locale, **PHONE)
    ctx.set_default_timeout(30_000)
    ctx.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}]
    )
    return ctx


@pytest.mark.timeout(300)
def test_fork_this_hand_on_a_phone_in_every_language_and_against_three_house_bots(
    browser: Any, live_server: Any, eager_tasks: None
) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    house_bots_ensure()
    author = PlayerFactory()
    people = [author, *(PlayerFactory() for _ in range(3))]
    options = {"rated": False, "schedule": {"first": 11, "last": 14}}
    original = play(game_create(creator=author, seats=people, options=options), 10_000)
    assert original.status == "finished"
    mine = hosted_bot("Phone-forker", strategy="heuristic", owner=author.user).player
    client = Client()
    client.force_login(author.user)
    url = f"{live_server.url}/games/{original.public_id}/record/"
    names = _names()
    for lang, locale in LOCALES.items():
        ctx = _phone(browser, live_server.url, client, locale)
        page = ctx.new_page()
        page.goto(url)
        page.wait_for_selector("#fork")
        check_layout(page, f"record with the fork form ({lang})")
        assert not english_left(_visible_text(page), lang, names), lang
        page.screenshot(path=str(OUT / f"record-{lang}.png"), full_page=True)
        ctx.close()

    ctx = _phone(browser, live_server.url, client)
    page = ctx.new_page()
    page.goto(url)
    check_layout(page, "record with the fork form")
    # The second deal's first bid, from the list of the game's deals.
    options_shown = page.locator("#id_start option").all_inner_texts()
    assert options_shown[0].startswith("Deal 11, from its first bid (move 0)")
    page.select_option("#id_start", index=1)
    start = int(page.locator("#id_start").input_value())
    assert start > 0
    page.select_option("#id_seat_0", mine.name)
    for seat, bot in zip(
        (1, 2, 3), ("house-strong", "house-strong-2", "house-strong-3"), strict=True
    ):
        page.select_option(f"#id_seat_{seat}", bot)
    page.locator("#fork-submit").scroll_into_view_if_needed()
    page.screenshot(path=str(OUT / "form-filled.png"), full_page=True)
    page.click("#fork-submit")
    page.wait_for_url(re.compile(r"/games/[^/]+/$"))
    fork = Game.objects.exclude(pk=original.pk).get()
    assert page.url.endswith(f"/games/{fork.public_id}/")
    fork.refresh_from_db()
    assert fork.status == "finished" and fork.forked_at_move == start and not fork.rated
    page.goto(f"{live_server.url}/games/{fork.public_id}/record/")
    assert original.public_id in page.locator("#forked-from").inner_text()
    check_layout(page, "the fork's record")
    page.screenshot(path=str(OUT / "fork-record.png"), full_page=True)
    ctx.close()
