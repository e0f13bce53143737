"""After-commit hooks: other apps hear of a move only once it is committed."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from backalley_engine.errors import EngineError
from games import hooks, outbox
from games.models import Event, GameStatus
from games.services import game_call_off, game_create, move_submit
from tests.factories import PlayerFactory
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
    hooks.on_game_called_off(listen)
    yield got
    hooks.unregister(listen)


def test_start_and_moves_fire_after_commit_only(
    heard: list[hooks.GameEvent], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=False) as pending:
        game = make_table().game
    assert heard == [] and pending  # nothing heard before the commit
    for callback in pending:
        callback()
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


def test_calling_off_a_running_game_is_heard_once_and_wakes_its_waiters(
    heard: list[hooks.GameEvent],
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from games.live import publish

    woken: list[tuple[int, int, str]] = []
    monkeypatch.setattr(publish, "wake", lambda *args: woken.append(args))
    game = make_table().game
    play(game, 3)
    heard.clear()
    with django_capture_on_commit_callbacks(execute=True):
        game_call_off(game_id=game.pk)
        game_call_off(game_id=game.pk)  # a second call finds it over: nothing more
    assert [(e.kind, e.seq, e.to_act, e.status) for e in heard] == [
        ("game_called_off", 3, None, GameStatus.ABORTED)
    ]
    assert woken == [(game.pk, 3, GameStatus.ABORTED)]
    assert Event.objects.filter(game=game, kind="game_called_off").count() == 1


def test_calling_off_a_game_before_it_starts_tells_nobody(
    heard: list[hooks.GameEvent], django_capture_on_commit_callbacks: Any
) -> None:
    creator = PlayerFactory()
    game = game_create(creator=creator, seats=[creator, None, None, None])
    with django_capture_on_commit_callbacks(execute=True):
        game_call_off(game_id=game.pk)
    game.refresh_from_db()
    assert game.status == GameStatus.ABORTED and heard == []


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


def test_a_failing_listener_does_not_stop_the_others_and_is_retried_alone(
    heard: list[hooks.GameEvent], django_capture_on_commit_callbacks: Any
) -> None:
    calls: list[hooks.GameEvent] = []

    def broken(event: hooks.GameEvent) -> None:
        calls.append(event)
        if len(calls) == 1:
            raise ValueError("boom")

    hooks.on_move_committed(broken)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            game = make_table().game
            play(game, 1)
        assert heard[-1].kind == "move_committed" and len(calls) == 1
        row = Event.objects.get(game=game, kind="move_committed")
        assert row.delivered_at is None  # one consumer has not acknowledged it
        acked = set(row.deliveries.values_list("consumer", flat=True))
        assert hooks.consumer_name(broken) not in acked and len(acked) >= 1
        heard.clear()
        assert outbox.relay(now=timezone.now() + timedelta(minutes=1)) == 1
    finally:
        hooks.unregister(broken)
    assert [e.event_id for e in calls] == [row.pk, row.pk]  # the broken one, again
    assert heard == []  # the others had acknowledged it: not called twice
    row.refresh_from_db()
    assert row.delivered_at is not None and row.attempts == 1


def test_each_event_is_an_outbox_row_written_with_its_move(
    heard: list[hooks.GameEvent], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = make_table().game
        play(game, 2)
    rows = list(Event.objects.filter(game=game).order_by("pk"))
    assert [(r.kind, r.seq) for r in rows] == [
        ("game_started", 0),
        ("move_committed", 1),
        ("move_committed", 2),
    ]
    assert all(r.delivered_at is not None for r in rows)  # the fast path took them all
    assert [e.event_id for e in heard] == [r.pk for r in rows]
    assert heard[1].key == f"move_committed:{game.pk}:1"
    assert outbox.relay(now=timezone.now() + timedelta(hours=1)) == 0


def test_an_event_whose_process_died_after_commit_is_delivered_by_the_relay(
    heard: list[hooks.GameEvent], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=False) as pending:
        game = make_table().game
    assert pending and heard == []  # none of the after-commit work ran (the "crash")
    assert outbox.relay() == 0  # the committing process still has its head start
    assert outbox.relay(now=timezone.now() + timedelta(seconds=11)) == 1
    assert [(e.kind, e.game_id) for e in heard] == [("game_started", game.pk)]
    assert Event.objects.get(game=game).delivered_at is not None


@pytest.mark.slow
def test_the_end_of_a_game_is_an_event_of_its_own(
    heard: list[hooks.GameEvent], django_capture_on_commit_callbacks: Any
) -> None:
    game = make_table().game
    with django_capture_on_commit_callbacks(execute=True):
        play(game, 10_000)
    assert game.status == GameStatus.FINISHED
    last = heard[-2:]
    assert [(e.kind, e.seq, e.to_act) for e in last] == [
        ("move_committed", game.move_count, None),
        ("game_finished", game.move_count, None),
    ]


def test_old_delivered_events_and_stored_answers_are_pruned(settings: Any) -> None:
    from games import tasks
    from games.models import Move

    game = make_table().game
    seat = game.to_act
    move_submit(
        game_id=game.pk, seats=[seat], action={"bid": 1}, expected_seq=0, idempotency_key="k-1"
    )
    play(game, 1)
    keyed, plain = Move.objects.filter(game=game).order_by("seq")
    assert keyed.response is not None and plain.response is None  # kept only for keys
    Event.objects.filter(game=game).update(delivered_at=timezone.now())
    assert tasks.prune() == {"events": 0, "responses": 0}
    old = timezone.now() - timedelta(days=settings.GAMES_EVENTS_KEEP_DAYS, hours=1)
    Event.objects.filter(game=game).update(delivered_at=old)
    Move.objects.filter(game=game).update(created_at=old)
    assert tasks.prune() == {"events": 3, "responses": 1}
    again = move_submit(
        game_id=game.pk, seats=[seat], action={"bid": 1}, expected_seq=0, idempotency_key="k-1"
    )
    assert again.replayed and again.body["move"]["seq"] == 1 and again.body["seq"] == 2
