"""The sweeper on real PostgreSQL: run twice, and run by racing threads, it makes each
substitute move once and sends each reminder once."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.core import mail
from django.db import connection, connections

from clock.models import Notification, ReminderSent, SeatClock
from clock.reminders import send_due_reminders
from clock.sweeper import sweep
from games.models import Game, Move, SubmittedBy
from tests.clock.helpers import DAY, T0, timed_game
from tests.conftest import require_service

pytestmark = pytest.mark.django_db(transaction=True)


def race(n: int, work: Callable[[], Any]) -> list[Any]:
    """Run ``work`` in ``n`` threads released together; each has its own connection."""
    barrier = threading.Barrier(n)
    results: list[Any] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            barrier.wait()
            results.append(work())
        except BaseException as exc:  # surfaced below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    return results


@pytest.fixture
def postgres() -> None:
    require_service(
        connection.vendor == "postgresql", "the race tests need PostgreSQL (DATABASE_URL)"
    )


def test_a_second_sweep_makes_no_second_move(postgres: None) -> None:
    with time_machine.travel(T0, tick=False) as traveller:
        games = [timed_game(days=1) for _ in range(2)]
        traveller.shift(DAY + timedelta(minutes=5))
        first = sweep()
        second = sweep()
    assert sorted(first.moved) == sorted((g.pk, 1) for g in games)
    assert second.moved == []
    for g in games:
        assert Game.objects.get(pk=g.pk).move_count == 1
        assert (
            SeatClock.objects.get(game_clock__game=g, position=g.to_act).consecutive_timeouts == 1
        )


def test_racing_sweepers_make_each_substitute_move_exactly_once(postgres: None) -> None:
    with time_machine.travel(T0, tick=False) as traveller:
        games = [timed_game(days=1) for _ in range(3)]
        traveller.shift(DAY + timedelta(minutes=5))
        reports = race(4, sweep)
    moved = [m for r in reports for m in r.moved]
    assert sorted(moved) == sorted((g.pk, 1) for g in games)  # each once, across all threads
    for g in games:
        moves = Move.objects.filter(game=g)
        assert list(moves.values_list("seq", "submitted_by")) == [(1, SubmittedBy.SYSTEM)]
        sc = SeatClock.objects.get(game_clock__game=g, position=g.to_act)
        assert (sc.consecutive_timeouts, sc.timeouts) == (1, 1)
        assert Notification.objects.filter(game=g, kind="timeout").count() == 1


def test_racing_reminder_runs_send_each_mail_once(postgres: None) -> None:
    with time_machine.travel(T0, tick=False) as traveller:
        games = [timed_game(days=5) for _ in range(3)]
        traveller.shift(4 * DAY + timedelta(minutes=1))  # 80% of five days used
        mail.outbox.clear()
        counts = race(4, send_due_reminders)
        again = send_due_reminders()
    assert sum(counts) == 3 and again == 0
    assert len(mail.outbox) == 3
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        g.seats.get(position=g.to_act).player.user.email for g in games
    )
    assert ReminderSent.objects.filter(kind="reminder").count() == 3
    assert Notification.objects.filter(kind="reminder").count() == 3


def test_a_last_second_move_and_the_sweeper_racing_make_one_move(postgres: None) -> None:
    from games import statecache
    from games.errors import StaleState
    from games.services import move_submit

    with time_machine.travel(T0, tick=False) as traveller:
        games = [timed_game(days=1) for _ in range(4)]
        traveller.shift(DAY + timedelta(seconds=1))
        outcomes: list[str] = []

        def player_moves() -> None:
            # Each player answers the move they saw (expected_seq 0) for their own seat.
            for g in games:
                legal = statecache.replay(g).legal_actions()
                try:
                    move_submit(game_id=g.pk, seats=[g.to_act], action=legal[0], expected_seq=0)
                    outcomes.append("player")
                except StaleState:
                    outcomes.append("too late")

        def work(kind: list[str] = ["player", "sweeper"]) -> None:  # noqa: B006
            if kind.pop() == "sweeper":
                sweep()
            else:
                player_moves()

        race(2, work)
    for g in games:
        moves = list(Move.objects.filter(game=g).values_list("seq", "seat", "submitted_by"))
        assert len(moves) == 1, moves  # one move for the turn, by the player or the house bot
        assert moves[0][:2] == (1, g.to_act)
    assert len(outcomes) == 4
    by_system = Move.objects.filter(submitted_by=SubmittedBy.SYSTEM).count()
    assert outcomes.count("too late") == by_system
