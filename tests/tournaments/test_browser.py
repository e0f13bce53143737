"""The tournament pages in Chromium: register with a partner, the partner confirms, the
organiser starts, the round's table links to its game, which links back to the event."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.factories import PASSWORD, PlayerFactory
from tests.tournaments.helpers import end_game, event, pairs

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _login(page, live_server, player) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", player.user.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button[type=submit]")  # the login form, not the top bar's
    page.wait_for_load_state()


def test_registering_confirming_starting_and_following_a_game(browser, live_server) -> None:  # type: ignore[no-untyped-def]
    t = event(name="Browser Swiss", rounds=1)
    organiser = t.organiser
    pairs(t, 1)
    me, partner = PlayerFactory(), PlayerFactory()

    page = browser.new_page()
    _login(page, live_server, me)
    page.goto(f"{live_server.url}/tournaments/")
    page.click("text=Browser Swiss")
    page.fill("#partner", partner.name)
    page.click("#register")
    assert f"waiting for {partner.name} to confirm" in page.inner_text("#entrants")
    page.close()

    page = browser.new_page()
    _login(page, live_server, partner)
    page.goto(f"{live_server.url}/tournaments/{t.pk}/")
    page.click("#confirm")
    expect(page.locator("body")).to_contain_text("Partnership confirmed")
    page.close()

    page = browser.new_page()
    _login(page, live_server, organiser)
    page.goto(f"{live_server.url}/tournaments/{t.pk}/")
    page.click("#start")
    expect(page.locator("body")).to_contain_text("round 1 is paired")
    link = page.locator("#round-1 + table a").first
    public_id = link.inner_text()
    end_game(Game.objects.get(public_id=public_id), totals=(90, 40))
    page.reload()
    assert page.locator("#standings tbody tr").count() == 2
    assert "Standings (final)" in page.content()
    page.goto(f"{live_server.url}/ladder/games/{public_id}/")
    page.click(".game-part-tournament a")
    assert page.url.endswith(f"/tournaments/{t.pk}/#round-1")
    page.close()
