"""The site in Lithuanian, Swedish and Gujarati, in real Chromium.

Every page reachable from home (and the table, rules, ladder, tournaments, arena, tokens,
invitations) in each language, at 390×844 and 1280×800: ``<html lang>`` right, nothing past
the window's edges (tests/web/layout.py), and no English left in the visible text
(tests/web/english.py). The language switcher is remembered after a sign-out and at the next
sign-in in another browser, and works without scripts. Screenshots of the table in each
language go to test-output/languages/.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from accounts.models import Player
from bots.house import house_bots_ensure
from games import invitations
from ladder.recompute import ladder_recompute
from tests.conftest import TEST_OUTPUT
from tests.daylong.helpers import pages_world
from tests.factories import PASSWORD, ApiTokenFactory, PlayerFactory
from tests.ladder.helpers import played_game
from tests.tournaments.helpers import event, pairs
from tests.web.english import english_left
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

OUT = TEST_OUTPUT / "languages"
SIZES = {"desktop": {"viewport": {"width": 1280, "height": 800}}, "phone": PHONE}
LOCALES = {"lt": "lt-LT", "sv": "sv-SE", "gu": "gu-IN"}
__all__ = ["bots_worker", "short_pause"]  # fixtures, used by name


def _visible_text(page: Any) -> str:
    """The text a person reads: the body's rendered text, titles and labels of controls."""
    return str(
        page.evaluate(
            """() => {
              const bits = [document.body.innerText, document.title];
              for (const el of document.querySelectorAll('[title],[aria-label],[placeholder]')) {
                for (const a of ['title', 'aria-label', 'placeholder']) {
                  if (el.getAttribute(a)) bits.push(el.getAttribute(a));
                }
              }
              for (const el of document.querySelectorAll('input[type=submit],button')) bits.push(el.value || '');
              return bits.join('\\n');
            }"""
        )
    )


def _names() -> list[str]:
    """What a page may show as it is, in any language: people's and bots' names, event
    names, the brand."""
    from daylong.models import Event
    from tournaments.models import Tournament

    names = list(Player.objects.values_list("name", flat=True))
    names += list(Tournament.objects.values_list("name", flat=True))
    names += list(Event.objects.values_list("title", flat=True))
    return [*names, "Back Alley Club", "Back Alley"]


@pytest.mark.parametrize("lang", list(LOCALES))
def test_every_page_in_each_language_fits_and_has_no_english_left(
    browser: Any, live_server: Any, lang: str
) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    house_bots_ensure()
    me, *others = [PlayerFactory() for _ in range(4)]
    me.language = lang  # notices to me are written in my language
    me.save(update_fields=["language"])
    finished = played_game([me, *others], seed=3)
    active = played_game([me, *others], seed=4, moves=31)  # mid-deal: cards on the felt
    ladder_recompute()
    waiting = invitations.game_create_inviting(creator=me, seats=[me, None, PlayerFactory(), None])
    # An invitation waiting for my answer, on My games.
    host = PlayerFactory()
    invitations.game_create_inviting(creator=host, seats=[host, me, None, None])
    ApiTokenFactory(user=me.user, name="phone", scopes=["read", "play", "bot"])
    tournament = event(name="Friday evening event")
    pairs(tournament, 3)
    daylongs = pages_world(me, others)
    client = Client()
    client.force_login(me.user)
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
    }
    anonymous = {"login": "/accounts/login/", "signup": "/accounts/signup/", "home-visitor": "/"}
    names = _names()
    problems: list[str] = []
    for size, options in SIZES.items():
        for signed, todo in ((True, pages), (False, anonymous)):
            ctx = browser.new_context(locale=LOCALES[lang], **options)
            if signed:
                ctx.add_cookies(
                    [
                        {
                            "name": "sessionid",
                            "value": client.cookies["sessionid"].value,
                            "url": live_server.url,
                        }
                    ]
                )
            page = ctx.new_page()
            for name, path in todo.items():
                page.goto(live_server.url + path)
                if not name.startswith("table"):
                    page.wait_for_load_state("networkidle")
                label = f"{name} ({lang}, {size})"
                shown = page.evaluate("document.documentElement.lang")
                if shown != lang:
                    problems.append(f"{label}: <html lang={shown!r}>")
                try:
                    check_layout(page, label)
                except AssertionError as exc:
                    problems.append(str(exc))
                text = _visible_text(page)
                left = english_left(text, lang, names)
                if left:
                    where = [text[max(0, text.find(p) - 40) : text.find(p) + 40] for p in left[:3]]
                    problems.append(f"{label}: English left: {left[:8]} in {where}")
                if name.startswith("table") or name in ("home", "rules"):
                    page.screenshot(path=str(OUT / f"{name}-{lang}-{size}.png"), full_page=True)
            ctx.close()
    assert not problems, "\n".join(problems)


def _signed_up(page: Any, base: str, name: str) -> None:
    page.goto(f"{base}/accounts/signup/")
    page.fill("input[name=username]", name.lower())
    page.fill("input[name=name]", name)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("form.form button[type=submit]")
    page.wait_for_url(re.compile(r"/$"))


def test_the_switcher_is_remembered_after_signing_out_and_in_elsewhere(
    browser: Any, live_server: Any
) -> None:
    base = live_server.url
    ctx = browser.new_context(locale="en-GB", **PHONE)
    page = ctx.new_page()
    _signed_up(page, base, "Greta")
    assert page.evaluate("document.documentElement.lang") == "en"
    page.goto(f"{base}/ladder/")
    page.select_option("#lang-select", "sv")  # takes effect on choosing (a script)
    page.wait_for_function("document.documentElement.lang === 'sv'")
    assert page.url == f"{base}/ladder/"  # back on the same page
    assert page.get_by_role("heading", name="Stegen").is_visible()
    check_layout(page, "switcher chosen (phone)")
    assert Player.objects.get(name="Greta").language == "sv"
    page.get_by_role("button", name="Logga ut").click()
    page.wait_for_url(re.compile(r"/$"))
    assert page.evaluate("document.documentElement.lang") == "sv"  # signed out, still Swedish
    ctx.close()

    # Another browser, set to English, never saw the switcher: signing in brings Swedish.
    other = browser.new_context(locale="en-US")
    page = other.new_page()
    page.goto(f"{base}/accounts/login/")
    assert page.evaluate("document.documentElement.lang") == "en"
    page.fill("input[name=username]", "greta")
    page.fill("input[name=password]", PASSWORD)
    page.click("form.form button[type=submit]")
    page.wait_for_url(re.compile(r"/$"))
    assert page.evaluate("document.documentElement.lang") == "sv"
    assert page.get_by_role("link", name="Regler", exact=True).count() >= 1
    other.close()


def test_the_switcher_works_without_scripts(browser: Any, live_server: Any) -> None:
    ctx = browser.new_context(locale="sv-SE", java_script_enabled=False, **PHONE)
    page = ctx.new_page()
    page.goto(f"{live_server.url}/rules/")
    assert page.locator("html").get_attribute("lang") == "sv"
    go = page.locator(".lang-switch button[type=submit]")
    assert go.is_visible()  # without scripts the button is the way
    page.select_option("#lang-select", "gu")
    go.click()
    page.wait_for_url(re.compile(r"/rules/$"))
    assert page.locator("html").get_attribute("lang") == "gu"
    assert page.get_by_role("heading", name="બેક એલીના નિયમો").is_visible()
    check_layout(page, "rules in Gujarati (phone, no scripts)")
    ctx.close()


# A whole day-one game through the page, in Swedish and in Gujarati: sign up, one click
# against three house bots (a real worker plays them), 25 deals, the result panel, the
# ladder. The same flow as tests/web/test_day_one_browser.py, its words checked in the
# language on the way, the table photographed at deals 1, 13 and 25.

GREETINGS = {"sv": "Välkommen till klubben, Dag-Ett!", "gu": "ક્લબમાં તમારું સ્વાગત છે, Dag-Ett!"}
RESULT_WORDS = {"sv": ("Partiet är slut", "Returmatch"), "gu": ("રમત પૂરી", "ફરી રમો")}


@pytest.mark.worker
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("lang", ["sv", "gu"])
def test_a_whole_day_one_game_through_the_page_in_the_language(
    browser: Any, live_server: Any, bots_worker: None, short_pause: None, lang: str
) -> None:
    from games.models import Game, GameStatus

    OUT.mkdir(parents=True, exist_ok=True)
    house_bots_ensure()
    base = live_server.url
    ctx = browser.new_context(locale=LOCALES[lang], viewport={"width": 1280, "height": 800})
    ctx.set_default_timeout(WAIT_MS)
    page = ctx.new_page()
    log = PageLog(page)
    _signed_up(page, base, "Dag-Ett")
    assert page.locator("html").get_attribute("lang") == lang
    assert page.get_by_text(GREETINGS[lang]).is_visible()
    assert Player.objects.get(name="Dag-Ett").language == lang
    page.check('input[name=strength][value="easy"]')
    page.click("#play-bots-go")
    page.wait_for_url(re.compile(r"/games/g_[^/]+/$"))
    game = Game.objects.get(creator__name="Dag-Ett")
    assert game.rated and game.status == GameStatus.ACTIVE
    names = _names()
    shot: set[int] = set()
    moves = 0
    while _wait_for_me(page, log) != "finished":
        deal = int(page.locator("#board").get_attribute("data-deal").split(".")[0])
        if deal in (1, 13, 25) and deal not in shot and page.locator(".bids button").count():
            shot.add(deal)
            label = f"table deal {deal} ({lang})"
            check_layout(page, label)
            left = english_left(_visible_text(page), lang, names)
            assert not left, f"{label}: English left: {left}"
            page.screenshot(path=str(OUT / f"day-one-{lang}-deal{deal}.png"), full_page=True)
        _move(page, log, keyboard=moves % 4 == 0)
        moves += 1
    assert shot == {1, 13, 25}
    result = page.locator("#result")
    result.wait_for()
    page.locator("#result .delta:not(:text('…'))").first.wait_for(timeout=60_000)
    text = result.inner_text()
    for word in RESULT_WORDS[lang]:
        assert word in text, word
    assert not english_left(_visible_text(page), lang, names)
    check_layout(page, f"result ({lang})")
    page.screenshot(path=str(OUT / f"day-one-{lang}-result.png"), full_page=True)
    page.goto(f"{base}/ladder/")
    assert page.locator("tr.mine").count() == 1
    ctx.close()
