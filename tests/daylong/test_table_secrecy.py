"""A daylong's table is its entrant's alone while its version's seed is not public: anyone
else who knows (or guesses) the game's id is told there is no such game, by every endpoint
that shows a game (the table and record pages, the API's detail, legal actions, moves,
record, events and stream), in the very words of a game that does not exist. The entrant
still sees their own table; once the window's end was processed, everyone sees it."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import Player
from accounts.tokens import token_create
from bots.house import house_bots_ensure
from daylong import services
from daylong.models import Event, Table
from games.models import Game, GameStatus
from tests.asgi_calls import asgi_request
from tests.daylong.helpers import eagerly, event, hosted_bot, play_moves, play_out
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)

API_READS = ("", "legal/", "record/", "events/?since=0&wait=0")
PAGES = ("/games/{id}/", "/games/{id}/board/", "/games/{id}/record/", "/ladder/games/{id}/")


@pytest.fixture
def house() -> None:
    house_bots_ensure()


def _api(player: Player) -> APIClient:
    c = APIClient()
    c.force_login(player.user if player.user_id else player.owner)
    return c


def _page(player: Player | None) -> Client:
    c = Client()
    if player is not None:
        c.force_login(player.user)
    return c


def _streams(game: Game, readers: list[Player | None]) -> list[tuple[int, bytes]]:
    """The event stream for each reader through the site's ASGI handler (at once:
    ``timeout=0``), in one event loop whose hub is closed before the loop ends."""
    from backalley_site.asgi import application
    from games.live import hub as live_hub

    tokens = [
        None if p is None else token_create(user=p.user, name="feed", scopes=["read"])[1]
        for p in readers
    ]

    async def ask() -> list[tuple[int, bytes]]:
        out = []
        for secret in tokens:
            headers = [(b"accept", b"text/event-stream")]
            if secret is not None:
                headers.append((b"authorization", f"Bearer {secret}".encode()))
            status, _, body = await asgi_request(
                application,
                f"/api/v1/games/{game.public_id}/events/stream/",
                b"since=0&timeout=0",
                headers=headers,
            )
            out.append((status, body))
        hub = live_hub._hubs.get(asyncio.get_running_loop())
        if hub is not None:
            hub.close()
        return out

    return asyncio.run(ask())


def _refused_like_a_missing_game(r: Any, public_id: str, api: APIClient) -> None:
    assert r.status_code == 404, r.content
    body = r.json()
    assert body["code"] == "game_not_found"
    missing = api.get("/api/v1/games/nosuchgame/").json()
    assert body["message"] == missing["message"].replace("nosuchgame", public_id)


def _assert_hidden(game: Game, readers: dict[str, Player | None]) -> None:
    gid = game.public_id
    for who, reader in readers.items():
        api = APIClient() if reader is None else _api(reader)
        for path in API_READS:
            r = api.get(f"/api/v1/games/{gid}/{path}")
            if reader is None:  # the API asks for an account first
                assert r.status_code in (401, 403), (who, path, r.content)
                continue
            try:
                _refused_like_a_missing_game(r, gid, api)
            except AssertionError as exc:
                raise AssertionError(f"{who} GET {path or 'detail'}: {exc}") from exc
        if reader is not None:
            r = api.post(
                f"/api/v1/games/{gid}/moves/",
                {"action": {"bid": "pass"}, "expected_seq": game.move_count},
                format="json",
            )
            _refused_like_a_missing_game(r, gid, api)
        for page in PAGES:
            if reader is None and page in ("/games/{id}/", "/games/{id}/board/"):
                continue  # the table's pages ask anyone to log in first
            r = _page(reader).get(page.format(id=gid))
            assert r.status_code == 404, (who, page, r.status_code)
            assert game.seed not in r.content.decode()
    for (who, reader), (status, body) in zip(
        readers.items(), _streams(game, list(readers.values())), strict=True
    ):
        assert status == (401 if reader is None else 404), (who, body)
        if reader is not None:
            assert json.loads(body)["code"] == "game_not_found", (who, body)


def _assert_shown(game: Game, reader: Player, seat: int | None) -> None:
    gid = game.public_id
    api = _api(reader)
    for path in API_READS:
        r = api.get(f"/api/v1/games/{gid}/{path}")
        assert r.status_code == 200, (path, r.content)
    assert api.get(f"/api/v1/games/{gid}/").json()["your_seat"] == seat
    ((status, body),) = _streams(game, [reader])
    assert status == 200 and body.startswith(b"id: "), body
    for page in PAGES:
        assert _page(reader).get(page.format(id=gid)).status_code == 200, page


def test_a_running_table_is_its_entrants_alone(house: None) -> None:
    ev = event(pool_size=1)
    me, rival, stranger = PlayerFactory(), PlayerFactory(), PlayerFactory()
    with eagerly():
        for p in (me, rival):
            services.entry_create(event_id=ev.pk, player=p)
        table = services.board_play_next(event_id=ev.pk, player=me)
        game = play_moves(table.game, 1)
    assert game.status == GameStatus.ACTIVE
    # The rival holds the same version of the stage next: the table would show its cards.
    _assert_hidden(game, {"anonymous": None, "another entrant": rival, "stranger": stranger})
    _assert_shown(game, me, seat=0)


def test_a_finished_table_stays_hidden_until_the_window_has_closed(house: None) -> None:
    ev = event(pool_size=1)
    me, rival = PlayerFactory(), PlayerFactory()
    with eagerly():
        for p in (me, rival):
            services.entry_create(event_id=ev.pk, player=p)
        table = services.board_play_next(event_id=ev.pk, player=me)
        game = play_out(table.game)
    assert game.status == GameStatus.FINISHED
    _assert_hidden(game, {"anonymous": None, "another entrant": rival})
    _assert_shown(game, me, seat=0)

    Event.objects.filter(pk=ev.pk).update(
        starts_at=timezone.now() - timedelta(days=1), ends_at=timezone.now() - timedelta(minutes=1)
    )
    assert services.event_close(event_id=ev.pk) == "closed"
    # The seed is public now: the table is anyone's to check.
    anyone = _api(PlayerFactory()).get(f"/api/v1/games/{game.public_id}/record/")
    assert anyone.status_code == 200 and anyone.json()["seed"] == game.seed
    assert _page(None).get(f"/games/{game.public_id}/record/").status_code == 200
    assert _api(rival).get(f"/api/v1/games/{game.public_id}/").status_code == 200


def test_a_bots_table_is_its_owners_to_watch(house: None) -> None:
    owner = PlayerFactory()
    bot = hosted_bot(owner=owner.user)
    ev = event(pool_size=1)
    services.entry_create(event_id=ev.pk, player=bot)
    table = Table.objects.get(pk=services.board_play_next(event_id=ev.pk, player=bot).pk)
    _assert_hidden(table.game, {"stranger": PlayerFactory()})
    r = _api(owner).get(f"/api/v1/games/{table.game.public_id}/")
    assert r.status_code == 200 and r.json()["your_seat"] == 0
