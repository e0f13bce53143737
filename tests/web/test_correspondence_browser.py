"""The table page in real headless Chromium, on a phone and a desktop: a card queued out of
turn is shown raised and played the moment the turn comes, a bid likewise; a claim is offered from the page
and answered from an opponent's page (docs/rules.md §10)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from backalley_engine import solver
from backalley_engine.cards import card_str
from games import statecache
from games.models import Game, Move, SubmittedBy
from games.services import game_create
from tests.conftest import TEST_OUTPUT
from tests.factories import PlayerFactory
from tests.games.helpers import play
from tests.web.layout import check_layout

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_MS = 20_000
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
SCREENS = {"phone": PHONE, "desktop": DESKTOP}


def _page(browser: Any, live_server: Any, user: Any, game: Game, screen: dict[str, Any]) -> Any:
    client = Client()
    client.force_login(user)
    context = browser.new_context(**screen)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.public_id}/")
    page.locator(f'#board[data-seq="{game.move_count}"]').wait_for()
    return page


def _new_game(names: tuple[str, ...]) -> tuple[Game, list[Any]]:
    players = [PlayerFactory(name=n) for n in names]
    game = game_create(creator=players[0], seats=players, seed="c0" * 32)
    return Game.objects.get(pk=game.pk), players


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_a_card_queued_out_of_turn_is_played_the_moment_the_turn_comes(
    browser: Any, live_server: Any, screen: str
) -> None:
    game, players = _new_game(tuple(f"{screen[:2]}pm{i}" for i in range(4)))
    game = play(game, 4)  # everyone bids: the deal is played
    state = statecache.state_for(game)
    leader = state.seat_to_act
    assert leader is not None and state.phase == "playing"
    nxt = (leader + 1) % 4
    lead = min(state.legal_actions())
    after = state.clone()
    after.apply(lead)
    follow = card_str(min(after.legal_actions()))
    other = next(card_str(c) for c in after.hand(nxt) if card_str(c) != follow)
    page = _page(browser, live_server, players[nxt].user, game, SCREENS[screen])
    # Clicked out of turn: raised; clicked again: cancelled.
    TEST_OUTPUT.mkdir(exist_ok=True)
    page.click(f".hand button[data-card='{other}']")
    page.locator(f".hand button.premoved[data-card='{other}']").wait_for()
    page.click(f".hand button[data-card='{other}']")
    page.locator(f".hand button[data-card='{other}']:not(.premoved)").wait_for()
    page.click(f".hand button[data-card='{follow}']")
    page.locator(f".hand button.premoved[data-card='{follow}']").wait_for()
    check_layout(page, f"table with a queued card ({screen})")
    page.screenshot(path=str(TEST_OUTPUT / f"premove-{screen}.png"), full_page=True)
    # The leader plays (elsewhere): the queued card lands in the same commit.
    from games.services import move_submit

    move_submit(game_id=game.pk, seats=[leader], action=lead, expected_seq=game.move_count)
    move = Move.objects.get(game=game, seq=game.move_count + 2)
    assert (move.seat, move.submitted_by, move.action) == (
        nxt,
        SubmittedBy.PREMOVE,
        {"card": follow},
    )
    page.locator(f'#board[data-seq="{game.move_count + 2}"]').wait_for()
    assert page.locator(f".hand button[data-card='{follow}']").count() == 0
    page.locator(f"#trick [data-card='{follow}']").wait_for()


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_a_bid_queued_out_of_turn_is_made_the_moment_the_turn_comes(
    browser: Any, live_server: Any, screen: str
) -> None:
    game, players = _new_game(tuple(f"{screen[:2]}pb{i}" for i in range(4)))
    state = statecache.state_for(game)
    first = state.seat_to_act
    assert first is not None and state.phase == "bidding"
    last = (first + 3) % 4  # bids fourth: three bids to queue through
    page = _page(browser, live_server, players[last].user, game, SCREENS[screen])
    page.click(".premove-bids button[data-premove-bid='2']")
    page.locator(".premove-bids button.premoved[data-premove-bid='2']").wait_for()
    page.click(".premove-bids button[data-premove-bid='2']")
    page.locator(".premove-bids button[data-premove-bid='2']:not(.premoved)").wait_for()
    page.click(".premove-bids button[data-premove-bid='pass']")
    page.locator(".premove-bids button.premoved[data-premove-bid='pass']").wait_for()
    check_layout(page, f"table with a queued bid ({screen})")
    from games.services import move_submit

    # Not four passes (a passed-out deal is dealt again, with a bidding of its own).
    bids: list[Any] = [1, "pass", "pass"]
    for seq, (seat, bid) in enumerate(
        zip((first, (first + 1) % 4, (first + 2) % 4), bids, strict=True)
    ):
        move_submit(game_id=game.pk, seats=[seat], action={"bid": bid}, expected_seq=seq)
    move = Move.objects.filter(game=game, seat=last).order_by("seq").first()
    assert move is not None
    assert (move.submitted_by, move.action) == (SubmittedBy.PREMOVE, {"bid": "pass"})
    game.refresh_from_db()
    page.locator(f'#board[data-seq="{game.move_count}"]').wait_for()
    assert page.locator(".premove-bids").count() == 0


def _unproven_claim_spot(game: Game) -> tuple[Game, int, int]:
    for _ in range(600):
        state = statecache.state_for(game)
        if state.phase == "playing" and not state.trick and 2 <= state.n - len(state.tricks) <= 4:
            for seat in range(4):
                b = solver.trick_bounds(state, team=seat & 1, budget=10**6)
                if b is not None and b[1] > b[0]:
                    return game, seat, b[1]
        game = play(game, 1)
    raise AssertionError("no gap with an unproven claim")


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_a_claim_is_offered_on_the_page_and_answered_by_the_opponents(
    browser: Any, live_server: Any, screen: str
) -> None:
    game, players = _new_game(tuple(f"{screen[:2]}cl{i}" for i in range(4)))
    game, seat, k = _unproven_claim_spot(game)
    deal = statecache.state_for(game).deal_number
    claimant = _page(browser, live_server, players[seat].user, game, SCREENS[screen])
    first, second = (seat + 1) % 4, (seat + 3) % 4
    opponent = _page(browser, live_server, players[first].user, game, SCREENS[screen])
    claimant.select_option("#claim-form select[name=tricks]", str(k))
    claimant.click("#claim-form button[type=submit]")
    claimant.locator("#claim-panel").wait_for()
    # The opponent's page hears of it, shows the claimant's hand and asks for an answer.
    opponent.locator("#claim-panel .claim-answer button.accept").wait_for()
    assert (
        opponent.locator("#claim-panel .shown-hand .card").count()
        == statecache.state_for(Game.objects.get(pk=game.pk)).hands[seat].bit_count()
    )
    check_layout(opponent, f"table with a claim to answer ({screen})")
    opponent.screenshot(path=str(TEST_OUTPUT / f"claim-{screen}.png"), full_page=True)
    opponent.click("#claim-panel button.accept")
    opponent.locator("#claim-panel .claim-answer").wait_for(state="detached")
    from games.claims import claim_answer

    claim_answer(game_id=game.pk, seats=[second], accept=True)
    state = statecache.state_for(Game.objects.get(pk=game.pk))
    ended = next(i for i in state.deals if i.number == deal and i.state.claim_end)
    assert ended.state.claim_end[:2] == (seat, k) and ended.state.claim_end[3] == "accepted"
    game = Game.objects.get(pk=game.pk)
    for page in (claimant, opponent):
        page.locator(f'#board[data-seq="{game.move_count}"]').wait_for()
        assert page.locator("#claim-panel").count() == 0
