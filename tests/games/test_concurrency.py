"""Racing clients on real PostgreSQL: exactly one move lands per turn."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection, connections

from games.models import Move
from tests.conftest import require_service
from tests.games.conftest import client_for, make_table

RACERS = 20


def _race(table: Any, seat: int, expected_seq: int, body_for: Any, key_for: Any) -> list[Any]:
    user = table.players[seat].user
    barrier = threading.Barrier(RACERS)
    results: list[Any] = [None] * RACERS

    def submit(i: int) -> None:
        try:
            client = client_for(user)
            barrier.wait(timeout=30)
            headers = {"HTTP_IDEMPOTENCY_KEY": key_for(i)} if key_for(i) else {}
            r = client.post(
                table.url("moves/"),
                {"action": body_for(i), "expected_seq": expected_seq},
                format="json",
                **headers,
            )
            results[i] = (r.status_code, r.json())
        finally:
            connections.close_all()

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(RACERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert all(r is not None for r in results), results
    return results


@pytest.mark.django_db(transaction=True)
def test_twenty_simultaneous_submissions_of_one_turn_land_once() -> None:
    require_service(connection.vendor == "postgresql", "the race needs real PostgreSQL row locks")
    table = make_table(("race_n", "race_e", "race_s", "race_w"))

    # Round 1: the same move, half with one shared key, half with keys of their own.
    seat = table.to_act()
    results = _race(
        table, seat, 0, lambda i: {"bid": 1}, lambda i: "shared" if i % 2 else f"own-{i}"
    )
    landed = [body for status, body in results if status == 201]
    refused = [body for status, body in results if status != 201]
    assert Move.objects.filter(game__public_id=table.game_id).count() == 1
    assert landed and all(b == landed[0] for b in landed)  # the winner and its replays
    assert all(status in (201, 409) for status, _ in results)
    assert all(b["code"] == "stale_state" and b["extra"]["seq"] == 1 for b in refused)

    # Round 2: different moves for the next turn, no keys: one lands, the rest are stale.
    seat = table.to_act()
    results = _race(
        table, seat, 1, lambda i: {"bid": "pass"} if i % 2 else {"bid": 1 + i % 3}, lambda i: None
    )
    statuses = sorted(status for status, _ in results)
    assert statuses.count(201) == 1 and statuses.count(409) == RACERS - 1
    seqs = list(Move.objects.filter(game__public_id=table.game_id).values_list("seq", flat=True))
    assert sorted(seqs) == [1, 2]
    assert table.game.move_count == 2


@pytest.mark.autoplay
@pytest.mark.django_db(transaction=True)
def test_twenty_racing_submissions_of_a_move_that_forces_others_play_the_chain_once() -> None:
    """The move lands once, and so does each forced move the service plays after it, each
    with its one outbox event, whatever the race (docs/rules.md §10, games.autoplay)."""
    require_service(connection.vendor == "postgresql", "the race needs real PostgreSQL row locks")
    from games import statecache
    from games.models import Event
    from tests.games.helpers import choose_code, play

    table = make_table(("chain_n", "chain_e", "chain_s", "chain_w"))
    game = table.game
    for _ in range(600):  # on to a move after which the next seat has a single legal card
        state = statecache.state_for(game)
        if state.phase == "playing":
            after = state.clone()
            after.apply(choose_code(state.legal_actions()))
            if after.seat_to_act is not None and len(after.legal_actions()) == 1:
                break
        game = play(game, 1)
    else:
        raise AssertionError("no forcing move found")
    k = game.move_count
    seat = table.to_act()
    from backalley_engine.actions import action_to_json

    action = action_to_json(choose_code(statecache.state_for(game).legal_actions()))
    results = _race(table, seat, k, lambda i: action, lambda i: "one" if i % 2 else f"own-{i}")
    landed = [body for status, body in results if status == 201]
    assert landed and all(status in (201, 409) for status, _ in results)
    game = table.game
    assert game.move_count > k + 1  # the chain was played
    seqs = list(Move.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, game.move_count + 1))
    assert Move.objects.filter(game=game, seq__gt=k + 1, submitted_by="auto").count() == (
        game.move_count - k - 1
    )
    events = list(
        Event.objects.filter(game=game, kind="move_committed", seq__gt=k).values_list(
            "seq", flat=True
        )
    )
    assert sorted(events) == list(range(k + 1, game.move_count + 1))
