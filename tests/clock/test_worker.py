"""The clock's tasks in a real Celery worker (Redis broker, PostgreSQL): the sweep moves for
a seat out of time, and the house bot answers an abandoned seat through the "clock" queue."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
import time_machine
from django.utils import timezone

from clock.models import SeatClock
from clock.tasks import sweep_deadlines
from games.models import Game, Move, Seat, SubmittedBy
from tests.bots import worker as bot_worker  # a module import: its test_* helper is no test here
from tests.clock.helpers import DAY, play, timed_game

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]


def test_the_worker_sweeps_and_the_house_bot_answers_an_abandoned_seat(
    clock_worker: bot_worker.Worker,
) -> None:
    # The worker runs on the real clock, so the game is made to start three days ago.
    with time_machine.travel(timezone.now() - 3 * DAY, tick=False):
        game = timed_game(days=1)
    leaver = game.to_act
    assert leaver is not None
    # The clock follows the game's start through the worker (clock.tasks.sync_clock).
    bot_worker.wait_for(
        lambda: SeatClock.objects.filter(game_clock__game=game).count() == 4, 60, "the clock"
    )
    SeatClock.objects.filter(game_clock__game=game, position=leaver).update(consecutive_timeouts=2)

    sweep_deadlines.apply_async()  # routed to "clock" in settings
    bot_worker.wait_for(
        lambda: Move.objects.filter(game=game, seq=1).exists(), 60, "the sweep's move"
    )
    first = Move.objects.get(game=game, seq=1)
    assert (first.seat, first.submitted_by) == (leaver, SubmittedBy.SYSTEM)
    bot_worker.wait_for(
        lambda: Seat.objects.filter(
            game=game, position=leaver, abandoned_at__isnull=False
        ).exists(),
        10,
        "the seat to be abandoned",
    )
    # The people play on; when the turn comes back to the abandoned seat, the move is made
    # by the worker (play_abandoned_seat, enqueued on commit), not by a later sweep.
    # Every seat acts at least once in any seven moves in a row.
    answered = Move.objects.filter(game=game, seq__gt=1, seat=leaver)
    for _ in range(8):
        bot_worker.wait_for(
            lambda: Game.objects.get(pk=game.pk).to_act != leaver, 60, "the house bot's answer"
        )
        if answered.exists():
            break
        play(game.pk)
    assert answered.exists()
    assert set(answered.values_list("submitted_by", flat=True)) == {SubmittedBy.SYSTEM}
    assert Move.objects.filter(game=game).count() == Game.objects.get(pk=game.pk).move_count
    assert timedelta(0) <= timezone.now() - Game.objects.get(pk=game.pk).last_move_at < DAY
