"""Games that share a seed (a deal set): no answer shows the seed, or a hand a seat did not
see at the table, while any game of the seed is unfinished (docs/rules.md §8)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games import selectors
from games.models import DealSet, Game, GameStatus
from games.services import deal_set_close, deal_set_create, game_abort, game_create
from tests.factories import PlayerFactory
from tests.games.conftest import client_for
from tests.games.helpers import play

pytestmark = pytest.mark.django_db

SHORT = {"rated": False, "schedule": {"first": 12, "last": 13}}  # two deals: quick


def _table(deals: DealSet | None, prefix: str) -> tuple[Game, list[Any]]:
    players = [PlayerFactory(name=f"{prefix}{k}") for k in range(4)]
    game = game_create(creator=players[0], seats=players, options=SHORT, deal_set=deals)
    return game, players


def _answers(game: Game, players: list[Any], stranger: Any) -> dict[str, tuple[int, str]]:
    """Every answer that could carry the game's seed or hands, by what was asked."""
    gid = game.public_id
    out: dict[str, tuple[int, str]] = {}
    viewers: dict[str, APIClient] = {
        "anonymous": APIClient(),
        "stranger": client_for(stranger.user),
    }
    for k, p in enumerate(players):
        viewers[f"seat {k}"] = client_for(p.user)
    for who, client in viewers.items():
        for path in ("", "record/", "events/?since=0", "legal/"):
            r = client.get(f"/api/v1/games/{gid}/{path}")
            out[f"{who} GET {path or 'detail'}"] = (r.status_code, r.content.decode())
    seat0 = client_for(players[0].user)
    for path in (
        "/api/v1/games/mine/?status=finished",
        "/api/v1/games/mine/",
        "/api/v1/me/export/",
    ):
        r = seat0.get(path)
        out[f"seat 0 GET {path}"] = (r.status_code, r.content.decode())
    anonymous, signed_in = Client(), Client()
    signed_in.force_login(players[1].user)
    for path in (f"/games/{gid}/record/", f"/ladder/games/{gid}/"):
        r = anonymous.get(path)
        out[f"page {path}"] = (r.status_code, r.content.decode())
    for path in (f"/games/{gid}/", f"/games/{gid}/board/"):
        r = signed_in.get(path)
        out[f"seat 1 page {path}"] = (r.status_code, r.content.decode())
    return out


def _record(client: APIClient, game: Game, seat: int | None = None) -> dict[str, Any]:
    tail = "" if seat is None else f"?seat={seat}"
    r = client.get(f"/api/v1/games/{game.public_id}/record/{tail}")
    assert r.status_code == 200, r.content
    body: dict[str, Any] = r.json()
    return body


def test_a_finished_game_keeps_its_seed_and_hands_while_its_seed_mate_plays() -> None:
    deals = deal_set_create(kind="test")
    done, done_players = _table(deals, "a")
    running, _ = _table(deals, "b")
    stranger = PlayerFactory(name="stranger")
    play(done, 10_000)
    play(running, 3)
    assert done.status == GameStatus.FINISHED and running.status == GameStatus.ACTIVE
    assert not selectors.seed_is_public(game=done)
    watcher = client_for(stranger.user)  # a spectator (the API needs an account)

    for asked, (status, text) in _answers(done, done_players, stranger).items():
        assert status < 500, asked
        assert done.seed not in text, f"the seed shows in {asked}"
    for seat, p in enumerate(done_players):
        record = _record(client_for(p.user), done)
        assert record["seed"] is None
        for deal in record["deals"]:
            assert [h is not None for h in deal["hands"]] == [s == seat for s in range(4)]
    # Anyone but its players is told there is no such game: its cards played would tell
    # the seed-mate's table its hands (games.selectors.game_hidden).
    for path in ("", "record/", "events/?since=0"):
        r = watcher.get(f"/api/v1/games/{done.public_id}/{path}")
        assert (r.status_code, r.json()["code"]) == (404, "game_not_found"), path
    assert Client().get(f"/games/{done.public_id}/record/").status_code == 404
    player = Client()
    player.force_login(done_players[1].user)
    assert 'id="hands-withheld"' in (
        player.get(f"/games/{done.public_id}/record/").content.decode()
    )
    detail = client_for(done_players[1].user).get(f"/api/v1/games/{done.public_id}/").json()
    assert detail["seed"] is None and detail["view"]["seed"] is None
    mine = client_for(done_players[1].user)
    events = mine.get(f"/api/v1/games/{done.public_id}/events/?since=0").json()["events"]
    (end,) = [ev for ev in events if ev["type"] == "game_end"]
    assert end["seed"] is None
    export = client_for(done_players[0].user).get("/api/v1/me/export/").json()
    (mine,) = [g for g in export["games"]["games"] if g["id"] == done.public_id]
    assert list(mine["records"]) == ["0"] and mine["seed"] is None

    play(running, 10_000)  # the last game of the seed ends: the seed is public for both
    assert selectors.seed_is_public(game=done) and selectors.seed_is_public(game=running)
    detail = watcher.get(f"/api/v1/games/{done.public_id}/").json()
    assert detail["seed"] == done.seed == detail["view"]["seed"]
    whole = _record(watcher, done)
    assert whole["seed"] == done.seed
    assert all(h is not None for deal in whole["deals"] for h in deal["hands"])
    events = watcher.get(f"/api/v1/games/{done.public_id}/events/?since=0").json()["events"]
    assert events[-1]["type"] == "game_end" and events[-1]["seed"] == done.seed
    page = Client().get(f"/games/{done.public_id}/record/").content.decode()
    assert done.seed in page and 'id="hands-withheld"' not in page
    listed = client_for(done_players[0].user).get("/api/v1/games/mine/").json()["results"]
    assert [g["seed"] for g in listed] == [done.seed]


def test_an_open_deal_set_keeps_its_seed_until_it_is_closed() -> None:
    deals = deal_set_create(kind="test", closed=False)
    game, _ = _table(deals, "c")
    play(game, 10_000)
    assert game.status == GameStatus.FINISHED
    assert not selectors.seed_is_public(game=game)  # more tables may still be dealt it
    deal_set_close(deal_set_id=deals.pk)
    assert selectors.seed_is_public(game=game)


def test_a_called_off_seed_mate_does_not_hold_the_seed_back() -> None:
    deals = deal_set_create(kind="test")
    done, _ = _table(deals, "d")
    players = [PlayerFactory(name=f"e{k}") for k in range(4)]
    waiting = game_create(
        creator=players[0], seats=[players[0], None, None, None], options=SHORT, deal_set=deals
    )
    play(done, 10_000)
    assert not selectors.seed_is_public(game=done)
    game_abort(game_id=waiting.pk, by=players[0])
    assert selectors.seed_is_public(game=done)
    assert not selectors.seed_is_public(game=Game.objects.get(pk=waiting.pk))


def test_games_given_one_seed_share_a_deal_set() -> None:
    seed = "ab" * 32
    a, _ = _table(None, "f")
    players = [PlayerFactory(name=f"g{k}") for k in range(4)]
    first = game_create(creator=players[0], seats=players, options=SHORT, seed=seed)
    players = [PlayerFactory(name=f"h{k}") for k in range(4)]
    second = game_create(creator=players[0], seats=players, options=SHORT, seed=seed)
    assert a.deal_set_id is None
    assert first.deal_set_id == second.deal_set_id is not None
    play(first, 10_000)
    assert not selectors.seed_is_public(game=first)
    body = json.dumps(
        selectors.game_record(game=first, seats=selectors.game_seats(game=first), seat=None)
    )
    assert seed not in body
