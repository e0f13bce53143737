"""The round bookkeeping runs in a real Celery worker: two people's partnerships play
real games through the services (in this process); each finished game's event enqueues
the tournament task, which the worker runs to pair round 2 and then to finish the event."""

from __future__ import annotations

import pytest

from games.models import Game, GameStatus
from tests.bots.worker import wait_for
from tests.games.helpers import play
from tests.tournaments.helpers import event, pairs
from tournaments import selectors, services
from tournaments.models import Round, Status, Tournament

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

WHOLE_GAME = 5000  # moves: more than any game needs


def test_the_worker_pairs_the_next_round_and_finishes_the_event(worker_factory) -> None:  # type: ignore[no-untyped-def]
    t = event(rounds=2)
    pairs(t, 2)
    worker = worker_factory().start()
    services.tournament_start(tournament_id=t.pk, by=t.organiser)
    for number in (1, 2):
        game = Game.objects.get(
            tournament_table__round__tournament=t, tournament_table__round__number=number
        )
        assert play(game, WHOLE_GAME).status == GameStatus.FINISHED
        if number == 1:
            try:
                wait_for(
                    lambda: Round.objects.filter(tournament=t, number=2).exists(),
                    300,
                    "round 2 to be paired by the worker",
                    0.2,
                )
            except AssertionError:
                raise AssertionError(worker.log()) from None
    wait_for(
        lambda: Tournament.objects.get(pk=t.pk).status == Status.FINISHED,
        300,
        "the event to finish",
        0.2,
    )
    table = selectors.standings(tournament=t)
    assert sum(line.half_points for line in table.lines) == 4
    assert all(line.played == 2 for line in table.lines)
