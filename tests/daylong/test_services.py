"""A daylong played through the services, the bots' turns and the scoring run eagerly on
commit (through the outbox, as the worker would): pool instances, matchpoints against the
field of one instance, standings."""

from __future__ import annotations

from collections import defaultdict
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from accounts.models import Player
from bots.house import house_bots_ensure
from daylong import selectors, services
from daylong.errors import (
    AllBoardsPlayed,
    AlreadyEntered,
    BadEvent,
    CannotEnter,
    EventNotOpen,
    NotEntered,
)
from daylong.models import BoardInstance, Entry, Table, TableStatus
from games.models import GameStatus
from tests.daylong.helpers import event, hosted_bot, people, play_board, round_robin
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def house() -> None:
    house_bots_ensure()


def _hand_matchpoints(totals: dict[int, int]) -> dict[int, tuple[int, int]]:
    """Matchpoints and top of each table, counted the long way: every pair once."""
    out = {}
    for me, mine in totals.items():
        mp = 0
        for other, theirs in totals.items():
            if other == me:
                continue
            mp += 2 if mine > theirs else 1 if mine == theirs else 0
        out[me] = (mp, 2 * (len(totals) - 1))
    return out


def test_a_field_of_people_and_hosted_bots_is_scored_within_each_instance(
    house, eager, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(services, "choose_instance", round_robin())
    ev = event()
    entrants = [*people(4), hosted_bot(), hosted_bot()]
    for p in entrants:
        services.entry_create(event_id=ev.pk, player=p)
    for _board in range(2):
        for p in entrants:
            table = play_board(ev, p)
            assert table.status == TableStatus.FINISHED, table.game.status
    with pytest.raises(AllBoardsPlayed):
        services.board_play_next(event_id=ev.pk, player=entrants[0])

    tables = list(Table.objects.filter(entry__event=ev).select_related("game", "instance"))
    assert len(tables) == 12
    by_instance: dict[int, list[Table]] = defaultdict(list)
    for t in tables:
        # Dealt from the instance's deal set, the entrant in seat 0, three house bots.
        assert t.game.deal_set_id == t.instance.deal_set_id
        assert t.game.seed == t.instance.deal_set.seed
        assert t.instance.board_id == t.board_id
        seats = {s.position: s.player for s in t.game.seats.select_related("player")}
        assert seats[0] == t.entry.player
        assert all(seats[i].is_house for i in (1, 2, 3))
        assert t.game.status == GameStatus.FINISHED and not t.game.rated
        assert t.game.schedule.first == t.board.first_deal
        by_instance[t.instance_id].append(t)
    # Both instances of both boards were held (dealt in turn), three tables each.
    assert sorted(len(v) for v in by_instance.values()) == [3, 3, 3, 3]

    percents: dict[int, list[Decimal]] = defaultdict(list)
    for field in by_instance.values():
        hand = _hand_matchpoints({t.pk: t.game.total_0 for t in field})
        for t in field:
            mp, top = hand[t.pk]
            assert t.total == t.game.total_0
            assert (t.matchpoints, t.top) == (Decimal(mp), Decimal(top))
            assert t.percent == (Decimal(100) * mp / top).quantize(Decimal("0.01"))
            percents[t.entry.player_id].append(t.percent)
        # Matchpoints of a field add up to one pair of tables' 2 each.
        assert sum(t.matchpoints for t in field) == Decimal(2 * 3)

    lines = selectors.live_standings(event=ev)
    assert len(lines) == 6
    for line in lines:
        expected = (sum(percents[line.player_id]) / 2).quantize(Decimal("0.01"))
        assert (line.boards, line.percent) == (2, expected)
    assert [ln.percent for ln in lines] == sorted((ln.percent for ln in lines), reverse=True)
    assert lines[0].rank == 1


def test_the_same_account_never_holds_one_instance_twice_while_another_is_left(
    house, eager
) -> None:  # type: ignore[no-untyped-def]
    ev = event(boards=((13, 13),))
    owner = UserFactory()
    bots = [hosted_bot(owner), hosted_bot(owner)]
    for b in bots:
        services.entry_create(event_id=ev.pk, player=b)
        services.board_play_next(event_id=ev.pk, player=b)
    held = list(Table.objects.filter(entry__event=ev).values_list("instance_id", flat=True))
    assert len(set(held)) == 2


def test_leaving_and_coming_back_gives_the_same_table(house) -> None:  # type: ignore[no-untyped-def]
    ev = event()
    (me,) = people(1)
    services.entry_create(event_id=ev.pk, player=me)
    first = services.board_play_next(event_id=ev.pk, player=me)
    again = services.board_play_next(event_id=ev.pk, player=me)
    assert again.pk == first.pk and again.board.number == 1
    entry = Entry.objects.get(event=ev, player=me)
    assert selectors.next_board(entry=entry) == 1


def test_entry_rules(house) -> None:  # type: ignore[no-untyped-def]
    ev = event()
    me, other = people(2)
    with pytest.raises(NotEntered):
        services.board_play_next(event_id=ev.pk, player=me)
    services.entry_create(event_id=ev.pk, player=me)
    with pytest.raises(AlreadyEntered):
        services.entry_create(event_id=ev.pk, player=me)
    with pytest.raises(CannotEnter):
        services.entry_create(event_id=ev.pk, player=Player.objects.filter(is_house=True)[0])
    later = event(starts_at=timezone.now() + timedelta(hours=1))
    with pytest.raises(EventNotOpen):
        services.entry_create(event_id=later.pk, player=other)


def test_an_event_is_checked_when_made() -> None:
    with pytest.raises(BadEvent):
        event(boards=((5, 3),))
    with pytest.raises(BadEvent):
        event(boards=((1, 5),), rated=True)  # a short game is never rated
    with pytest.raises(BadEvent):
        event(pool_size=0)
    with pytest.raises(BadEvent):
        event(partner_strength="godlike")
    ev = event(boards=((1, 25),), rated=True, pool_size=3)
    assert BoardInstance.objects.filter(board__event=ev).count() == 3
    assert all(
        i.deal_set.closed_at is None and i.deal_set.kind == "daylong"
        for i in BoardInstance.objects.filter(board__event=ev).select_related("deal_set")
    )


def test_the_daily_event_is_made_once_a_day() -> None:
    day = timezone.now().date()
    first = services.daily_event_ensure(day=day)
    assert services.daily_event_ensure(day=day).pk == first.pk
    assert first.boards.count() == 5
    assert selectors.current_daily() == first
