"""Every page in Chromium at 1280×800 and 390×844: no element past the window's edge
(tests/web/layout.py), no seat plate over a card on the felt, and (home, table, ladder,
record) no serious or critical accessibility violation in an axe-core scan. Screenshots go
to test-output/pages/."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from bots.house import house_bots_ensure
from games import invitations
from games.models import Game
from ladder.recompute import ladder_recompute
from tests.conftest import TEST_OUTPUT
from tests.daylong.helpers import pages_world
from tests.factories import ApiTokenFactory, PlayerFactory
from tests.ladder.helpers import played_game
from tests.tournaments.helpers import event, pairs
from tests.web.layout import PHONE, check_layout

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OUT = TEST_OUTPUT / "pages"
SIZES = {"desktop": {"viewport": {"width": 1280, "height": 800}}, "phone": PHONE}
SCANNED = {"home", "table", "table-waiting", "table-finished", "ladder", "record"}


def _axe_serious(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v.get("impact") in ("serious", "critical")
    ]


@pytest.mark.parametrize("size", list(SIZES))
def test_every_page_fits_the_window_and_passes_an_accessibility_scan(
    browser: Any, live_server: Any, size: str
) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    house_bots_ensure()
    me, *others = [PlayerFactory() for _ in range(4)]
    finished = played_game([me, *others], seed=3)
    active = played_game([me, *others], seed=4, moves=31)  # mid-deal: cards on the felt
    ladder_recompute()
    # A game of mine waiting for players: one seat held for an invitee, two open.
    waiting = invitations.game_create_inviting(creator=me, seats=[me, None, PlayerFactory(), None])
    assert Game.objects.get(pk=finished.pk).status == "finished"
    # A token with every scope and a long name: the tokens table at its widest.
    ApiTokenFactory(user=me.user, name="my phone's bot runner", scopes=["read", "play", "bot"])
    tournament = event(name="Friday evening Swiss for everyone")
    pairs(tournament, 3)
    daylongs = pages_world(me, others)
    client = Client()
    client.force_login(me.user)
    ctx = browser.new_context(**SIZES[size])
    ctx.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page = ctx.new_page()
    pages = {
        "home": "/",
        "rules": "/rules/",
        "how-ratings-work": "/ladder/how-ratings-work/",
        "ladder": "/ladder/",
        "pairs": "/ladder/pairs/",
        "player": f"/ladder/players/{me.name}/",
        "record": f"/ladder/games/{finished.public_id}/",
        "my-games": "/games/",
        "open-games": "/games/open/",
        "new-game": "/games/new/",
        "table": f"/games/{active.public_id}/",
        "table-waiting": f"/games/{waiting.public_id}/",
        "table-finished": f"/games/{finished.public_id}/",
        "tokens": "/accounts/tokens/",
        "notifications": "/notifications/",
        "tournaments": "/tournaments/",
        "tournament": f"/tournaments/{tournament.pk}/",
        "daylongs": "/daylong/",
        "daylong": f"/daylong/{daylongs['live'].pk}/",
        "daylong-closed": f"/daylong/{daylongs['closed'].pk}/",
        "daylong-tables": f"/daylong/{daylongs['closed'].pk}/tables/",
        "arena": "/arena/",
        "arena-bot": "/arena/bots/house-heuristic/",
        "login": "/accounts/login/",
        "signup": "/accounts/signup/",
    }
    problems: list[str] = []
    for name, path in pages.items():
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle") if name not in ("table", "table-waiting") else None
        try:
            check_layout(page, f"{name} ({size})")
        except AssertionError as exc:
            problems.append(str(exc))
        page.screenshot(path=str(OUT / f"{name}-{size}.png"), full_page=True)
        if name in SCANNED:
            problems += [f"{name} ({size}): {v}" for v in _axe_serious(page)]
    assert page.goto(live_server.url + "/favicon.ico").ok
    ctx.close()
    assert not problems, "\n".join(problems)
