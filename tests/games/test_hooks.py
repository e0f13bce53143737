"""After-commit hooks: other apps hear of a move only once it is committed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import transaction

from games import hooks
from games.engine.errors import EngineError
from games.models import GameStatus
from games.services import move_submit
from tests.games.conftest import make_table
from tests.games.helpers import play

pytestmark = pytest.mark.django_db


@pytest.fixture
def heard() -> Iterator[list[hooks.GameEvent]]:
    got: list[hooks.GameEvent] = []

    def listen(event: hooks.GameEvent) -> None:
        got.append(event)

    hooks.on_game_started(listen)
    hooks.on_move_committed(listen)
    hooks.on_game_finished(listen)
    yield got
    hooks.unregister(listen)


def test_start_and_moves_fire_after_commit_only(
    heard: list[hooks.GameEvent], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=False) as pending:
        game = make_table().game
    assert heard == [] and len(pending) == 1
    pending[0]()
    assert [(e.kind, e.seq, e.to_act) for e in heard] == [("game_started", 0, game.to_act)]
    with django_capture_on_commit_callbacks(execute=True):
        play(game, 1)
    event = heard[-1]
    assert (event.kind, event.game_id, event.seq, event.status) == (
        "move_committed",
        game.pk,
        1,
        GameStatus.ACTIVE,
    )
    assert event.to_act == game.to_act and event.seat != game.to_act


def test_a_rolled_back_move_fires_nothing(heard: list[hooks.GameEvent]) -> None:
    game = make_table().game
    heard.clear()
    with pytest.raises(RuntimeError), transaction.atomic():
        move_submit(game_id=game.pk, seats=[game.to_act], action={"bid": 1}, expected_seq=0)
        raise RuntimeError("roll back")
    assert heard == []
    game.refresh_from_db()
    assert game.move_count == 0


def test_an_illegal_move_fires_nothing(
    heard: list[hooks.GameEvent], django_capture_on_commit_callbacks: Any
) -> None:
    game = make_table().game
    heard.clear()
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(EngineError):
        move_submit(game_id=game.pk, seats=[game.to_act], action={"card": "AS"}, expected_seq=0)
    assert heard == []


def test_a_failing_listener_does_not_stop_the_others(
    heard: list[hooks.GameEvent], django_capture_on_commit_callbacks: Any
) -> None:
    def broken(event: hooks.GameEvent) -> None:
        raise ValueError("boom")

    hooks.on_move_committed(broken)
    try:
        game = make_table().game
        with django_capture_on_commit_callbacks(execute=True):
            play(game, 1)
    finally:
        hooks.unregister(broken)
    assert heard[-1].kind == "move_committed"
