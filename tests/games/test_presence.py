"""Who is at a table now (games.live.presence): marked by the table page's pings and by
open streams, in Redis or (without it) in Django's cache, and told to the game's own
readers only as times, never a card."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.conf import settings
from django.urls import reverse

from games.live import presence
from tests.bots.worker import redis_available
from tests.factories import PlayerFactory
from tests.games.conftest import Table, clear_presence, client_for

pytestmark = pytest.mark.django_db


@pytest.fixture(params=["redis", "cache"])
def store(request: Any, settings: Any) -> str:
    """Each test twice: with Redis (as deployed) and with Django's cache (the embedded
    default, no Redis)."""
    if request.param == "redis":
        if not redis_available(settings.LIVE_REDIS_URL or ""):
            pytest.skip("no Redis at LIVE_REDIS_URL")
    else:
        settings.LIVE_REDIS_URL = ""
    clear_presence()
    return str(request.param)


def test_a_seat_never_seen_is_away_for_ever(store: str) -> None:
    assert presence.presence(987654, 2).away_for() == float("inf")


def test_a_shown_page_is_present_and_away_once_hidden_or_silent(store: str) -> None:
    game_id = 10_000 + int(time.time() * 1000) % 100_000
    now = time.time()
    presence.mark(game_id, 1, shown=True, now=now)
    assert presence.presence(game_id, 1).away_for(now + 5) is None
    # Silent (closed without a word) for longer than FRESH_S: away since it was last seen.
    later = now + presence.FRESH_S + 10
    assert presence.presence(game_id, 1).away_for(later) == pytest.approx(later - now)
    presence.mark(game_id, 1, shown=False, now=now + 20)
    assert presence.presence(game_id, 1).away_for(now + 50) == pytest.approx(30)
    # A stream open while the page is hidden keeps the seat seen, but the page still hidden.
    presence.mark(game_id, 1, shown=None, now=now + 60)
    assert presence.presence(game_id, 1).away_for(now + 70) == pytest.approx(50)
    presence.mark(game_id, 1, shown=True, now=now + 80)
    assert presence.presence(game_id, 1).away_for(now + 85) is None
    assert presence.presence(game_id, 3).away_for(now) == float("inf")  # seats apart


def test_a_tables_four_seats_are_read_together_as_each_alone(store: str) -> None:
    game_id = 20_000 + int(time.time() * 1000) % 100_000
    now = time.time()
    presence.mark(game_id, 2, shown=True, now=now)
    presence.mark(game_id, 0, shown=False, now=now)
    together = presence.table_presence(game_id)
    assert together == [presence.presence(game_id, seat) for seat in range(4)]
    assert [p.present for p in together] == [False, False, True, False]


def test_the_table_page_marks_its_seat_and_no_other(store: str, table: Table) -> None:
    game = table.game
    r = table.clients[2].post(table.url("presence/"), {"shown": True}, format="json")
    assert r.status_code == 200, r.content
    # The answer says who is at the table now: the page keeps its marks fresh with it.
    assert r.json() == {"presence": [{"position": p, "present": p == 2} for p in range(4)]}
    assert presence.presence(game.pk, 2).present
    assert not presence.presence(game.pk, 1).present
    r = table.clients[2].post(table.url("presence/"), {"shown": True, "seat": 1}, format="json")
    assert r.status_code == 403 and r.json()["code"] == "not_your_seat"
    outsider = client_for(PlayerFactory().user)
    r = outsider.post(table.url("presence/"), {"shown": True}, format="json")
    assert r.status_code == 403 and r.json()["code"] == "not_your_seat"
    r = table.clients[2].post(table.url("presence/"), {"shown": False}, format="json")
    assert r.status_code == 200
    assert presence.presence(game.pk, 2).hidden_at is not None


def test_an_open_stream_marks_its_seat_present(store: str, table: Table) -> None:
    game = table.game
    assert not presence.presence(game.pk, 3).present
    r = table.clients[3].get(table.url("events/stream/?timeout=0"), HTTP_ACCEPT="text/event-stream")

    async def drain() -> None:
        async for _ in r.streaming_content:
            pass

    async_to_sync(drain)()
    assert presence.presence(game.pk, 3).present
    # A spectator's stream marks nobody.
    spectator = client_for(PlayerFactory().user)
    r = spectator.get(table.url("events/stream/?timeout=0"), HTTP_ACCEPT="text/event-stream")
    async_to_sync(drain)()
    assert not any(presence.presence(game.pk, s).present for s in (0, 1, 2))


def test_a_mark_holds_times_only(store: str, table: Table) -> None:
    presence.mark(table.game.pk, 0, shown=False)
    name = presence.key(table.game.pk, 0)
    if settings.LIVE_REDIS_URL:
        import redis

        fields = redis.Redis.from_url(settings.LIVE_REDIS_URL).hgetall(name)
        assert set(fields) == {b"seen", b"hidden"}
    else:
        from django.core.cache import cache

        assert set(cache.get(name)) == {"seen", "hidden"}


def test_the_game_payload_shows_who_is_at_the_table_to_its_players_only(
    store: str, table: Table
) -> None:
    r = table.clients[1].post(table.url("presence/"), {"shown": True}, format="json")
    assert r.status_code == 200
    body = table.clients[3].get(table.url()).json()
    assert [s["present"] for s in body["presence"]] == [False, True, False, False]
    assert set(body["presence"][1]) == {"position", "present"}  # only that: no times, no card
    outsider = client_for(PlayerFactory().user)
    assert outsider.get(table.url()).json()["presence"] is None


def test_the_table_page_marks_who_is_here_for_its_players_only(store: str, table: Table) -> None:
    from django.test import Client

    presence.mark(table.game.pk, 1, shown=True)
    seat3 = Client()
    seat3.force_login(table.players[3].user)
    board = seat3.get(f"/games/{table.game_id}/board/").content.decode()
    marks = re.findall(
        r'data-position="(\d)"[^>]*>\s*<div class="seat-name"><span class="presence( here)?"', board
    )
    # Seat 1 is here (its ping), seat 3 is the viewer; 0 and 2 are away.
    assert sorted(marks) == [("0", ""), ("1", " here"), ("2", ""), ("3", " here")]
    spectator = Client()
    spectator.force_login(PlayerFactory().user)
    assert 'class="presence' not in spectator.get(f"/games/{table.game_id}/board/").content.decode()


def test_my_games_lists_first_the_tables_where_others_are_now(store: str) -> None:
    from django.test import Client

    from games.services import game_create

    me, *others = [PlayerFactory() for _ in range(7)]
    quiet = game_create(creator=me, seats=[me, others[0], others[1], others[2]])
    lively = game_create(creator=me, seats=[me, others[3], others[4], others[5]])
    presence.mark(quiet.pk, 0, shown=True)  # only I am at the quiet table
    presence.mark(lively.pk, 2, shown=True)
    presence.mark(lively.pk, 3, shown=True)
    browser = Client()
    browser.force_login(me.user)
    page = browser.get(reverse("my-games")).content.decode()
    assert page.index(lively.public_id) < page.index(quiet.public_id)
    assert "2 others at the table now" in page
    assert page.count('class="here-now"') == 1  # not for the table where only I am
