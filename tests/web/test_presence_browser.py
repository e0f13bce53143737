"""Who is at the table, in real headless Chromium: a seat's open page fills its dot on the
other players' tables, closing it empties the dot, a spectator sees no dots, and "My games"
says who is at the table now (games.live.presence, docs/live.md)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.test import Client

from games.live.presence import presence
from games.models import Game
from games.services import game_create
from tests.conftest import TEST_OUTPUT
from tests.factories import PlayerFactory
from tests.web.layout import check_layout

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_MS = 20_000
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def _context(browser: Any, live_server: Any, user: Any) -> Any:
    client = Client()
    client.force_login(user)
    context = browser.new_context(**PHONE)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    context.set_default_timeout(WAIT_MS)
    return context


def _table(context: Any, live_server: Any, game: Game) -> Any:
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.public_id}/")
    page.locator("#board").wait_for()
    return page


def _dot(page: Any, seat: int) -> Any:
    return page.locator(f'#board .seat[data-position="{seat}"] .presence')


def _wait_until_away(game: Game, seat: int) -> None:
    deadline = time.monotonic() + WAIT_MS / 1000
    while presence(game.id, seat).present:
        assert time.monotonic() < deadline, f"seat {seat}'s closed page never said it left"
        time.sleep(0.05)


def test_the_table_shows_who_is_there_and_my_games_puts_those_tables_first(
    browser: Any, live_server: Any
) -> None:
    players = [PlayerFactory(name=f"here{i}") for i in range(4)]
    game = game_create(creator=players[0], seats=players)
    other = game_create(
        creator=players[3], seats=[players[3]] + [PlayerFactory(name=f"q{i}") for i in range(3)]
    )
    second = _context(browser, live_server, players[2].user)
    seat2 = _table(second, live_server, game)
    # Its page said it is shown: on seat 0's table, seat 2's dot is filled, 1 and 3 hollow.
    seat2.wait_for_function(
        "() => performance.getEntriesByType('resource').some(e => e.name.endsWith('/presence/'))"
    )
    first = _context(browser, live_server, players[0].user)
    seat0 = _table(first, live_server, game)
    _dot(seat0, 2).and_(seat0.locator(".here")).wait_for()
    for away in (1, 3):
        assert "here" not in (_dot(seat0, away).get_attribute("class") or "")
    assert _dot(seat0, 2).get_attribute("aria-label") == "at the table now"
    check_layout(seat0, "table with presence marks (phone)")
    TEST_OUTPUT.mkdir(exist_ok=True)
    seat0.screenshot(path=str(TEST_OUTPUT / "presence-phone.png"), full_page=True)

    # Seat 3 is away from both its tables: "My games" lists first the one where others are.
    fourth = _context(browser, live_server, players[3].user)
    mine = fourth.new_page()
    mine.goto(f"{live_server.url}/games/")
    rows = mine.locator(".game-row .game-link").evaluate_all("els => els.map(e => e.href)")
    assert rows.index(next(r for r in rows if game.public_id in r)) < rows.index(
        next(r for r in rows if other.public_id in r)
    )
    assert mine.locator(".here-now").inner_text().strip() == "2 others at the table now"
    check_layout(mine, "my games with presence (phone)")

    # Seat 2 closes its page: its last word says so, and seat 0's table shows it away.
    seat2.close()
    # The last word travels on its own (a keepalive request, sent after the page is gone):
    # the browser context is closed only once the server has it, since closing the context
    # cancels its requests still in flight, and seat 0's table is read again only then.
    _wait_until_away(game, 2)
    second.close()
    seat0.reload()
    seat0.locator("#board").wait_for()
    assert "here" not in (_dot(seat0, 2).get_attribute("class") or "")

    # A spectator is shown nobody's presence.
    stranger = _context(browser, live_server, PlayerFactory(name="watcher").user)
    watch = _table(stranger, live_server, game)
    assert watch.locator("#board .presence").count() == 0
