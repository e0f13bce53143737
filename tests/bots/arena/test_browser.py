"""The arena's pages in real headless Chromium: the leaderboard, a bot's page with its chart
and (for its owner) its fault log, and the settings form. Screenshots: test-output/arena/."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bots.arena.models import ArenaEntry, ArenaPair
from bots.arena.services import arena_game_finished, arena_tick
from bots.models import BotFault
from tests.bots.arena.helpers import entered_bot, finish
from tests.conftest import TEST_OUTPUT
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OUT = TEST_OUTPUT / "arena"


def test_the_arena_pages_in_chromium(browser: Any, live_server: Any) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    bots = [entered_bot(f"Web-{i}") for i in range(4)]
    arena_tick(rng=random.Random(1))
    pair = ArenaPair.objects.get()
    finish(pair.game_a, (120, 80))
    finish(pair.game_b, (90, 100))
    arena_game_finished(game_id=pair.game_a_id)
    arena_game_finished(game_id=pair.game_b_id)
    hero = bots[0]
    BotFault.objects.create(bot=hero, kind="timeout", detail="no answer in 3 s", seq=5)
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.set_default_timeout(15_000)

    page.goto(live_server.url + "/arena/")
    rows = page.locator("#arena-leaderboard tbody tr")
    assert rows.count() == 4
    assert "25.0" in page.locator("#arena-leaderboard").inner_text()
    page.screenshot(path=str(OUT / "leaderboard.png"), full_page=True)

    page.click(f"text={hero.player.name}")
    page.wait_for_selector("#rating-chart")
    assert page.locator("#bot-name").inner_text().startswith(hero.player.name)
    assert hero.player.owner.username in page.locator("#bot-summary").inner_text()
    assert page.locator("#recent-pairs tbody tr").count() == 1
    assert page.locator("#fault-log").count() == 0  # not the owner

    # The owner logs in: the fault log and the settings.
    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=username]", hero.player.owner.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button[type=submit]")  # the login form, not the top bar's
    page.goto(live_server.url + f"/arena/bots/{hero.player.name}/")
    assert "no answer in 3 s" in page.locator("#fault-log").inner_text()
    page.screenshot(path=str(OUT / "bot.png"), full_page=True)
    page.click("#settings-link")
    page.uncheck("#opted_in")
    page.fill("#max_concurrent", "4")
    page.click("text=Save")
    page.wait_for_selector("#arena-settings")
    entry = ArenaEntry.objects.get(bot=hero)
    assert (entry.opted_in, entry.max_concurrent) == (False, 4)
    page.screenshot(path=str(OUT / "settings.png"), full_page=True)
