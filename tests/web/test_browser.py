"""The table in real headless Chromium: four people create, join and play through the pages.

Each seat has its own browser context (its own session). After every move all four pages
must update without a reload, and no page may hold a card of another seat's hand.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from django.test import Client

from backalley_engine.cards import card_str, mask_to_cards, parse_card
from backalley_engine.errors import EngineError
from games import selectors
from games.invitations import invitation_answer
from games.models import Game, GameStatus, Invitation, Seat
from tests.conftest import TEST_OUTPUT
from tests.factories import PASSWORD, PlayerFactory
from tests.web.conftest import shown_cards
from tests.web.layout import check_layout

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OUT = TEST_OUTPUT
NAMES = ("north", "east", "south", "west")
DEALS_IN_BROWSER = 1  # whole deals played through the pages, into the next one
WAIT_MS = 20_000


def _session_context(browser: Any, live_server: Any, user: Any, **options: Any) -> Any:
    client = Client()
    client.force_login(user)
    context = browser.new_context(**options)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    context.set_default_timeout(WAIT_MS)
    return context


def _hands(game: Game) -> list[set[str]]:
    state = selectors.game_state(game=game)
    assert state is not None
    return [{card_str(c) for c in mask_to_cards(state.hands[s])} for s in range(4)]


def _check_pages(pages: list[Any], game: Game) -> None:
    """Every page shows the current move, its own hand, and no card of another hand."""
    hands = _hands(game)
    for seat, page in enumerate(pages):
        page.locator(f'#board[data-seq="{game.move_count}"]').wait_for()
        # The page without its explanations of the rules (which name the Bloopers in general).
        html = page.evaluate(
            "(() => { const c = document.documentElement.cloneNode(true);"
            " c.querySelectorAll('.tip-text').forEach(e => e.remove()); return c.outerHTML; })()"
        )
        shown = shown_cards(html)
        assert hands[seat] <= shown, f"seat {seat} does not see its own hand"
        hidden = set().union(*(hands[s] for s in range(4) if s != seat))
        if shown & hidden:
            (OUT / f"leak-seat{seat}.html").write_text(html)
        assert not shown & hidden, f"seat {seat}'s page holds {sorted(shown & hidden)}"
        # A background tab tells its player when it is their turn.
        assert page.title().startswith("\u25cf Your turn") == (seat == game.to_act)


def _try_illegal_card(page: Any, game: Game) -> bool:
    """Re-enable a card the engine forbids (as a tampered or stale page might) and play it:
    the page must show the engine's own message. False when no card is forbidden now."""
    forbidden = page.locator(".hand button[data-card][aria-disabled='true']")
    if forbidden.count() == 0:
        return False
    card = forbidden.first.get_attribute("data-card")
    state = selectors.game_state(game=game)
    assert state is not None
    try:
        state.clone().apply(parse_card(card))
    except EngineError as exc:
        expected = exc.message
    else:  # pragma: no cover - a disabled card must be illegal
        raise AssertionError(f"{card} was disabled but is legal")
    # On demand, the page tells why (in the engine's words), and the card's name says it too.
    button = page.locator(f'.hand [data-card="{card}"]')
    assert expected in (button.get_attribute("aria-label") or "")
    button.click(force=True)  # a tap on a card that may not be played asks why
    notice = page.locator("#notice")
    notice.wait_for(state="visible")
    assert notice.inner_text() == expected
    assert Game.objects.get(pk=game.pk).move_count == game.move_count
    page.evaluate(
        "code => { const b = document.querySelector(`.hand [data-card='${code}']`);"
        " b.removeAttribute('aria-disabled'); delete b.dataset.reason; }",
        card,
    )
    page.evaluate("document.getElementById('notice').hidden = true")
    button.click()
    notice.wait_for(state="visible")
    assert notice.inner_text() == expected
    assert Game.objects.get(pk=game.pk).move_count == game.move_count  # nothing was written
    # After a refusal the page fetches the board again, which undoes the tampering: until
    # it has, the re-enabled card would be the first one the next move could pick.
    page.locator(f".hand [data-card='{card}'][aria-disabled='true']").wait_for()
    return True


def _play_one(page: Any, game: Game, *, keyboard: bool = False) -> None:
    """The seat to act makes its move on its page: bid 1 if it may, else the first legal card."""
    one = page.locator('.bids button[data-bid="1"]')
    if one.count():
        target = one
    elif page.locator(".bids button").count():
        target = page.locator(".bids button").first
    else:
        target = page.locator(".hand button[data-card]:not([aria-disabled='true'])").first
    if keyboard:
        # Reach the choice from the keyboard (Shift+Tab, Tab), so focus shows as it does
        # for a keyboard user, then choose it with Enter.
        target.focus()
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Tab")
        assert target.evaluate("el => el === document.activeElement")
        outline = target.evaluate("el => getComputedStyle(el).outlineStyle")
        assert outline != "none", "the focused choice must be visibly marked"
        page.keyboard.press("Enter")
    else:
        target.click()
    # The move is posted in the background: its page shows the next seq once it landed.
    try:
        page.locator(f'#board[data-seq="{game.move_count + 1}"]').wait_for()
    except Exception:
        (OUT / "debug.html").write_text(page.content())
        raise


def _sign_in(page: Any, live_server: Any, username: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/?next=/games/new/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form.form button[type=submit]")
    page.wait_for_url(re.compile(r"/games/new/$"))


def test_four_people_play_the_first_deals_through_the_pages(browser: Any, live_server: Any) -> None:
    OUT.mkdir(exist_ok=True)
    players = [PlayerFactory(name=n) for n in NAMES]

    # north signs in and creates the game; west finds it among the open games and sits down.
    north_ctx = browser.new_context()
    north_ctx.set_default_timeout(WAIT_MS)
    north = north_ctx.new_page()
    _sign_in(north, live_server, players[0].user.username)
    north.screenshot(path=str(OUT / "new-game.png"), full_page=True)
    north.fill("#id_left", "east")
    north.fill("#id_partner", "south")
    north.select_option("#id_time_control", "slow")
    north.click("form.new-game button[type=submit]")
    north.wait_for_url(re.compile(r"/games/g_[^/]+/$"))
    game = Game.objects.get(creator=players[0])
    assert game.status == GameStatus.WAITING
    north.locator("text=Waiting for players").wait_for()
    north.screenshot(path=str(OUT / "table-waiting.png"), full_page=True)
    # Naming people invites them: east and south accept (docs/invitations.md).
    for invitation in Invitation.objects.filter(game=game):
        invitation_answer(invitation_id=invitation.pk, user=invitation.player.user, accept=True)

    west_ctx = _session_context(browser, live_server, players[3].user)
    west = west_ctx.new_page()
    west.goto(f"{live_server.url}/games/open/")
    west.screenshot(path=str(OUT / "open-games.png"), full_page=True)
    west.click("text=Sit as east\u2019s partner")
    west.wait_for_url(re.compile(rf"/games/{game.public_id}/$"))
    # The creator's page notices the start by itself.
    north.locator('#board[data-status="active"]').wait_for()

    # Seats follow the names clockwise: north 0, east 1, south 2, west 3 (who took the last).
    assert [s.player.name for s in Seat.objects.filter(game=game).order_by("position")] == list(
        NAMES
    )
    contexts = [north_ctx] + [_session_context(browser, live_server, p.user) for p in players[1:3]]
    contexts.append(west_ctx)
    pages = [north, contexts[1].new_page(), contexts[2].new_page(), west]
    for page in pages[1:3]:
        page.goto(f"{live_server.url}/games/{game.public_id}/")
    game = Game.objects.get(pk=game.pk)
    _check_pages(pages, game)

    # A stale page: the seat to act has a second tab that misses the news (its feed fails).
    seat = game.to_act
    stale = contexts[seat].new_page()
    stale.route("**/events/**", lambda route: route.abort())
    stale.goto(f"{live_server.url}/games/{game.public_id}/")
    _play_one(pages[seat], game)
    game = Game.objects.get(pk=game.pk)
    _check_pages(pages, game)
    stale.locator(".bids button").first.click()
    stale.locator("#notice").wait_for(state="visible")
    assert stale.locator("#notice").inner_text() == (
        "The game is at move 1, not 0: here is the current state."
    )
    stale.locator('#board[data-seq="1"]').wait_for()  # and it shows the current state
    stale.screenshot(path=str(OUT / "table-stale-error.png"))
    assert Game.objects.get(pk=game.pk).move_count == 1
    stale.close()

    tried_illegal = False
    moves = 1
    while game.deal_number <= DEALS_IN_BROWSER:
        seat = game.to_act
        page = pages[seat]
        if not tried_illegal and game.to_act is not None and moves > 8:
            tried_illegal = _try_illegal_card(page, game)
        _play_one(page, game, keyboard=moves % 7 == 0)
        moves += 1
        game = Game.objects.get(pk=game.pk)
        assert game.move_count == moves
        _check_pages(pages, game)
        if moves == 30:  # mid-deal, the table on a phone
            _phone_screenshot(browser, live_server, players[seat].user, game, pages[seat])
    assert tried_illegal, "no forbidden card came up to try"
    assert game.deal_number == DEALS_IN_BROWSER + 1
    pages[0].screenshot(path=str(OUT / "table-desktop.png"), full_page=True)
    assert pages[0].locator("#scores tbody tr").count() == DEALS_IN_BROWSER + 1

    # The old deal is scored on every page.
    for page in pages:
        assert page.locator("#scores tbody tr").first.locator("td").count() == 2
    # My games lists the game, with the deadline of whoever is to act.
    to_act = pages[game.to_act]
    to_act.goto(f"{live_server.url}/games/")
    row = to_act.locator(".game-row.my-turn")
    assert "Your turn" in row.inner_text() and "due" in row.inner_text()
    to_act.screenshot(path=str(OUT / "my-games.png"), full_page=True)
    for ctx in contexts:
        ctx.close()
    time.sleep(0.5)  # let the server finish the pages' last requests before the database goes


def _phone_screenshot(browser: Any, live_server: Any, user: Any, game: Game, page: Any) -> None:
    ctx = _session_context(
        browser,
        live_server,
        user,
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    phone = ctx.new_page()
    phone.goto(f"{live_server.url}/games/{game.public_id}/")
    phone.locator(f'#board[data-seq="{game.move_count}"]').wait_for()
    check_layout(phone, "table (phone)")
    # Every card of the hand is a button a thumb can reach (at least 40 px tall).
    heights = phone.eval_on_selector_all(".hand button", "els => els.map(e => e.offsetHeight)")
    assert heights and min(heights) >= 40
    phone.screenshot(path=str(OUT / "table-phone.png"), full_page=True)
    ctx.close()


def test_on_a_phone_the_creator_invites_sees_the_answer_and_calls_the_game_off(
    browser: Any, live_server: Any
) -> None:
    from games.invitations import game_create_inviting
    from tests.web.layout import PHONE

    me, bob, carol = (PlayerFactory() for _ in range(3))
    game = game_create_inviting(creator=me, seats=[me, None, bob, None])
    context = _session_context(browser, live_server, me.user, **PHONE)
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.public_id}/")
    held = page.locator('.waiting-seats li[data-position="2"]')
    assert f"invited: {bob.name}" in held.inner_text() and held.locator("form").count() == 0
    seat = page.locator('.waiting-seats li[data-position="1"]')
    seat.locator("input[name=name]").fill(carol.name)
    seat.locator("button", has_text="Invite").click()
    page.locator(f"text={carol.name} is invited.").wait_for()
    assert (
        f"invited: {carol.name}"
        in page.locator('.waiting-seats li[data-position="1"]').inner_text()
    )
    assert Invitation.objects.get(game=game, player=carol).position == 1
    page.screenshot(path=str(OUT / "table-waiting-invited.png"), full_page=True)
    # carol accepts elsewhere; the page shows it when it comes back into view.
    carols = Invitation.objects.get(game=game, player=carol)
    invitation_answer(invitation_id=carols.pk, user=carol.user, accept=True)
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    seated = page.locator('.waiting-seats li[data-position="1"]')
    seated.locator(f"text={carol.name}").wait_for()
    page.wait_for_function(
        "!document.querySelector('.waiting-seats li[data-position=\"1\"]').innerText"
        ".includes('invited')"
    )
    page.locator("button", has_text="Call off this game").click()
    page.wait_for_url(re.compile(r"/games/$"))
    assert Game.objects.get(pk=game.pk).status == GameStatus.ABORTED
    context.close()
