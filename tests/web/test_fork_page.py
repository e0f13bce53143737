"""The record page's "Fork this hand" form (games.web.fork): who is offered it, what it
creates, and how a refusal is told."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.models import Game
from games.services import deal_set_create, game_create
from tests.factories import BotPlayerFactory, PlayerFactory
from tests.games.helpers import play
from tests.web.conftest import signed_in

pytestmark = pytest.mark.django_db

SHORT = {"rated": False, "schedule": {"first": 12, "last": 14}}


def _finished(**kw: Any) -> Game:
    players = [PlayerFactory() for _ in range(4)]
    game = play(game_create(creator=players[0], seats=players, options=SHORT, **kw), 10_000)
    assert game.status == "finished"
    return game


def test_a_signed_in_reader_of_a_public_record_is_offered_the_form() -> None:
    original = _finished()
    url = f"/games/{original.public_id}/record/"
    assert 'id="fork"' not in Client().get(url).content.decode()  # not signed in
    me = PlayerFactory()
    mine = BotPlayerFactory(owner=me.user, name="my-forker")
    html = signed_in(me.user).get(url).content.decode()
    assert 'id="fork"' in html and f'action="/games/{original.public_id}/fork/"' in html
    assert "Deal 12, from its first bid (move 0)" in html
    assert f'value="{mine.name}"' in html  # the reader's own bot is offered
    shared = deal_set_create(kind="daylong", closed=False)
    secret = _finished(deal_set=shared)
    html = signed_in(me.user).get(f"/games/{secret.public_id}/record/").content.decode()
    assert 'id="fork"' not in html


def test_posting_the_form_opens_the_forks_table_and_its_record_names_the_original() -> None:
    original = _finished()
    me = PlayerFactory()
    bots = [BotPlayerFactory(owner=me.user) for _ in range(3)]
    client = signed_in(me.user)
    data = {"start": "0", "move": "6", "seat_0": bots[0].name, "seat_1": "me"}
    data |= {"seat_2": bots[1].name, "seat_3": bots[2].name}
    r = client.post(f"/games/{original.public_id}/fork/", data)
    fork = Game.objects.exclude(pk=original.pk).get()
    assert r.status_code == 302 and r["Location"] == f"/games/{fork.public_id}/"
    assert fork.move_count == 6 and fork.forked_from_id == original.pk
    html = client.get(f"/games/{fork.public_id}/record/").content.decode()
    assert 'id="forked-from"' in html and f"/games/{original.public_id}/record/" in html


def test_a_refused_fork_is_told_on_the_record_page_and_creates_nothing() -> None:
    original = _finished()
    me = PlayerFactory()
    client = signed_in(me.user)
    data = {"start": "0", "move": str(original.move_count), "seat_0": "me"}
    data |= {"seat_1": "me", "seat_2": "me", "seat_3": "me"}
    r = client.post(f"/games/{original.public_id}/fork/", data, follow=True)
    assert r.redirect_chain[-1][0] == f"/games/{original.public_id}/record/"
    assert "A fork starts after move 0 to" in r.content.decode()
    data["move"] = "2"  # a legal move, but one player in four seats
    r = client.post(f"/games/{original.public_id}/fork/", data, follow=True)
    assert "only one seat" in r.content.decode()
    assert Game.objects.count() == 1
