"""The play API with personal API tokens: what each scope may do."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Game, Move, SubmittedBy
from tests.factories import ApiTokenFactory, BotPlayerFactory, PlayerFactory, auth_header
from tests.games.conftest import accept_invitations, client_for
from tests.games.helpers import play

pytestmark = pytest.mark.django_db


def _table_with_bot() -> tuple[Any, Any, str]:
    """A started game: the owner at seat 0 and their bot at seat 2."""
    owner = PlayerFactory()
    bot = BotPlayerFactory(owner=owner.user)
    others = [PlayerFactory(), PlayerFactory()]
    r = client_for(owner.user).post(
        "/api/v1/games/",
        {
            "seats": [
                {"kind": "me"},
                {"kind": "player", "name": others[0].name},
                {"kind": "bot", "name": bot.name},
                {"kind": "player", "name": others[1].name},
            ],
            "options": {"rated": False},  # the owner and their bot: allowed unrated only
        },
        format="json",
    )
    assert r.status_code == 201
    accept_invitations(r.json()["id"], [client_for(p.user) for p in others])
    return owner, bot, r.json()["id"]


def _move(token: Any, gid: str, seq: int, **extra: Any) -> Any:
    return APIClient().post(
        f"/api/v1/games/{gid}/moves/",
        {"action": {"bid": 1}, "expected_seq": seq, **extra},
        format="json",
        **auth_header(token),
    )


def test_read_token_sees_its_seat_but_cannot_move() -> None:
    owner, _bot, gid = _table_with_bot()
    token = ApiTokenFactory(user=owner.user, scopes=["read"])
    r = APIClient().get(f"/api/v1/games/{gid}/", **auth_header(token))
    assert r.status_code == 200 and r.json()["your_seat"] == 0 and r.json()["view"]["hand"]
    r = _move(token, gid, 0)
    assert (r.status_code, r.json()["code"]) == (403, "insufficient_scope")
    assert Move.objects.count() == 0


def test_play_token_moves_for_the_person_but_not_for_their_bot() -> None:
    owner, bot, gid = _table_with_bot()
    token = ApiTokenFactory(user=owner.user, scopes=["read", "play"])
    r = _move(token, gid, 0, seat=2)
    assert (r.status_code, r.json()["code"]) == (403, "not_your_seat")
    r = APIClient().get(f"/api/v1/games/{gid}/?seat=2", **auth_header(token))
    assert (r.status_code, r.json()["code"]) == (403, "not_your_seat")


def test_bot_token_acts_only_for_its_bot() -> None:
    owner, bot, gid = _table_with_bot()
    token = ApiTokenFactory(user=owner.user, scopes=["bot"], bot=bot)
    r = APIClient().get(f"/api/v1/games/{gid}/", **auth_header(token))
    assert r.status_code == 200 and r.json()["your_seat"] == 2
    r = _move(token, gid, 0, seat=0)
    assert (r.status_code, r.json()["code"]) == (403, "not_your_seat")
    r = APIClient().post(
        "/api/v1/games/",
        {"seats": [{"kind": "me"}] + [{"kind": "open"}] * 3},
        format="json",
        **auth_header(token),
    )
    assert (r.status_code, r.json()["code"]) == (403, "insufficient_scope")
    # Play until it is the bot's turn, then the bot's token moves it, credited to the bot.
    game = Game.objects.get(public_id=gid)
    while game.to_act != 2:
        game = play(game, 1)
    r = _move(token, gid, game.move_count)
    assert r.status_code == 201, r.content
    move = Move.objects.get(game=game, seq=game.move_count + 1)
    assert move.seat == 2 and move.submitted_by == SubmittedBy.BOT and move.actor == bot


def test_unknown_token_is_401() -> None:
    _owner, _bot, gid = _table_with_bot()
    r = APIClient().get(f"/api/v1/games/{gid}/", HTTP_AUTHORIZATION="Bearer bac_nope")
    assert r.status_code == 401
