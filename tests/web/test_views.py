"""The play pages through Django's test client: access, lists, creating and joining, the table."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from backalley_engine.cards import card_str, mask_to_cards
from games import selectors, services
from games.models import Game, GameStatus, Seat
from tests.factories import BotPlayerFactory, PlayerFactory
from tests.web.conftest import shown_cards, signed_in

pytestmark = pytest.mark.django_db


def _hands(game: Game) -> list[list[str]]:
    """Every seat's current hand, straight from the engine (for checking what pages show)."""
    state = selectors.game_state(game=Game.objects.get(pk=game.pk))
    assert state is not None
    return [[card_str(c) for c in mask_to_cards(state.hands[s])] for s in range(4)]


def _shown_cards(html: str) -> set[str]:
    """Cards a page names anywhere: by code as a word ('AS', 'TD', 'BB') or by name."""
    return shown_cards(html)


@pytest.mark.parametrize("name", ["my-games", "open-games", "new-game"])
def test_pages_need_a_login(client: Client, name: str) -> None:
    url = reverse(name)
    r = client.get(url)
    assert r.status_code == 302
    assert r["Location"].startswith(reverse("login")) and "next=" in r["Location"]


def test_table_board_and_join_need_a_login(client: Client, started: Game) -> None:
    for name in ("game-table", "game-board"):
        r = client.get(reverse(name, args=[started.public_id]))
        assert r.status_code == 302 and r["Location"].startswith(reverse("login"))
    r = client.post(reverse("game-join", args=[started.public_id]))
    assert r.status_code == 302 and r["Location"].startswith(reverse("login"))


def test_unknown_game_is_404(four: list[Any]) -> None:
    r = signed_in(four[0].user).get(reverse("game-table", args=["nosuchgame"]))
    assert r.status_code == 404


def test_create_a_game_inviting_a_player_a_bot_and_leaving_a_seat_open(four: list[Any]) -> None:
    # Another owner's bot and a person are invited by name; the seats wait for their answer.
    bot = BotPlayerFactory(name="robo-ann")
    me = four[0]
    r = signed_in(me.user).post(
        reverse("new-game"),
        {
            "left": "ROBO-ann",
            "partner": "SOUTH",
            "right": "",
            "time_control": "2d",
            "rated": "on",
        },
    )
    game = Game.objects.get(creator=me)
    assert r.status_code == 302 and r["Location"] == reverse("game-table", args=[game.public_id])
    seats = {s.position: s.player for s in Seat.objects.filter(game=game)}
    assert seats == {0: me}
    invited = {i.position: i.player for i in game.invitations.all()}
    assert invited == {1: bot, 2: four[2]}  # names are matched ignoring case
    assert game.status == GameStatus.WAITING
    assert game.rated is True
    assert game.options["time_control"]["days_per_move"] == 2


@pytest.mark.parametrize(
    ("data", "stored"),
    [
        ({"time_control": "live"}, {"minutes_per_move": 2, "bank_seconds": 600}),
        ({"time_control": "fast"}, {"minutes_per_move": 720, "bank_seconds": 259200}),
        ({"time_control": "slow"}, {"days_per_move": 3, "reserve_days": 0}),
        (
            {"time_control": "custom", "per_move": "1h30m", "bank": "30m"},
            {"minutes_per_move": 90, "bank_seconds": 1800},
        ),
        ({"time_control": "custom", "per_move": "2d"}, {"days_per_move": 2, "reserve_days": 0}),
    ],
)
def test_the_new_game_form_offers_presets_and_a_time_of_your_own(
    four: list[Any], data: dict[str, str], stored: dict[str, int]
) -> None:
    r = signed_in(four[0].user).post(reverse("new-game"), data)
    assert r.status_code == 302
    assert Game.objects.get(creator=four[0]).options["time_control"] == stored


def test_a_time_of_your_own_out_of_bounds_is_refused_by_the_clock(four: list[Any]) -> None:
    r = signed_in(four[0].user).post(
        reverse("new-game"), {"time_control": "custom", "per_move": "15d"}
    )
    assert r.status_code == 200 and "minutes_per_move" in " ".join(
        r.context["form"].non_field_errors()
    )
    assert not Game.objects.filter(creator=four[0]).exists()


def test_create_with_every_seat_named_starts_when_all_accept(four: list[Any]) -> None:
    r = signed_in(four[0].user).post(
        reverse("new-game"), {"left": "east", "partner": "south", "right": "west"}
    )
    game = Game.objects.get(creator=four[0])
    assert r.status_code == 302 and game.status == GameStatus.WAITING
    for player in four[1:]:
        invitation = game.invitations.get(player=player)
        r = signed_in(player.user).post(
            reverse("invitation-answer", args=[invitation.pk]), {"answer": "accept"}
        )
        assert r.status_code == 302
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE and game.rated is False
    assert game.options["time_control"] is None


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"partner": "nobody-here"}, "partner", "There is no player or bot called"),
        ({"left": "east", "right": "East"}, "right", "can take only one seat"),
        ({"left": "north"}, "left", "You already sit in your own game"),
        ({"time_control": "99"}, "time_control", "Select a valid choice"),
        ({"time_control": "custom"}, "per_move", "Give the time per move"),
        ({"time_control": "custom", "per_move": "soon"}, "per_move", "Write a time such as"),
        ({"time_control": "custom", "per_move": "90s"}, "per_move", "whole minutes"),
    ],
)
def test_bad_new_game_shows_the_error_and_creates_nothing(
    four: list[Any], data: dict[str, str], field: str, message: str
) -> None:
    r = signed_in(four[0].user).post(reverse("new-game"), data)
    assert r.status_code == 200
    assert message in " ".join(r.context["form"].errors[field])
    assert message in r.content.decode().replace("&#x27;", "'")
    assert not Game.objects.exists()


def test_new_game_form_suggests_bot_names(four: list[Any]) -> None:
    BotPlayerFactory(name="robo-ann")
    r = signed_in(four[0].user).get(reverse("new-game"))
    assert r.status_code == 200
    assert '<option value="robo-ann">' in r.content.decode()


def test_open_games_lists_waiting_games_and_joining_takes_the_seat(four: list[Any]) -> None:
    game = services.game_create(creator=four[0], seats=[four[0], None, four[2], None])
    joiner = signed_in(four[1].user)
    page = joiner.get(reverse("open-games")).content.decode()
    assert game.public_id in page
    assert (
        "Take open seat 2" in page and "Take open seat 4" in page
    )  # their partners' seats are open too
    assert f'action="{reverse("game-join", args=[game.public_id])}"' in page
    r = joiner.post(reverse("game-join", args=[game.public_id]), {"position": "3"})
    assert r.status_code == 302 and r["Location"] == reverse("game-table", args=[game.public_id])
    assert Seat.objects.get(game=game, position=3).player == four[1]
    # The last seat starts the game.
    signed_in(four[3].user).post(reverse("game-join", args=[game.public_id]), {"position": "1"})
    assert Game.objects.get(pk=game.pk).status == GameStatus.ACTIVE
    assert game.public_id not in signed_in(four[1].user).get(reverse("open-games")).content.decode()


def test_joining_a_taken_seat_shows_why_and_changes_nothing(four: list[Any]) -> None:
    game = services.game_create(creator=four[0], seats=[four[0], None, None, None])
    client = signed_in(four[1].user)
    r = client.post(reverse("game-join", args=[game.public_id]), {"position": "0"}, follow=True)
    assert "Seat 0 is taken." in r.content.decode()
    assert Seat.objects.filter(game=game).count() == 1


def test_leaving_a_waiting_game(four: list[Any]) -> None:
    game = services.game_create(creator=four[0], seats=[four[0], four[1], None, None])
    r = signed_in(four[1].user).post(reverse("game-leave", args=[game.public_id]))
    assert r.status_code == 302 and r["Location"] == reverse("my-games")
    assert not Seat.objects.filter(game=game, player=four[1]).exists()


def test_my_games_puts_games_waiting_on_me_first(four: list[Any]) -> None:
    others = [PlayerFactory(name=n) for n in ("ann", "bob", "cid")]
    me = four[0]
    not_mine = services.game_create(creator=me, seats=[me, *others])  # may or may not be on me
    second = services.game_create(creator=me, seats=[others[0], me, others[1], others[2]])
    waiting = services.game_create(creator=me, seats=[me, None, None, None])
    games = [Game.objects.get(pk=g.pk) for g in (not_mine, second)]
    on_me = [g for g in games if g.seats.get(player=me).position == g.to_act]
    page = signed_in(me.user).get(reverse("my-games")).content.decode()
    ids = [g.public_id for g in (not_mine, second, waiting)]
    assert all(i in page for i in ids)
    assert page.count("Your turn") == len(on_me)
    if on_me:  # games waiting on me come before the others
        first = min(page.index(g.public_id) for g in on_me)
        rest = [page.index(g.public_id) for g in games if g not in on_me]
        assert all(first < i for i in rest)
    assert "Waiting for players" in page


def test_table_shows_my_hand_sorted_and_only_legal_bids(started: Game) -> None:
    game = Game.objects.get(pk=started.pk)
    seat = game.to_act
    players = {s.position: s.player for s in Seat.objects.filter(game=game)}
    r = signed_in(players[seat].user).get(reverse("game-table", args=[game.public_id]))
    html = r.content.decode()
    assert r.status_code == 200
    hands = _hands(game)
    buttons = re.findall(r'<button[^>]*data-card="(\w+)"', html)
    assert sorted(buttons) == sorted(hands[seat])
    view = selectors.game_view(game=game, seats=selectors.game_seats(game=game), seat=seat)["view"]
    bids = re.findall(r'data-bid="(\w+)"', html)
    assert bids == view["legal_actions"]  # bids come from the engine, in its order
    # While bidding no card can be played: every card button is disabled, and says why.
    disabled = re.findall(r'<button[^>]*data-card="\w+"[^>]*aria-disabled="true"[^>]*>', html)
    assert len(buttons) == len(disabled)
    assert all("Bid first" in b for b in disabled)
    assert "Your turn to bid" in html
    assert "Upcard" in html and view["upcard"] in _shown_cards(html)


def test_no_page_shows_another_seats_cards(started: Game) -> None:
    game = Game.objects.get(pk=started.pk)
    players = {s.position: s.player for s in Seat.objects.filter(game=game)}
    hands = _hands(game)
    for seat, player in players.items():
        client = signed_in(player.user)
        for name in ("game-table", "game-board"):
            shown = _shown_cards(client.get(reverse(name, args=[game.public_id])).content.decode())
            assert set(hands[seat]) <= shown
            others = {c for s in range(4) if s != seat for c in hands[s]}
            assert not shown & others, (seat, name, shown & others)


def _claim_spot(game: Game) -> tuple[Game, int, int]:
    """Play on to a gap between tricks (2 to 4 left) where a claim would wait for answers:
    the game, the claimant and the number of tricks it claims."""
    from backalley_engine import solver
    from games import statecache
    from tests.games.helpers import play

    for _ in range(600):
        state = statecache.state_for(game)
        if state.phase == "playing" and not state.trick and 2 <= state.n - len(state.tricks) <= 4:
            for s in range(4):
                b = solver.trick_bounds(state, team=s & 1, budget=10**6)
                if b is not None and b[1] > b[0]:
                    return game, s, b[1]
        game = play(game, 1)
    raise AssertionError("no gap for an unproven claim")


def _current_cards(html: str) -> set[str]:
    """Cards a page names, but for the rules' tips (which name the Bloopers in general) and
    the finished deal's summary (its tricks were played: every card in it is public, and a
    card of that deal may well sit in a hand of this one)."""
    html = re.sub(r'<span class="tip-text"[^>]*>.*?</span>', "", html, flags=re.S)
    html = re.sub(r'<section class="deal-summary".*?</section>', "", html, flags=re.S)
    return shown_cards(html)


# Fixed seeds, so that the test checks the same tables on every run: 103 and 140 reach
# their claim while the summary of the deal before names a Blooper that a hidden hand of
# this deal holds (the summary is public; a test that read it as a hand failed on about 3%
# of random seeds), 0 and 1 are plain ones.
CLAIM_SEEDS = [f"{n:064x}" for n in (0, 1, 103, 140)]


@pytest.mark.parametrize("seed", CLAIM_SEEDS)
def test_no_page_shows_a_premove_or_a_hand_but_a_claimants(four: list[Any], seed: str) -> None:
    """A queued card shows (raised) on its own seat's page only; after a claim, every page
    shows the claimant's hand and still no other hidden card (docs/rules.md §10)."""
    from games import claims, premoves, statecache
    from tests.games.helpers import play

    game = play(services.game_create(creator=four[0], seats=four, seed=seed), 4)
    players = {s.position: s.player for s in Seat.objects.filter(game=game)}
    state = statecache.state_for(game)
    assert state.seat_to_act is not None
    waiting = (state.seat_to_act + 2) % 4
    card = card_str(mask_to_cards(state.hands[waiting])[-1])
    premoves.premove_set(game_id=game.pk, seats=[waiting], action={"card": card})
    for seat, player in players.items():
        html = signed_in(player.user).get(reverse("game-board", args=[game.public_id])).content
        assert (b"premoved" in html) == (seat == waiting), seat
        assert (card in _current_cards(html.decode())) == (seat == waiting), seat
    premoves.premove_cancel(game_id=game.pk, seats=[waiting])
    game, claimant, k = _claim_spot(game)
    claims.claim_make(game_id=game.pk, seats=[claimant], tricks=k)
    game = Game.objects.get(pk=game.pk)
    hands = _hands(game)
    for seat, player in players.items():
        html = signed_in(player.user).get(reverse("game-table", args=[game.public_id]))
        shown = _current_cards(html.content.decode())
        assert set(hands[claimant]) <= shown, seat
        hidden = {c for s in range(4) if s not in (seat, claimant) for c in hands[s]}
        assert not shown & hidden, (seat, shown & hidden)
    outsider = signed_in(PlayerFactory(name="kibitzer2").user)
    shown = _current_cards(
        outsider.get(reverse("game-table", args=[game.public_id])).content.decode()
    )
    assert set(hands[claimant]) <= shown
    assert not shown & {c for s in range(4) if s != claimant for c in hands[s]}


def test_a_spectator_sees_the_table_but_no_hand(started: Game) -> None:
    outsider = PlayerFactory(name="kibitzer")
    html = (
        signed_in(outsider.user)
        .get(reverse("game-table", args=[started.public_id]))
        .content.decode()
    )
    assert "<button" not in html.split('id="board"')[1]  # nothing to choose: no cards, no bids
    all_cards = {c for h in _hands(started) for c in h}
    assert not _shown_cards(html) & all_cards


def test_board_fragment_carries_the_seq_and_is_not_cached(started: Game) -> None:
    client = signed_in(started.creator.user)
    r = client.get(reverse("game-board", args=[started.public_id]))
    assert r.status_code == 200 and r["Cache-Control"] == "no-store"
    assert r.content.decode().lstrip().startswith('<div id="board"')
    assert 'data-seq="0"' in r.content.decode()


def test_the_page_can_post_a_move_with_session_and_csrf(started: Game) -> None:
    """What the table's script does: session cookie, X-CSRFToken, expected_seq, a key."""
    game = Game.objects.get(pk=started.pk)
    player = Seat.objects.get(game=game, position=game.to_act).player
    client = Client(enforce_csrf_checks=True)
    client.force_login(player.user)
    page = client.get(reverse("game-table", args=[game.public_id])).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    url = reverse("games-api:game-moves", args=[game.public_id])
    body = {"action": {"bid": "pass"}, "expected_seq": 0}
    refused = client.post(url, body, content_type="application/json")
    assert refused.status_code == 403  # no CSRF token: a session may not post blind
    ok = client.post(
        url,
        body,
        content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
        HTTP_IDEMPOTENCY_KEY="k1",
    )
    assert ok.status_code == 201, ok.content
    stale = client.post(
        url,
        body,
        content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
        HTTP_IDEMPOTENCY_KEY="k2",
    )
    assert stale.status_code == 409 and stale.json()["code"] == "stale_state"
    board = client.get(reverse("game-board", args=[game.public_id])).content.decode()
    assert 'data-seq="1"' in board and "bid <strong>pass</strong>" in board


def test_deadline_of_the_seat_to_act_is_shown_on_the_table_and_in_my_games(four: list[Any]) -> None:
    game = services.game_create(
        creator=four[0], seats=four, options={"time_control": {"days_per_move": 3}}
    )
    game = Game.objects.get(pk=game.pk)
    payload = selectors.game_view(game=game, seats=selectors.game_seats(game=game), seat=None)
    due = payload["clock"]["running"]["deadline"]
    player = Seat.objects.get(game=game, position=game.to_act).player
    client = signed_in(player.user)
    for url in (reverse("game-table", args=[game.public_id]), reverse("my-games")):
        html = client.get(url).content.decode()
        assert f'<time datetime="{due[:19]}' in html, url
        assert "3 days per move" in html


def test_game_lists_name_the_partnerships(four: list[Any]) -> None:
    game = services.game_create(creator=four[0], seats=[four[0], four[1], None, four[3]])
    page = signed_in(four[2].user).get(reverse("open-games")).content.decode()
    text = re.sub(r"<[^>]+>", "", page)
    assert "north &amp; Open seat vs east &amp; west" in text  # seats 0+2 against 1+3
    assert "Sit as north\u2019s partner" in page and game.public_id in page


def test_joining_or_leaving_a_started_game_is_refused_with_the_reason(started: Game) -> None:
    outsider = PlayerFactory(name="latecomer")
    r = signed_in(outsider.user).post(reverse("game-join", args=[started.public_id]), follow=True)
    assert "This game is no longer taking players." in r.content.decode()
    r = signed_in(started.creator.user).post(
        reverse("game-leave", args=[started.public_id]), follow=True
    )
    assert "Seats can be left only before the game starts." in r.content.decode()
    assert Seat.objects.filter(game=started).count() == 4


def test_a_seat_waiting_to_bid_may_queue_its_bid_and_only_it_sees_it(four: list[Any]) -> None:
    """In the bidding, a seat that has not bid and is not to act is offered every bid of
    the deal to queue; the one queued is marked on its own page only (docs/rules.md §10)."""
    from games import premoves, statecache

    game = services.game_create(creator=four[0], seats=four, seed="b1" * 32)
    state = statecache.state_for(game)
    to_act = state.seat_to_act
    assert to_act is not None and state.phase == "bidding"
    waiting = (to_act + 2) % 4
    players = {s.position: s.player for s in Seat.objects.filter(game=game)}

    def page(seat: int) -> str:
        html = signed_in(players[seat].user).get(reverse("game-board", args=[game.public_id]))
        return html.content.decode()

    offered = re.findall(r'data-premove-bid="([^"]+)"', page(waiting))
    assert offered == ["pass", *(str(k) for k in range(1, state.n)), "board"]
    assert "data-premove-bid" not in page(to_act)  # its turn: it bids for real
    premoves.premove_set(game_id=game.pk, seats=[waiting], action={"bid": 3})
    mine = page(waiting)
    assert re.search(r'class="bid-btn premoved" data-premove-bid="3" aria-pressed="true"', mine)
    assert mine.count("premoved") == 1
    for seat in set(range(4)) - {waiting}:
        html = page(seat)
        assert "premoved" not in html and 'aria-pressed="true"' not in html, seat
    # Once it has bid (the queued bid made when its turn came), nothing more is offered.
    from tests.games.helpers import play

    game = play(game, 4)
    assert "data-premove-bid" not in page(waiting)
