"""The ladder in real headless Chromium: the standings, a player's chart, a game's replay.

Screenshots go to test-output/ladder/.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from ladder import hooks
from ladder.recompute import ladder_recompute
from tests.conftest import TEST_OUTPUT
from tests.ladder.helpers import finished_game, played_game, players

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OUT = TEST_OUTPUT / "ladder"


@pytest.fixture
def ladder_data(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    monkeypatch.setattr(hooks, "enqueue_rating", lambda game_id: None)
    four = players(3) + players(1, bots=1)
    for i in range(20):
        finished_game(four, winner=[0, 1, 0, None][i % 4], minute=i)
    real = played_game(four, seed=11)  # the latest game, played move by move
    live = played_game(four, seed=12, moves=40)
    ladder_recompute()
    return {"hero": four[0], "bot": four[3], "game": real, "live": live}


def test_ladder_player_chart_and_game_replay(
    browser: Any, live_server: Any, ladder_data: dict[str, Any]
) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    hero, game = ladder_data["hero"], ladder_data["game"]
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.set_default_timeout(15_000)

    page.goto(live_server.url + "/ladder/")
    rows = page.locator("#standings tbody tr")
    assert rows.count() == 4
    assert page.locator("#standings .bot").count() == 1  # the bot's badge
    assert rows.nth(0).locator("td").nth(0).inner_text() == "1"
    assert "?" not in page.locator("#standings").inner_text()  # 21 games: established
    page.screenshot(path=str(OUT / "ladder.png"), full_page=True)

    page.get_by_role("link", name=hero.name, exact=True).first.click()
    page.wait_for_url(re.compile(r".*/ladder/players/.*"))
    assert page.locator("#player-name").inner_text().startswith(hero.name)
    chart = page.locator("#rating-chart")
    assert chart.is_visible()
    box = chart.bounding_box()
    assert box is not None and box["width"] > 300 and box["height"] > 100
    points = chart.locator("polyline").get_attribute("points")
    assert points is not None and len(points.split()) == 21
    page.screenshot(path=str(OUT / "player.png"), full_page=True)

    page.locator("#recent-games").get_by_role("link", name=game.public_id).click()
    page.wait_for_url(re.compile(rf".*/games/{game.public_id}/record/"))
    assert page.locator("#result").is_visible()
    deals = page.locator("#deals tbody tr")
    assert deals.count() >= 25
    position = page.locator("#replay-position")
    assert position.inner_text().startswith("step 1 of ")
    assert page.locator("#replay-trick").inner_text().startswith("Bidding done")
    hand_before = page.locator("#replay .seat .card").count()
    assert hand_before == 4 * 13  # the first deal's hands, all shown after the game
    for _ in range(5):
        page.locator("#replay-next").click()
    assert position.inner_text().startswith("step 6 of ")
    assert page.locator("#replay-trick .card").count() == 1  # 5 cards: trick 2's first card
    assert page.locator("#replay .seat .card").count() == hand_before - 5
    page.locator("#replay").press("ArrowRight")
    assert position.inner_text().startswith("step 7 of ")
    page.locator("#replay").press("ArrowLeft")
    page.locator("#replay").press("ArrowLeft")
    assert position.inner_text().startswith("step 5 of ")
    assert page.locator("#replay-trick .card").count() == 4
    assert "won by" in page.locator("#replay-trick").inner_text()
    page.screenshot(path=str(OUT / "game-replay.png"), full_page=True)
    page.locator("#replay-next-deal").click()
    assert page.locator("#replay-deal").inner_text().startswith("Deal 2")
    page.locator("#replay-prev").click()
    assert "card 13 of" in position.inner_text() or "card" in position.inner_text()
    assert page.locator("#replay-deal").inner_text().startswith("Deal 1")

    # A game in progress: the spectator's view, no hands.
    page.goto(live_server.url + f"/ladder/games/{ladder_data['live'].public_id}/")
    assert page.locator("#live").is_visible()
    assert page.locator("#replay .seat em").count() == 4  # "hand hidden" for every seat
    page.screenshot(path=str(OUT / "game-live.png"), full_page=True)

    phone = browser.new_page(viewport={"width": 390, "height": 844})
    phone.goto(live_server.url + "/ladder/")
    assert phone.locator("#standings").is_visible()
    phone.screenshot(path=str(OUT / "ladder-phone.png"), full_page=True)
