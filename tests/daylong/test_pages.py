"""The daylong pages (server-rendered): the list and today's daylong on the home page, an
event's Enter and Play buttons, the breakdown, the standings as the reader may see them,
and, once closed, every table's record and seed; the link from a table to its event."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import Player
from bots.house import house_bots_ensure
from daylong import services
from daylong.models import BoardInstance, Event, Table, TableStatus
from tests.daylong.helpers import event, play_moves, play_out
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def house() -> None:
    house_bots_ensure()


def client_of(player: Player) -> Client:
    c = Client()
    c.force_login(player.user)
    return c


def text(c: Client, url: str) -> str:
    r = c.get(url)
    assert r.status_code == 200, (url, r.status_code)
    return r.content.decode()


def play_through_the_page(c: Client, ev: Event) -> Table:
    r = c.post(f"/daylong/{ev.pk}/play/")
    assert r.status_code == 302 and r["Location"].startswith("/games/")
    public_id = r["Location"].split("/")[2]
    return Table.objects.select_related("game", "board").get(game__public_id=public_id)


def test_the_list_and_the_home_page_show_todays_daylong(house) -> None:  # type: ignore[no-untyped-def]
    daily = services.daily_event_ensure(day=timezone.now().date())
    other = event(title="Wednesday short stages")
    c = Client()
    listing = text(c, "/daylong/")
    assert f"/daylong/{daily.pk}/" in listing and "Wednesday short stages" in listing
    home = text(c, "/")
    assert 'id="daily-daylong"' in home and f"/daylong/{daily.pk}/" in home
    assert f"/daylong/{other.pk}/" not in home  # only the daily one
    assert 'href="/daylong/"' in home  # in the site's menu


def test_enter_play_leave_come_back_finish_and_see_the_breakdown(house, eager) -> None:  # type: ignore[no-untyped-def]
    ev = event(title="Short stages")
    assert "Log in to play" in text(Client(), f"/daylong/{ev.pk}/")
    me = PlayerFactory()
    c = client_of(me)
    page = text(c, f"/daylong/{ev.pk}/")
    assert 'id="enter"' in page and 'id="play"' not in page
    assert c.post(f"/daylong/{ev.pk}/enter/").status_code == 302
    page = text(c, f"/daylong/{ev.pk}/")
    assert 'id="enter"' not in page and "Play stage 1" in page and 'id="my-breakdown"' in page

    table = play_through_the_page(c, ev)
    assert table.board.number == 1
    # The table's page names its event and stage.
    game_page = text(c, f"/games/{table.game.public_id}/")
    assert f"/daylong/{ev.pk}/" in game_page and "stage 1 of 2" in game_page
    play_moves(table.game, 1)
    assert "Back to stage 1" in text(c, f"/daylong/{ev.pk}/")
    assert play_through_the_page(c, ev).pk == table.pk  # the same table, where it was
    play_out(table.game)
    table.refresh_from_db()
    assert table.status == TableStatus.FINISHED

    page = text(c, f"/daylong/{ev.pk}/")
    assert "Play stage 2" in page
    breakdown = page[page.index('id="my-breakdown"') : page.index('id="standings-title"')]
    assert f">{table.total}<" in breakdown and f"{table.percent}%" in breakdown
    assert "shown once you finish the stage" in breakdown  # stage 2: nothing yet
    assert "Counted over the stages you have finished (1)" in page

    second = play_through_the_page(c, ev)
    play_out(second.game)
    page = text(c, f"/daylong/{ev.pk}/")
    assert 'id="all-played"' in page and "(1, 2)" in page


def test_a_reader_who_has_finished_nothing_sees_no_percentage_and_no_seed(house, eager) -> None:  # type: ignore[no-untyped-def]
    ev = event(pool_size=1)
    done, fresh = PlayerFactory(), PlayerFactory()
    for p in (done, fresh):
        client_of(p).post(f"/daylong/{ev.pk}/enter/")
    c = client_of(done)
    table = play_through_the_page(c, ev)
    play_out(table.game)
    table.refresh_from_db()
    seed = BoardInstance.objects.get(board=table.board).deal_set.seed

    for reader in (client_of(fresh), Client(), client_of(PlayerFactory())):
        page = text(reader, f"/daylong/{ev.pk}/")
        standings = page[page.index('id="standings"') :]
        assert "%" not in standings.split("</table>")[0]
        assert "Finish a stage to see how everyone did on it" in page
        assert table.game.public_id not in page and seed not in page
        tables = text(reader, f"/daylong/{ev.pk}/tables/")
        assert 'id="still-open"' in tables and seed not in tables
    mine = text(c, f"/daylong/{ev.pk}/")
    assert f"{table.percent}%" in mine and seed not in mine


def test_after_the_close_every_table_with_its_record_link_and_seed(house, eager) -> None:  # type: ignore[no-untyped-def]
    ev = event(pool_size=1)
    done, halfway = PlayerFactory(), PlayerFactory()
    for p in (done, halfway):
        client_of(p).post(f"/daylong/{ev.pk}/enter/")
    finished = play_through_the_page(client_of(done), ev)
    play_out(finished.game)
    called_off = play_through_the_page(client_of(halfway), ev)
    Event.objects.filter(pk=ev.pk).update(
        starts_at=timezone.now() - timedelta(days=1, minutes=1),
        ends_at=timezone.now() - timedelta(minutes=1),
    )
    assert services.event_close(event_id=ev.pk) == "closed"

    page = text(Client(), f"/daylong/{ev.pk}/")
    assert "Standings (final)" in page and f"/daylong/{ev.pk}/tables/" in page
    assert 'id="enter"' not in page and 'id="play"' not in page
    tables = text(Client(), f"/daylong/{ev.pk}/tables/")
    seed = finished.instance.deal_set.seed
    assert f"/games/{finished.game.public_id}/record/" in tables and seed in tables
    assert f"/games/{called_off.game.public_id}/record/" in tables
    assert tables.count(seed) == 1  # the called-off table of the same version shows none
    assert re.search(r"not finished in time", tables)
    assert Client().get("/daylong/999999/").status_code == 404


def test_the_standings_come_a_page_at_a_time_with_the_readers_own_line(house) -> None:  # type: ignore[no-untyped-def]
    from daylong.views import STANDINGS_PAGE

    ev = event(title="A crowded day")
    field = [PlayerFactory() for _ in range(STANDINGS_PAGE + 29)]
    me = PlayerFactory()
    for p in [*field, me]:  # the reader entered last: last of the unranked, on page 2
        services.entry_create(event_id=ev.pk, player=p)
    c = client_of(me)
    first = text(c, f"/daylong/{ev.pk}/")
    rows = re.findall(r"<tr[ >]", first.split('id="standings"')[1].split("</table>")[0])
    assert len(rows) == 1 + STANDINGS_PAGE + 1  # the head, a page, the reader's own line
    assert 'id="my-line"' in first and me.name in first and field[-1].name not in first
    assert 'rel="next"' in first
    second = text(c, f"/daylong/{ev.pk}/?page=2")
    rows = re.findall(r"<tr[ >]", second.split('id="standings"')[1].split("</table>")[0])
    assert len(rows) == 1 + 30 and 'id="my-line"' not in second
    assert field[-1].name in second and second.count('class="me"') == 1
