"""The clock's substitute move, made by a real Celery worker, reaches a seat waiting on a
real ASGI server through the push (the periodic check is made too slow to matter)."""

from __future__ import annotations

import pytest
import time_machine
from django.utils import timezone

from clock.models import SeatClock
from clock.tasks import sweep_deadlines
from games.models import Move, SubmittedBy
from tests.bots import worker as bot_worker
from tests.clock.helpers import DAY, timed_game
from tests.games.live_clients import StreamReader, token_for

pytestmark = [pytest.mark.worker, pytest.mark.server, pytest.mark.django_db(transaction=True)]


def test_the_clocks_substitute_move_reaches_a_waiting_seat(
    clock_worker: bot_worker.Worker, asgi_server_factory
) -> None:  # type: ignore[no-untyped-def]
    server = asgi_server_factory({"LIVE_CHECK_INTERVAL": "300"}).start()
    with time_machine.travel(timezone.now() - 3 * DAY, tick=False):
        game = timed_game(days=1)
    leaver = game.to_act
    assert leaver is not None
    SeatClock.objects.filter(game_clock__game=game, position=leaver).update(consecutive_timeouts=2)
    watching = (leaver + 1) % 4
    seated = game.seats.get(position=watching).player
    url = f"{server.url}/api/v1/games/{game.public_id}/events/stream/?since=0&timeout=600"
    watcher = StreamReader(url, token_for(seated.user)).start()
    assert watcher.opened.wait(20) and watcher.status == 200

    sweep_deadlines.apply_async(queue="clock")
    move = bot_worker.wait_for(
        lambda: Move.objects.filter(game=game, seq=1).first(), 60, "the sweep's move"
    )
    assert (move.seat, move.submitted_by) == (leaver, SubmittedBy.SYSTEM)
    assert watcher.wait_for_seq(1, 10), watcher.events
    assert [(e["seq"], e["seat"]) for e in watcher.events if e["seq"] == 1][0] == (1, leaver)
