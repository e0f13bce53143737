"""The last two games of a round finish at the same instant: the next round is paired
once. Real concurrent transactions on PostgreSQL (threads with their own connections)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from django.utils import timezone

from games.models import Game, GameStatus
from tests.conftest import require_service
from tests.tournaments.helpers import event, pairs
from tournaments import services
from tournaments.models import Result, Round

pytestmark = pytest.mark.django_db(transaction=True)


def _finish(game: Game, totals: tuple[int, int]) -> None:
    Game.objects.filter(pk=game.pk).update(
        status=GameStatus.FINISHED,
        total_0=totals[0],
        total_1=totals[1],
        winner=0 if totals[0] > totals[1] else 1,
        finished_at=timezone.now(),
    )


@pytest.mark.parametrize("attempt", range(3))
def test_the_next_round_is_paired_once_when_the_last_two_games_finish_together(
    attempt: int,
) -> None:
    require_service(connection.vendor == "postgresql", "needs PostgreSQL (DATABASE_URL)")
    t = event(rounds=2)
    pairs(t, 4)
    services.tournament_start(tournament_id=t.pk, by=t.organiser)
    games = list(Game.objects.filter(tournament_table__round__tournament=t))
    assert len(games) == 2
    for g in games:
        _finish(g, (100, 50))
    barrier = threading.Barrier(len(games))
    outcomes: list[str] = []
    errors: list[BaseException] = []

    def run(game_id: int) -> None:
        try:
            barrier.wait(timeout=10)
            outcomes.append(services.tournament_game_finished(game_id=game_id))
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(g.pk,)) for g in games]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=60)
    assert not errors, errors
    assert sorted(outcomes) == ["already_done", "next_round"]
    assert Round.objects.filter(tournament=t).count() == 2
    assert Result.objects.filter(round__tournament=t, round__number=2).count() == 4
    assert Game.objects.filter(tournament_table__round__tournament=t).count() == 4
