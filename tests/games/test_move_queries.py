"""The move path's database cost: a fixed, small number of statements per move.

Counted through the API with the after-commit delivery included (the outbox's fast path).
Inside a test the transaction is a savepoint; in a request it is BEGIN … COMMIT, which
Django does not send as statements, so a request costs the same count.
"""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

from backalley_engine.actions import action_to_json
from games import statecache
from tests.games.conftest import Table, make_table
from tests.games.helpers import choose_code

pytestmark = pytest.mark.django_db

# SAVEPOINT; lock the game row; its seats and players; UPDATE the game; INSERT the move;
# INSERT the outbox event; RELEASE SAVEPOINT; after commit, mark the event delivered. (The
# clock's part costs nothing for an untimed game; the tournaments' part nothing for a game
# with moves that is not in an event: each process remembers that.)
MOVE_QUERIES = 8
# A keyed request also looks its key up first.
KEYED_MOVE_QUERIES = MOVE_QUERIES + 1


def next_move(table: Table, key: str | None, captured: Any, counted: Any) -> None:
    game = table.game
    action = action_to_json(choose_code(statecache.state_for(game).legal_actions()))
    with counted, captured(execute=True):
        r = table.move(game.to_act, action, game.move_count, key=key)
    assert r.status_code == 201, r.content


def test_a_move_costs_a_fixed_small_number_of_queries(
    django_assert_num_queries: Any, django_capture_on_commit_callbacks: Any
) -> None:
    table = make_table()
    captured = django_capture_on_commit_callbacks
    next_move(table, None, captured, contextlib.nullcontext())  # warms the bots' seat cache
    next_move(table, None, captured, django_assert_num_queries(MOVE_QUERIES))
    next_move(table, "key-3", captured, django_assert_num_queries(KEYED_MOVE_QUERIES))
