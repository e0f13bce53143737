"""POST /api/v1/games/{id}/fork/: a fork through the API, its refusals in the one error shape."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Game, Move
from games.services import deal_set_create, game_create
from tests.factories import ApiTokenFactory, BotPlayerFactory, PlayerFactory, auth_header
from tests.games.conftest import client_for
from tests.games.helpers import play

pytestmark = pytest.mark.django_db

SHORT = {"rated": False, "schedule": {"first": 12, "last": 14}}


def _finished(**kw: Any) -> Game:
    players = [PlayerFactory() for _ in range(4)]
    game = play(game_create(creator=players[0], seats=players, options=SHORT, **kw), 10_000)
    assert game.status == "finished"
    return game


def _fork(client: Any, game: Game, move: Any, seats: list[dict[str, Any]]) -> Any:
    return client.post(
        f"/api/v1/games/{game.public_id}/fork/", {"move": move, "seats": seats}, format="json"
    )


def test_a_fork_through_the_api_answers_the_new_games_state_for_the_forkers_seat() -> None:
    original = _finished()
    me = PlayerFactory()
    bots = [BotPlayerFactory(owner=me.user) for _ in range(3)]
    seats = [{"kind": "bot", "name": b.name} for b in bots]
    r = _fork(client_for(me.user), original, 8, [seats[0], {"kind": "me"}, *seats[1:]])
    assert r.status_code == 201, r.json()
    body = r.json()
    fork = Game.objects.get(public_id=body["id"])
    assert fork.forked_from_id == original.pk and body["seq"] == 8
    assert body["your_seat"] in (0, 1, 2, 3) and body["seed"] is None
    assert original.seed not in str(body)  # the fork's own seed is secret while it is on
    record = client_for(me.user).get(f"/api/v1/games/{fork.public_id}/record/").json()
    assert record["forked_from"] == {"game": original.public_id, "move": 8}
    assert record["seed"] is None


@pytest.mark.parametrize(
    ("move", "status", "code"),
    [(-1, 400, "invalid"), (10_000, 400, "invalid_move_number"), ("x", 400, "invalid")],
)
def test_a_bad_move_number_is_refused(move: Any, status: int, code: str) -> None:
    original = _finished()
    me = PlayerFactory()
    r = _fork(client_for(me.user), original, move, [{"kind": "me"}] * 4)
    assert (r.status_code, r.json()["code"]) == (status, code)
    assert Game.objects.count() == 1


def test_refusals_come_in_the_error_shape_and_write_nothing() -> None:
    me = PlayerFactory()
    bots = [BotPlayerFactory(owner=me.user) for _ in range(3)]
    mine = [{"kind": "me"}, *({"kind": "bot", "name": b.name} for b in bots)]
    api = client_for(me.user)
    players = [PlayerFactory() for _ in range(4)]
    running = game_create(creator=players[0], seats=players, options=SHORT)
    shared = deal_set_create(kind="daylong", closed=False)
    secret = _finished(deal_set=shared)
    other = _finished()
    stranger = BotPlayerFactory()
    before = (Game.objects.count(), Move.objects.count())
    cases = [
        (_fork(api, running, 0, mine), 409, "game_not_finished"),
        (_fork(api, secret, 3, mine), 409, "record_not_public"),
        (
            _fork(api, other, 3, [*mine[:3], {"kind": "bot", "name": stranger.name}]),
            403,
            "fork_seat_not_allowed",
        ),
        (
            _fork(api, other, 3, [*mine[:3], {"kind": "bot", "name": "nobody-here"}]),
            400,
            "unknown_player",
        ),
        (_fork(api, other, 3, mine[:3]), 400, "invalid"),
    ]
    for r, status, code in cases:
        body = r.json()
        assert (r.status_code, body["code"]) == (status, code), body
        assert set(body) == {"code", "message", "extra"} and body["message"]
    assert secret.seed not in str([r.json() for r, _s, _c in cases])
    assert (Game.objects.count(), Move.objects.count()) == before


def test_forking_acts_as_the_person_a_read_or_bot_token_cannot() -> None:
    original = _finished()
    me = PlayerFactory()
    bots = [BotPlayerFactory(owner=me.user) for _ in range(4)]
    seats = [{"kind": "bot", "name": b.name} for b in bots]
    for scopes, status in ((["read"], 403), (["bot"], 403), (["play"], 201)):
        token = ApiTokenFactory(user=me.user, scopes=scopes)
        r = APIClient().post(
            f"/api/v1/games/{original.public_id}/fork/",
            {"move": 2, "seats": seats},
            format="json",
            **auth_header(token),
        )
        assert r.status_code == status, (scopes, r.json())
