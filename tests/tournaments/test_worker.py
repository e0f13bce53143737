"""A whole Swiss of 8 bot partnerships over 3 rounds, played and paired by a real Celery
worker on PostgreSQL, to the final standings: nobody watches, nothing is called by hand
after the start."""

from __future__ import annotations

import time

import pytest

from bots.services import bot_create
from games.models import Game, GameStatus
from tests.bots.worker import Worker, wait_for
from tests.factories import UserFactory
from tournaments import selectors, services
from tournaments.models import Result, Round, Status, Tournament

# 12 games of about 800 moves each: a few minutes on an idle two-core machine (see
# docs/tournaments.md); the bound is generous for a loaded one.
pytestmark = [
    pytest.mark.worker,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(2400),
]

PARTNERSHIPS = 8
ROUNDS = 3


def test_a_bot_swiss_runs_to_final_standings_through_the_worker(
    worker_factory, tmp_path, capsys
) -> None:  # type: ignore[no-untyped-def]
    organiser_user = UserFactory()
    from accounts.services import player_for_user

    t = services.tournament_create(
        organiser=player_for_user(organiser_user),
        name="Bot Swiss",
        rounds=ROUNDS,
        bots_allowed=True,
    )
    for k in range(PARTNERSHIPS):
        owner = UserFactory()
        # The random strategy is the house's fastest: a 25-deal game is a few hundred moves.
        a, _ = bot_create(owner=owner, name=f"swiss-{k}-a", kind="hosted", strategy="random")
        b, _ = bot_create(owner=owner, name=f"swiss-{k}-b", kind="hosted", strategy="random")
        services.entrant_register(tournament_id=t.pk, player=a.player, partner=b.player, by=owner)
    # Two single-process workers: two tables progress at once on a machine with two cores.
    worker = worker_factory().start()
    (tmp_path / "second").mkdir()
    second = Worker(tmp_path / "second", name="tournaments-second").start()
    began = time.monotonic()
    services.tournament_start(tournament_id=t.pk, by=t.organiser)
    try:
        _wait_and_check(t, worker, began, capsys)
    finally:
        second.stop()


def _wait_and_check(t: Tournament, worker: Worker, began: float, capsys) -> None:  # type: ignore[no-untyped-def]

    def finished() -> bool:
        return Tournament.objects.get(pk=t.pk).status == Status.FINISHED

    try:
        wait_for(finished, 2300, "the tournament to finish", 0.5)
    except AssertionError:
        stuck = Tournament.objects.get(pk=t.pk)
        raise AssertionError(
            f"stuck in round {stuck.current_round}: "
            f"{list(Game.objects.filter(tournament_table__round__tournament=t).values_list('status', 'move_count'))}"
            f"\n{worker.log()}"
        ) from None
    elapsed = time.monotonic() - began
    games = Game.objects.filter(tournament_table__round__tournament=t)
    assert games.count() == ROUNDS * PARTNERSHIPS // 2
    assert set(games.values_list("status", flat=True)) == {GameStatus.FINISHED}
    assert Round.objects.filter(tournament=t).count() == ROUNDS
    assert not Result.objects.filter(round__tournament=t, scored=False).exists()
    table = selectors.standings(tournament=t)
    assert len(table.lines) == PARTNERSHIPS
    assert sum(line.half_points for line in table.lines) == 2 * ROUNDS * PARTNERSHIPS // 2
    assert all(line.played == ROUNDS for line in table.lines)
    moves = sum(games.values_list("move_count", flat=True))
    with capsys.disabled():
        print(f"\nbot Swiss: {games.count()} games, {moves} moves in {elapsed:.1f} s")
