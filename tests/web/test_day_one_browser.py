"""Day one in real headless Chromium: sign up, one click, a whole rated game against three
house bots (played by a real worker), the result panel, and the rating on the ladder.

Along the way, at 1280×800 and at 390×844: the hand, the bids and the turn line stay in the
window at deals 1, 13 and 25; no page is wider than the window; seat plates never overlap
the cards on the felt; a finished trick shows after the bots answer; the deal summary shows
when a deal ends; moves are made from the keyboard too. Screenshots go to test-output/day-one/.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from bots.house import house_bots_ensure
from games.models import Game, GameStatus
from ladder.models import RatingChange
from tests.conftest import TEST_OUTPUT
from tests.web.layout import check_layout, in_viewport, phone_context
from tests.web.pagelog import PageLog

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OUT = TEST_OUTPUT / "day-one"
DESKTOP = {"width": 1280, "height": 800}
CHECK_DEALS = (1, 13, 25)
WAIT_MS = 30_000


@pytest.fixture
def bots_worker(tmp_path: Any) -> Iterator[None]:
    """A real worker for the bots' turns and the rating (one process, solo pool)."""
    from backalley_site.celery import app
    from tests.bots.worker import Worker, purge_broker, require_worker_services

    require_worker_services()
    purge_broker()
    app.conf.task_always_eager = False
    worker = Worker(tmp_path, queues="bots,celery,ratings", pool="solo", name="day-one")
    worker.start(timeout=90)
    yield
    worker.stop()
    purge_broker()


@pytest.fixture
def short_pause(settings: Any) -> None:
    settings.GAMES_TRICK_PAUSE_MS = 150  # the test plays fast; people get the default


def _sign_up(page: Any, base: str) -> None:
    page.goto(f"{base}/accounts/signup/")
    page.fill("input[name=username]", "dayone")
    page.fill("input[name=name]", "Day-One")
    page.fill("input[name=password1]", "a-Long-pass-77")
    page.fill("input[name=password2]", "a-Long-pass-77")
    page.click("form.form button[type=submit]")
    page.wait_for_url(re.compile(r"/$"))


def _wait_for_me(page: Any, log: PageLog) -> str:
    """Until it is this seat's turn (the board shows bids or playable cards) or the game ends."""
    log.wait_for(
        """() => {
          const b = document.getElementById('board');
          if (!b) return false;
          if (b.dataset.status === 'finished') return true;
          return b.classList.contains('my-turn') && !b.classList.contains('busy')
            && !!b.querySelector(".bids button, .hand button:not([aria-disabled='true'])");
        }""",
        "this seat's turn",
        WAIT_MS,
    )
    return page.locator("#board").get_attribute("data-status")


def _move(page: Any, log: PageLog, keyboard: bool) -> None:
    seq = int(page.locator("#board").get_attribute("data-seq"))
    if page.locator(".bids button").count():
        if keyboard:
            page.locator(".bids button").first.focus()
            page.keyboard.press("p" if page.locator('.bids [data-bid="pass"]').count() else "b")
        else:
            one = page.locator('.bids button[data-bid="1"]')
            (one if one.count() else page.locator(".bids button").first).click()
    else:
        cards = page.locator(".hand button")
        if keyboard:
            # Arrows move along the hand (round it, at the end); Enter plays the first card
            # that may be played. Pressed one at a time, each read back: a person looks
            # where the focus is before pressing Enter.
            cards.first.focus()
            legal = page.locator(".hand button:not([aria-disabled='true'])").first
            target = legal.get_attribute("data-card")
            for _ in range(2 * cards.count() + 2):
                if page.evaluate("document.activeElement.dataset.card") == target:
                    break
                page.keyboard.press("ArrowRight")
            assert page.evaluate("document.activeElement.dataset.card") == target, (
                f"the arrows never reached {target}; {log.board_state()}"
            )
            page.keyboard.press("Enter")
        else:
            page.locator(".hand button:not([aria-disabled='true'])").first.click()
    log.wait_for(
        f"() => parseInt(document.getElementById('board').dataset.seq, 10) > {seq}",
        f"the board after move {seq + 1}",
        WAIT_MS,
    )


def _check_dock(page: Any, label: str) -> None:
    for sel in ("#turn", ".hand", ".bids"):
        assert in_viewport(page, sel), f"{label}: {sel} is not in the window"
    check_layout(page, label)


@pytest.mark.timeout(1500)  # a whole 25-deal game through the page (~200 moves of one seat)
def test_day_one_sign_up_one_click_a_whole_rated_game_and_the_ladder(
    browser: Any, live_server: Any, bots_worker: None, short_pause: None
) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    house_bots_ensure()
    base = live_server.url
    ctx = browser.new_context(viewport=DESKTOP)
    ctx.set_default_timeout(WAIT_MS)
    page = ctx.new_page()
    log = PageLog(page)
    _sign_up(page, base)
    assert page.get_by_text("Welcome to the club, Day-One!").is_visible()
    assert page.get_by_text("Welcome back").count() == 0  # one greeting
    page.screenshot(path=str(OUT / "home-desktop.png"))

    # One click: easy bots, rated by default.
    page.check('input[name=strength][value="easy"]')
    page.click("#play-bots-go")
    page.wait_for_url(re.compile(r"/games/g_[^/]+/$"))
    game = Game.objects.get(creator__name="Day-One")
    assert game.rated and game.status == GameStatus.ACTIVE
    # Seen by the page: finished tricks with their winner, and deal summaries, as they show.
    page.evaluate(
        """() => { window.__seen = {tricks: 0, summaries: 0};
          new MutationObserver(() => {
            if (document.querySelector('#trick.done .played.winner')) window.__seen.tricks++;
            const s = document.getElementById('deal-summary');
            if (s && !s.hidden) window.__seen.summaries++;
          }).observe(document.body, {subtree: true, childList: true, attributes: true}); }"""
    )
    url = page.url
    phone_ctx = phone_context(browser, ctx, base)
    moves = 0
    checked: set[int] = set()
    shots = {"trick": False, "summary": False}
    while _wait_for_me(page, log) != "finished":
        deal = int(page.locator("#board").get_attribute("data-deal").split(".")[0])
        if deal in CHECK_DEALS and deal not in checked and page.locator(".bids button").count():
            checked.add(deal)
            _check_dock(page, f"desktop deal {deal}")
            page.screenshot(path=str(OUT / f"table-deal{deal}-desktop.png"))
            phone = phone_ctx.new_page()
            phone.goto(url)
            phone.locator(".bids button").first.wait_for()
            _check_dock(phone, f"phone deal {deal}")
            phone.screenshot(path=str(OUT / f"table-deal{deal}-phone.png"))
            phone.close()
        summary = page.locator("#deal-summary")
        if not shots["summary"] and summary.count() and summary.is_visible():
            shots["summary"] = True
            assert "Points" in summary.inner_text() and "contract" in summary.inner_text()
            page.screenshot(path=str(OUT / "deal-summary-desktop.png"))
            page.click("#summary-close")  # dismissed; the next move would also close it
            assert not summary.is_visible()
        if not shots["trick"] and page.locator("#trick.done .played.winner").count():
            shots["trick"] = True
            check_layout(page, "finished trick")
            page.screenshot(path=str(OUT / "finished-trick-desktop.png"))
        _move(page, log, keyboard=moves % 3 == 0)
        moves += 1
        if moves % 3 == 1:
            # After a move from the keyboard, focus is back in the hand.
            page.wait_for_function(
                "() => !!document.activeElement.closest('.hand, .bids') || "
                "document.getElementById('board').dataset.status === 'finished'"
            )
    assert checked == set(CHECK_DEALS)
    seen = page.evaluate("window.__seen")
    assert seen["tricks"] > 0, "no finished trick was ever on the felt"
    assert seen["summaries"] > 0, "no deal summary was shown"
    assert shots["summary"] and shots["trick"]

    # The result panel: totals, the winner, each seat's rating change, links and rematch.
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    result = page.locator("#result")
    result.wait_for()
    page.locator("#result .delta:not(:text('…'))").first.wait_for(timeout=60_000)
    text = result.inner_text()
    assert f"{game.total_0}" in text and f"{game.total_1}" in text
    assert RatingChange.objects.filter(game=game).count() == 4
    deltas = result.locator(".delta").all_inner_texts()
    assert len(deltas) == 4 and all(re.fullmatch(r"[+-]\d+\.\d", d) for d in deltas)
    assert result.get_by_role("link", name="The record page").count() == 1
    assert result.get_by_role("button", name="Rematch").count() == 1
    check_layout(page, "result")
    page.screenshot(path=str(OUT / "result-desktop.png"), full_page=True)
    phone = phone_ctx.new_page()
    phone.goto(url)
    phone.locator("#result").wait_for()
    check_layout(phone, "result phone")
    phone.screenshot(path=str(OUT / "result-phone.png"), full_page=True)

    # The rating on the default ladder view, my row marked.
    page.goto(f"{base}/ladder/")
    mine = page.locator("tr.mine")
    assert mine.count() == 1 and "Day-One" in mine.inner_text() and "?" in mine.inner_text()
    page.screenshot(path=str(OUT / "ladder-desktop.png"), full_page=True)

    # Rematch: same seats, a new game.
    page.goto(url)
    page.get_by_role("button", name="Rematch").click()
    page.wait_for_url(re.compile(r"/games/g_[^/]+/$"))
    assert page.url != url
    again = Game.objects.exclude(pk=game.pk).get(creator__name="Day-One")
    assert [s.player_id for s in again.seats.order_by("position")] == [
        s.player_id for s in game.seats.order_by("position")
    ]
    assert again.seed != game.seed and again.rated
    phone_ctx.close()
    ctx.close()
    time.sleep(0.3)
