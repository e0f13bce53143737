"""The arena through a real Celery worker: four hosted bots, the tick run as a task, and
several duplicate pairs played to the end, rated on the ladder and scored."""

from __future__ import annotations

import time

import pytest

from bots.arena import tasks
from bots.arena.models import ArenaEntry, ArenaPair
from games.models import Game
from ladder.models import PlayerRating, RatedGame
from tests.bots.arena.helpers import entered_bot
from tests.bots.worker import wait_for

PAIRS = 2
# About 3,300 bot moves in all; a worker on an idle core plays them in about a minute.
PAIR_TIMEOUT_S = 420

pytestmark = [
    pytest.mark.worker,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(2 * PAIR_TIMEOUT_S + 120),
]


def test_the_arena_plays_four_hosted_bots_to_finished_rated_duplicate_pairs(worker_factory) -> None:  # type: ignore[no-untyped-def]
    worker = worker_factory().start()
    # Random play: the fastest hosted bots, so the test spends its time on the pipeline.
    bots = [entered_bot(f"Arena-{i}") for i in range(4)]
    start = time.monotonic()
    for n in range(1, PAIRS + 1):
        tasks.arena_tick.delay()  # the beat's task, run by the worker
        wait_for(lambda n=n: ArenaPair.objects.count() == n, 60, f"pair {n} to start", 0.2)
        try:
            wait_for(
                lambda: not ArenaPair.objects.filter(status="playing").exists(),
                PAIR_TIMEOUT_S,
                f"pair {n} to be played and scored",
                0.5,
            )
        except AssertionError:
            raise AssertionError(worker.log()) from None
    pairs = list(ArenaPair.objects.all())
    games = [g for p in pairs for g in (p.game_a, p.game_b)]
    assert all(g.status == "finished" and g.rated for g in games)
    wait_for(
        lambda: RatedGame.objects.filter(game__in=games).count() == 2 * PAIRS,
        60,
        "the ladder to rate every arena game",
        0.2,
    )
    for pair in pairs:
        a, b = Game.objects.get(pk=pair.game_a_id), Game.objects.get(pk=pair.game_b_id)
        assert a.seed == b.seed
        expected = ((a.total_0 - b.total_0) + (b.total_1 - a.total_1)) / 2
        assert pair.score_a == expected
    for entry in ArenaEntry.objects.filter(bot__in=bots):
        assert (entry.games, entry.pairs, entry.in_flight) == (2 * PAIRS, PAIRS, 0)
        assert entry.turns > 2 * PAIRS * 100 and entry.faults == 0
    ratings = PlayerRating.objects.filter(player__in=[b.player for b in bots])
    assert sorted(r.games for r in ratings) == [2 * PAIRS] * 4
    print(f"arena worker test: {PAIRS} pairs in {time.monotonic() - start:.0f} s")
