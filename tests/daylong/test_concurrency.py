"""Tables of one instance finish at the same instant: each is counted once and the
instance's scores are those of the whole field. Real concurrent transactions on
PostgreSQL (threads with their own connections)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from django.utils import timezone

from bots.house import house_bots_ensure
from daylong import selectors, services
from daylong.models import Table, TableStatus
from games.models import Game, GameStatus
from tests.conftest import require_service
from tests.daylong.helpers import event, people

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("attempt", range(3))
def test_racing_finishes_are_scored_exactly_once(attempt: int) -> None:
    require_service(connection.vendor == "postgresql", "needs PostgreSQL (DATABASE_URL)")
    house_bots_ensure()
    ev = event(boards=((13, 13),), pool_size=1)
    players = people(4)
    for p in players:
        services.entry_create(event_id=ev.pk, player=p)
    tables = [services.board_play_next(event_id=ev.pk, player=p) for p in players]
    for t, total in zip(tables, (30, 10, 10, -20), strict=True):
        # As if each game's last move had just landed.
        Game.objects.filter(pk=t.game_id).update(
            status=GameStatus.FINISHED,
            total_0=total,
            total_1=0,
            winner=0,
            finished_at=timezone.now(),
            to_act=None,
        )
    barrier = threading.Barrier(2 * len(tables))
    outcomes: list[str] = []
    errors: list[BaseException] = []

    def run(game_id: int) -> None:
        try:
            barrier.wait(timeout=10)
            outcomes.append(services.table_finished(game_id=game_id))
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            connections.close_all()

    # Every finish delivered twice (the outbox delivers at least once).
    threads = [threading.Thread(target=run, args=(t.game_id,)) for t in tables for _ in (0, 1)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=60)
    assert not errors, errors
    assert sorted(outcomes) == ["already_scored"] * 4 + ["scored"] * 4
    scored = {t.entry.player_id: t for t in Table.objects.select_related("entry")}
    assert all(t.status == TableStatus.FINISHED for t in scored.values())
    got = [str(scored[p.pk].matchpoints) for p in players]
    assert got == ["6.00", "3.00", "3.00", "0.00"]
    assert [str(scored[p.pk].percent) for p in players] == ["100.00", "50.00", "50.00", "0.00"]
    lines = selectors.live_standings(event=ev)
    assert [ln.rank for ln in lines] == [1, 2, 2, 4]
    assert all(ln.boards == 1 for ln in lines)
