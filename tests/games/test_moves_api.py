"""Submitting moves: every answer of the move endpoint, and that errors write nothing."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from backalley_engine.actions import PASS, action_to_json
from backalley_engine.cards import card_str, parse_card
from backalley_engine.errors import EngineError
from backalley_engine.state import GameState
from games import statecache
from games.models import Game, Move, SubmittedBy
from tests.factories import PlayerFactory
from tests.games.conftest import Table, choose, client_for, make_table

pytestmark = pytest.mark.django_db


def _fingerprint(game_id: str) -> tuple[Any, ...]:
    g = Game.objects.get(public_id=game_id)
    return (
        g.move_count,
        g.to_act,
        g.status,
        g.snapshot,
        Move.objects.count(),
        g.deals.count(),
    )


def _state(table: Table) -> GameState:
    return statecache.state_for(table.game)


def _advance_until(
    table: Table, find: Callable[[GameState, int], int | None], limit: int = 400
) -> int:
    """Play first-legal moves until ``find`` returns an action for the seat to act."""
    for _ in range(limit):
        state = _state(table)
        seat = state.seat_to_act
        assert seat is not None
        found = find(state, seat)
        if found is not None:
            return found
        r = table.move(seat, action_to_json(choose(state.legal_actions())), state.move_count)
        assert r.status_code == 201, r.content
    raise AssertionError("situation not reached")


def _hand(state: GameState, seat: int) -> list[int]:
    return [parse_card(c) for c in state.view(seat)["hand"]]


def _engine_error(state: GameState, action: int) -> EngineError:
    try:
        state.clone().apply(action, seat=state.seat_to_act)
    except EngineError as e:
        return e
    raise AssertionError("the engine accepted it")


def test_a_move_lands_with_201_and_the_new_state(table: Table) -> None:
    seat = table.to_act()
    r = table.move(seat, {"bid": 2}, 0, key="k-1")
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["move"] == {"seq": 1, "seat": seat, "action": {"bid": 2}}
    assert body["seq"] == 1 and body["your_seat"] == seat
    assert body["view"]["bids"] == [{"seat": seat, "bid": 2}]
    assert body["to_act"] == (seat + 1) % 4
    move = Move.objects.get()
    assert (move.seq, move.seat, move.action, move.submitted_by) == (
        1,
        seat,
        {"bid": 2},
        SubmittedBy.PLAYER,
    )
    assert move.actor == table.players[seat] and move.user == table.players[seat].user
    assert move.idempotency_key == "k-1"


def test_replayed_idempotency_key_gets_the_same_response_and_no_second_move(table: Table) -> None:
    seat = table.to_act()
    first = table.move(seat, {"bid": "pass"}, 0, key="same")
    again = table.move(seat, {"bid": "pass"}, 0, key="same")
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    assert Move.objects.count() == 1
    # Even once the game has moved on, the key answers with the original body.
    nxt = table.to_act()
    assert table.move(nxt, {"bid": "pass"}, 1).status_code == 201
    late = table.move(seat, {"bid": "pass"}, 0, key="same")
    assert late.status_code == 201 and late.json() == first.json()
    assert Move.objects.count() == 2


def test_a_key_reused_for_another_move_or_by_another_seat_is_refused(table: Table) -> None:
    seat = table.to_act()
    assert table.move(seat, {"bid": "pass"}, 0, key="k").status_code == 201
    before = _fingerprint(table.game_id)
    r = table.move(seat, {"bid": 3}, 0, key="k")
    assert (r.status_code, r.json()["code"]) == (422, "idempotency_key_reused")
    other = table.to_act()
    r = table.move(other, {"bid": "pass"}, 1, key="k")
    assert (r.status_code, r.json()["code"]) == (422, "idempotency_key_reused")
    assert "hand" not in json.dumps(r.json())
    assert _fingerprint(table.game_id) == before


def test_stale_expected_seq_gets_409_with_the_current_state(table: Table) -> None:
    seat = table.to_act()
    assert table.move(seat, {"bid": 1}, 0).status_code == 201
    before = _fingerprint(table.game_id)
    nxt = table.to_act()
    for stale in (0, 5):
        r = table.move(nxt, {"bid": 1}, stale)
        assert r.status_code == 409 and r.json()["code"] == "stale_state"
        extra = r.json()["extra"]
        assert extra["seq"] == 1 and extra["expected_seq"] == stale
        assert extra["state"]["your_seat"] == nxt and extra["state"]["view"]["hand"]
    assert _fingerprint(table.game_id) == before


def test_out_of_turn_is_409_not_your_turn(table: Table) -> None:
    seat = (table.to_act() + 1) % 4
    before = _fingerprint(table.game_id)
    r = table.move(seat, {"bid": "pass"}, 0)
    assert (r.status_code, r.json()["code"]) == (409, "not_your_turn")
    assert r.json()["extra"]["to_act"] == table.to_act()
    assert _fingerprint(table.game_id) == before


def test_no_seat_is_403_not_your_seat_even_with_a_seat_elsewhere(table: Table) -> None:
    stranger = client_for(PlayerFactory().user)
    before = _fingerprint(table.game_id)
    r = stranger.post(
        table.url("moves/"), {"action": {"bid": "pass"}, "expected_seq": 0}, format="json"
    )
    assert (r.status_code, r.json()["code"]) == (403, "not_your_seat")
    # A player of another game, naming the seat they hold there.
    other = make_table(("oa1", "ob1", "oc1", "od1"))
    seat = other.to_act()
    r = other.clients[seat].post(
        table.url("moves/"),
        {"action": {"bid": "pass"}, "expected_seq": 0, "seat": seat},
        format="json",
    )
    assert (r.status_code, r.json()["code"]) == (403, "not_your_seat")
    r = table.clients[0].post(
        table.url("moves/"),
        {"action": {"bid": "pass"}, "expected_seq": 0, "seat": 2},
        format="json",
    )
    assert (r.status_code, r.json()["code"]) == (403, "not_your_seat")
    assert _fingerprint(table.game_id) == before


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"action": {"card": "ZZ"}, "expected_seq": 0}, "bad_action"),
        ({"action": {"card": "1S"}, "expected_seq": 0}, "bad_action"),
        ({"action": {"bid": 13}, "expected_seq": 0}, "bad_action"),
        ({"action": {"bid": -1}, "expected_seq": 0}, "bad_action"),
        ({"action": {"bid": True}, "expected_seq": 0}, "bad_action"),
        ({"action": {"bid": "pass", "card": "AS"}, "expected_seq": 0}, "bad_action"),
        ({"action": {"play": "AS"}, "expected_seq": 0}, "bad_action"),
        ({"action": {}, "expected_seq": 0}, "bad_action"),
        ({"action": "pass", "expected_seq": 0}, "invalid"),
        ({"action": ["AS"], "expected_seq": 0}, "invalid"),
        ({"action": None, "expected_seq": 0}, "invalid"),
        ({"action": {"bid": "pass"}}, "invalid"),
        ({"action": {"bid": "pass"}, "expected_seq": "zero"}, "invalid"),
        ({"action": {"bid": "pass"}, "expected_seq": -1}, "invalid"),
        ({"action": {"bid": "pass"}, "expected_seq": 0, "seat": 7}, "invalid"),
        ({"expected_seq": 0}, "invalid"),
        ([1, 2, 3], "invalid"),
    ],
)
def test_bad_input_gets_a_clear_400_and_writes_nothing(table: Table, body: Any, code: str) -> None:
    before = _fingerprint(table.game_id)
    seat = table.to_act()
    r = table.clients[seat].post(table.url("moves/"), body, format="json")
    assert r.status_code == 400, r.content
    assert r.json()["code"] == code and r.json()["message"]
    assert _fingerprint(table.game_id) == before


def test_malformed_json_and_huge_bodies_are_refused(table: Table) -> None:
    before = _fingerprint(table.game_id)
    c = table.clients[table.to_act()]
    r = c.post(table.url("moves/"), data='{"action": {"bid": ', content_type="application/json")
    assert (r.status_code, r.json()["code"]) == (400, "malformed_json")
    huge = json.dumps({"action": {"bid": "pass"}, "expected_seq": 0, "pad": "x" * 200_000})
    r = c.post(table.url("moves/"), data=huge, content_type="application/json")
    assert r.status_code == 413 and r.json()["code"]
    r = c.post(table.url("moves/"), data="action=pass", content_type="text/plain")
    assert r.status_code == 415
    assert _fingerprint(table.game_id) == before


@pytest.mark.parametrize("key", ["", "x" * 101, "caf\u00e9", "tab\there"])
def test_bad_idempotency_keys_are_refused(table: Table, key: str) -> None:
    before = _fingerprint(table.game_id)
    seat = table.to_act()
    r = table.clients[seat].post(
        table.url("moves/"),
        {"action": {"bid": "pass"}, "expected_seq": 0},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
    )
    if key == "":
        # An empty header is no key at all.
        assert r.status_code in (201, 400)
        return
    assert (r.status_code, r.json()["code"]) == (400, "bad_idempotency_key")
    assert _fingerprint(table.game_id) == before


def test_engine_rule_errors_come_back_as_400_with_the_engine_code(table: Table) -> None:
    state = _state(table)
    seat = state.seat_to_act
    assert seat is not None
    # A card while bidding.
    card = _hand(state, seat)[0]
    r = table.move(seat, {"card": card_str(card)}, 0)
    expected = _engine_error(state, card)
    assert r.json()["code"] == expected.code == "wrong_phase"
    assert r.status_code == 409 and r.json()["message"] == expected.message
    # A card not in the hand, once playing: the message names no card of another hand.
    play = _advance_until(table, lambda s, _seat: 0 if s.phase == "playing" else None)
    state = _state(table)
    seat = state.seat_to_act
    assert seat is not None and play == 0
    foreign = _hand(state, (seat + 1) % 4)[0]
    r = table.move(seat, {"card": card_str(foreign)}, state.move_count)
    assert (r.status_code, r.json()["code"]) == (400, "illegal_card")
    # Nothing about who holds it: the extra echoes only what the caller sent.
    assert card_str(foreign) not in r.json()["message"]
    assert set(r.json()["extra"].values()) <= {card_str(foreign)}
    assert Move.objects.count() == state.move_count


def test_must_follow_suit_is_400(table: Table) -> None:
    def offsuit(state: GameState, seat: int) -> int | None:
        if state.phase != "playing" or not state.view(seat)["trick"]:
            return None
        legal = set(state.legal_actions())
        for c in _hand(state, seat):
            if c not in legal and _engine_error(state, c).code == "must_follow_suit":
                return c
        return None

    card = _advance_until(table, offsuit)
    state = _state(table)
    before = _fingerprint(table.game_id)
    r = table.move(state.seat_to_act, {"card": card_str(card)}, state.move_count)
    assert (r.status_code, r.json()["code"]) == (400, "must_follow_suit")
    assert r.json()["message"]
    assert _fingerprint(table.game_id) == before


def test_bidding_pass_is_recorded_in_the_log_with_its_engine_code(table: Table) -> None:
    seat = table.to_act()
    assert table.move(seat, {"bid": "PASS"}, 0).status_code == 201
    assert Move.objects.get().action_code == PASS


def test_a_late_move_costs_the_same_queries_as_an_early_one(table: Table) -> None:
    """No replay of the game per move: the move path's queries do not grow with its length."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.games.helpers import choose_code, play

    counts = []
    game = table.game
    for ahead in (2, 120):
        game = play(game, ahead)
        action = choose_code(statecache.state_for(game).legal_actions())
        with CaptureQueriesContext(connection) as ctx:
            r = table.move(game.to_act, action_to_json(action), game.move_count, key=f"q{ahead}")
        assert r.status_code == 201
        game.refresh_from_db()
        counts.append(len(ctx.captured_queries))
    assert game.move_count > 120 and counts[0] == counts[1]
