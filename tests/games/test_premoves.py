"""Premoves through the API (docs/rules.md §10): queued before the turn, played the moment it
comes if legal, dropped with the reason (told to that seat only) if not; one per seat,
replaceable and cancellable; invisible to every other seat and to spectators."""

from __future__ import annotations

import json
from typing import Any

import pytest

from backalley_engine.actions import action_to_json
from backalley_engine.cards import SUIT_MASKS, card_str, mask_to_cards
from games import statecache
from games.models import Move, Premove, SubmittedBy
from tests.factories import PlayerFactory
from tests.games.conftest import Table, choose, client_for, play_first_legal

pytestmark = pytest.mark.django_db


def premove(table: Table, seat: int, action: Any) -> Any:
    return table.clients[seat].put(table.url("premove/"), {"action": action}, format="json")


def to_play_phase(table: Table) -> None:
    play_first_legal(table, 4)  # four bids of 1: the deal is played
    assert statecache.state_for(table.game).phase == "playing"


def test_a_premoved_bid_is_played_the_moment_its_turn_comes(table: Table) -> None:
    first = table.to_act()
    nxt = (first + 1) % 4
    r = premove(table, nxt, {"bid": 2})
    assert r.status_code == 200, r.content
    assert r.json() == {"seat": nxt, "premove": {"action": {"bid": 2}}, "dropped": None}
    r = table.move(first, {"bid": 1}, 0)
    assert r.status_code == 201
    assert r.json()["then"] == [{"seq": 2, "seat": nxt, "action": {"bid": 2}, "by": "premove"}]
    move = Move.objects.get(game__public_id=table.game_id, seq=2)
    assert (move.seat, move.submitted_by) == (nxt, SubmittedBy.PREMOVE)
    assert move.actor is not None and move.actor.pk == table.players[nxt].pk
    assert not Premove.objects.exists() and table.game.premove_seats == 0
    assert table.game.to_act == (first + 2) % 4


def test_an_illegal_premove_is_dropped_and_its_seat_alone_is_told_why(table: Table) -> None:
    to_play_phase(table)
    game = table.game
    leader = table.to_act()
    nxt = (leader + 1) % 4
    state = statecache.state_for(game)
    lead = min(state.legal_actions())
    suit = SUIT_MASKS[lead // 13] & ~state.trump_mask if state.trump_mask >> lead & 1 == 0 else 0
    hand = state.hands[nxt]
    if not hand & suit or not hand & ~suit:
        pytest.skip("this deal gives the next seat no way to revoke")
    wrong = mask_to_cards(hand & ~suit)[0]
    r = premove(table, nxt, {"card": card_str(wrong)})
    assert r.status_code == 200
    r = table.move(leader, action_to_json(lead), game.move_count)
    assert r.status_code == 201 and "then" not in r.json()
    assert table.to_act() == nxt  # its turn came and nothing was played for it
    told = table.clients[nxt].get(table.url("premove/")).json()
    assert told["premove"] is None
    assert told["dropped"]["code"] == "premove_not_legal"
    assert "follow suit" in told["dropped"]["message"]
    # The reason is told in the reader's language when it is read, not kept in English.
    swedish = table.clients[nxt].get(table.url("premove/"), HTTP_ACCEPT_LANGUAGE="sv").json()
    assert "bekänna färg" in swedish["dropped"]["message"], swedish
    for other in range(4):
        if other != nxt:
            body = table.clients[other].get(table.url("premove/")).json()
            assert body["seat"] == other and body["dropped"] is None


def test_a_premove_can_be_replaced_and_cancelled(table: Table) -> None:
    first = table.to_act()
    nxt = (first + 1) % 4
    assert premove(table, nxt, {"bid": 2}).status_code == 200
    assert premove(table, nxt, {"bid": "pass"}).json()["premove"] == {"action": {"bid": "pass"}}
    assert Premove.objects.count() == 1
    r = table.clients[nxt].delete(table.url("premove/"))
    assert r.status_code == 200 and r.json()["premove"] is None
    assert table.clients[nxt].delete(table.url("premove/")).status_code == 200  # idempotent
    r = table.move(first, {"bid": 1}, 0)
    assert "then" not in r.json() and table.to_act() == nxt


def test_premoves_that_cannot_be_queued_are_refused_and_change_nothing(table: Table) -> None:
    first = table.to_act()
    nxt = (first + 1) % 4
    r = premove(table, first, {"bid": 1})
    assert (r.status_code, r.json()["code"]) == (409, "premove_not_allowed")
    r = premove(table, nxt, {"card": "AS"})
    assert (r.status_code, r.json()["code"]) == (400, "premove_not_legal")
    r = premove(table, nxt, {"bid": 13})
    assert r.status_code == 400
    stranger = client_for(PlayerFactory().user)
    r = stranger.put(table.url("premove/"), {"action": {"bid": 1}}, format="json")
    assert (r.status_code, r.json()["code"]) == (403, "not_your_seat")
    r = table.clients[nxt].put(
        table.url("premove/"), {"action": {"bid": 1}, "seat": first}, format="json"
    )
    assert (r.status_code, r.json()["code"]) == (403, "not_your_seat")
    assert not Premove.objects.exists() and table.game.premove_seats == 0
    # A card the seat does not hold, in the play phase.
    to_play_phase(table)
    state = statecache.state_for(table.game)
    waiting = (table.to_act() + 2) % 4
    foreign = mask_to_cards(state.hands[(waiting + 1) % 4])[0]
    r = premove(table, waiting, {"card": card_str(foreign)})
    assert (r.status_code, r.json()["code"]) == (400, "premove_not_legal")
    assert "do not hold" in r.json()["message"]
    assert card_str(foreign) not in json.dumps(r.json())  # the error names no hidden card


def test_a_queued_premove_is_invisible_to_every_other_seat_and_spectators(table: Table) -> None:
    to_play_phase(table)
    game = table.game
    waiting = (table.to_act() + 2) % 4
    state = statecache.state_for(game)
    card = card_str(mask_to_cards(state.hands[waiting])[-1])
    assert premove(table, waiting, {"card": card}).status_code == 200
    spectator = client_for(PlayerFactory().user)
    readers = [(s, table.clients[s]) for s in range(4) if s != waiting] + [(None, spectator)]
    for seat, client in readers:
        for tail in ("", "legal/", "events/?since=-1", "record/"):
            body = client.get(table.url(tail)).json()
            text = json.dumps(body)
            assert "premove" not in text, (seat, tail)
        if seat is not None:
            mine = client.get(table.url("premove/")).json()
            assert mine["seat"] == seat and mine["premove"] is None
        else:
            r = client.get(table.url("premove/"))
            assert r.status_code == 403
    # A move by another seat answers nothing about it either.
    seat = table.to_act()
    r = table.move(seat, choose(table.legal(seat)), game.move_count)
    assert r.status_code == 201 and "premove" not in json.dumps(r.json().get("view"))
    own = table.clients[waiting].get(table.url("premove/")).json()
    assert (
        own["premove"] == {"action": {"card": card}}
        or own["dropped"] is not None
        or (Move.objects.filter(game=game, submitted_by=SubmittedBy.PREMOVE).exists())
    )


def test_claim_and_premove_errors_are_told_in_the_active_language() -> None:
    from types import SimpleNamespace

    from django.utils import translation

    from backalley_engine.actions import PASS
    from backalley_engine.errors import ClaimRefused
    from games.errors import PremoveNotLegal
    from games.messages import error_message
    from games.premoves import premove_check

    refused = ClaimRefused("Your side's claim was refused: play a trick before claiming again.")
    state = SimpleNamespace(seat_to_act=1, phase="playing", bids=[], dealer=0, n=3, hands=[0] * 4)
    with translation.override("sv"):
        assert error_message(refused) == (
            "Ert lags anspråk avböjdes: spela ett stick innan ni gör anspråk igen."
        )
        with pytest.raises(PremoveNotLegal) as caught:
            premove_check(state, 0, PASS)  # type: ignore[arg-type]
    assert caught.value.message == "Du har budit i den här given: ditt nästa drag är ett kort."
