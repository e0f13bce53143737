"""Integrity and the window's end: nobody sees a board's seed or results before finishing
it; the end calls off unfinished tables (0%), closes the deal sets, finalises standings,
once."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from bots.house import house_bots_ensure
from daylong import selectors, services, tasks
from daylong.errors import EventNotOpen
from daylong.models import Entry, Event, TableStatus
from games.models import GameStatus
from games.selectors import seed_is_public
from tests.daylong.helpers import event, people, play_board, play_moves, round_robin

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def house() -> None:
    house_bots_ensure()


def test_no_seed_or_result_of_a_board_before_finishing_it(house, eager, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(services, "choose_instance", lambda instances: instances[0])
    ev = event(pool_size=1)
    done, waiting = people(2)
    for p in (done, waiting):
        services.entry_create(event_id=ev.pk, player=p)
    finished = play_board(ev, done)
    assert finished.status == TableStatus.FINISHED
    # The instance's deal set is open: the finished game shows no seed to anyone.
    assert not seed_is_public(game=finished.game)

    mine = selectors.breakdown(entry=Entry.objects.get(event=ev, player=done))
    theirs = selectors.breakdown(entry=Entry.objects.get(event=ev, player=waiting))
    assert mine[0]["score"] == finished.total and mine[0]["percent"] == Decimal("50.00")
    assert mine[0]["field_best"] == finished.total
    for line in theirs:
        assert set(line) == {"board", "deals", "status", "game"}
        assert line["status"] == "not_played" and line["game"] is None
    # Half-way through the board, still nothing.
    table = services.board_play_next(event_id=ev.pk, player=waiting)
    play_moves(table.game, 1)
    theirs = selectors.breakdown(entry=Entry.objects.get(event=ev, player=waiting))
    assert theirs[0]["status"] == "playing" and "score" not in theirs[0]
    # The standings never carry a score.
    for line in selectors.live_standings(event=ev):
        assert not hasattr(line, "total")


def test_the_window_end_closes_tables_and_finalises_once(house, eager, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(services, "choose_instance", round_robin())
    ev = event(pool_size=1)
    a, b, c = people(3)
    for p in (a, b, c):
        services.entry_create(event_id=ev.pk, player=p)
    ta = play_board(ev, a)
    tb = play_board(ev, b)
    open_table = services.board_play_next(event_id=ev.pk, player=c)
    play_moves(open_table.game, 1)
    assert services.event_close(event_id=ev.pk) == "not_due"

    Event.objects.filter(pk=ev.pk).update(
        starts_at=timezone.now() - timedelta(days=1, minutes=1),
        ends_at=timezone.now() - timedelta(minutes=1),
    )
    assert services.events_due_close() == [ev.pk]
    assert tasks.close_due.delay().get() == 1  # eager: the close ran too
    assert services.event_close(event_id=ev.pk) == "already_closed"
    assert services.events_due_close() == []

    open_table.refresh_from_db()
    open_table.game.refresh_from_db()
    assert open_table.status == TableStatus.UNFINISHED
    assert open_table.percent == Decimal(0)
    assert open_table.game.status == GameStatus.ABORTED
    for t in (ta, tb):
        t.game.refresh_from_db()
        assert seed_is_public(game=t.game)  # the set is closed and its games over
    assert not seed_is_public(game=open_table.game)  # called off: never shown
    with pytest.raises(EventNotOpen):
        services.board_play_next(event_id=ev.pk, player=a)

    ev.refresh_from_db()
    assert ev.closed_at is not None
    final = selectors.standings(event=ev)
    entries = {e.player_id: e for e in Entry.objects.filter(event=ev)}
    assert {ln.player_id for ln in final} == {a.pk, b.pk, c.pk}
    assert entries[c.pk].percent == Decimal(0)  # one board ended, unfinished: 0%
    assert sorted([entries[a.pk].percent, entries[b.pk].percent]) in (
        [Decimal("0.00"), Decimal("100.00")],
        [Decimal("50.00"), Decimal("50.00")],
    )
    assert [ln.rank for ln in final][0] == 1


def test_live_standings_count_only_the_boards_the_reader_has_ended(
    house, eager, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(services, "choose_instance", lambda instances: instances[0])
    ev = event(pool_size=1)
    ahead, behind, outsider = people(3)
    for p in (ahead, behind):
        services.entry_create(event_id=ev.pk, player=p)
    a1, b1, a2 = play_board(ev, ahead), play_board(ev, behind), play_board(ev, ahead)
    a1.refresh_from_db()

    seen = selectors.standings_for(event=ev, viewer=behind)
    assert (seen.final, seen.counted) == (False, [1])
    line = next(ln for ln in seen.lines if ln.player_id == ahead.pk)
    assert (line.percent, line.boards, line.ended) == (a1.percent, 1, 2)  # board 2 not counted
    for viewer in (outsider, None):
        blind = selectors.standings_for(event=ev, viewer=viewer)
        assert blind.counted == [] and {(ln.percent, ln.rank) for ln in blind.lines} == {
            (None, None)
        }
    full = selectors.standings_for(event=ev, viewer=ahead)
    assert full.counted == [1, 2]
    # No final standings before the window's end, whoever reads.
    assert selectors.standings(event=ev) == []
    assert b1.status == a2.status == TableStatus.FINISHED
