"""A player's finished games as NDJSON records (GET /api/v1/players/{name}/games/export/):
every line a whole record the engine's validator accepts, only records that are public
(finished, and every table of their cards over), filters, a cursor that pages through every
game once, gzip, and bad input refused in the error shape."""

from __future__ import annotations

import asyncio
import gzip
import json
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from django.test import Client
from django.utils import timezone

from backalley_engine import validate_record
from games import services
from games.models import Game, GameStatus
from tests.asgi_calls import asgi_get_to_the_end
from tests.factories import BotPlayerFactory, PlayerFactory
from tests.games.helpers import play

pytestmark = pytest.mark.django_db

ONE_DEAL = {"rated": False, "schedule": {"first": 13, "last": 13}}  # the one-card deal


@pytest.fixture(autouse=True)
def _no_settle(settings: Any) -> None:
    settings.GAMES_EXPORT_SETTLE_S = 0


def _game(seats: list[Any], **kwargs: Any) -> Game:
    return services.game_create(creator=seats[0], seats=seats, options=dict(ONE_DEAL), **kwargs)


def _finished(seats: list[Any], **kwargs: Any) -> Game:
    game = play(_game(seats, **kwargs), 200)
    assert game.status == GameStatus.FINISHED
    return game


def _url(name: str) -> str:
    return f"/api/v1/players/{name}/games/export/"


def _export(client: Client, name: str, **params: Any) -> tuple[Any, list[dict[str, Any]]]:
    r = client.get(_url(name), params)
    assert r.status_code == 200, r.content
    assert r["Content-Type"] == "application/x-ndjson"
    body = b"".join(r.streaming_content)
    return r, [json.loads(line) for line in body.decode().splitlines()]


def _ids(records: list[dict[str, Any]]) -> list[str]:
    return [rec["game"] for rec in records]


def test_every_line_is_a_whole_record_the_validator_accepts(client: Client) -> None:
    me, *others = [PlayerFactory() for _ in range(6)]
    mine = [_finished([me, *others[:3]]), _finished([others[0], me, others[3], others[4]])]
    _finished(others[:4])  # not mine
    r, records = _export(client, me.name.upper())  # any case
    assert sorted(_ids(records)) == sorted(g.public_id for g in mine)
    for record in records:
        assert validate_record(record) == []
        assert record["version"] == 2 and record["seed"] is not None
        assert all(hand is not None for deal in record["deals"] for hand in deal["hands"])
        assert me.name in record["players"]
    assert "Link" not in r and r["X-Next-Cursor"]


def test_a_running_game_or_one_whose_cards_other_tables_play_is_not_exported(
    client: Client,
) -> None:
    me, *others = [PlayerFactory() for _ in range(8)]
    running = play(_game([me, *others[:3]]), 3)
    assert running.status == GameStatus.ACTIVE
    shared = services.deal_set_create(kind="duplicate", closed=False)
    mine = _finished([me, *others[:3]], deal_set=shared)
    theirs = _game(others[3:7], deal_set=shared)
    _, records = _export(client, me.name)
    assert records == []
    text = b"".join(client.get(_url(me.name)).streaming_content).decode()
    assert mine.seed not in text and mine.public_id not in text
    play(theirs, 200)
    assert _export(client, me.name)[1] == []  # every table over, but the set is still open
    services.deal_set_close(deal_set_id=shared.pk)
    assert _ids(_export(client, me.name)[1]) == [mine.public_id]


def test_a_record_made_public_later_comes_after_the_cursor_handed_out_before(
    client: Client,
) -> None:
    me, *others = [PlayerFactory() for _ in range(7)]
    shared = services.deal_set_create(kind="duplicate", closed=False)
    late = _finished([me, *others[:3]], deal_set=shared)  # finished first, public last
    early = _finished([me, *others[:3]])
    r, records = _export(client, me.name)
    assert _ids(records) == [early.public_id]
    cursor = r["X-Next-Cursor"]
    services.deal_set_close(deal_set_id=shared.pk)
    r, records = _export(client, me.name, cursor=cursor)
    assert _ids(records) == [late.public_id]
    r, records = _export(client, me.name, cursor=r["X-Next-Cursor"])
    assert records == []


def test_a_record_public_for_less_than_the_settling_time_waits(
    client: Client, settings: Any
) -> None:
    me, *others = [PlayerFactory() for _ in range(4)]
    game = _finished([me, *others])
    settings.GAMES_EXPORT_SETTLE_S = 60
    assert _export(client, me.name)[1] == []
    Game.objects.filter(pk=game.pk).update(finished_at=timezone.now() - timedelta(seconds=61))
    assert _ids(_export(client, me.name)[1]) == [game.public_id]


def test_the_cursor_pages_through_every_game_exactly_once(client: Client) -> None:
    me, *others = [PlayerFactory() for _ in range(4)]
    games = [_finished([me, *others]) for _ in range(7)]
    # Two records made public at the same instant: the id breaks the tie.
    same = timezone.now() - timedelta(hours=1)
    Game.objects.filter(pk__in=[games[2].pk, games[5].pk]).update(finished_at=same)
    seen: list[str] = []
    params: dict[str, Any] = {"limit": 3}
    pages = 0
    while True:
        r, records = _export(client, me.name, **params)
        pages += 1
        seen += _ids(records)
        if "Link" not in r:
            break
        link = r["Link"]
        assert link.endswith('>; rel="next"')
        query = parse_qs(urlparse(link[1 : link.index(">")]).query)
        assert query["limit"] == ["3"] and query["cursor"] == [r["X-Next-Cursor"]]
        params = {"limit": 3, "cursor": r["X-Next-Cursor"]}
    assert pages == 3
    assert sorted(seen) == sorted(g.public_id for g in games) and len(seen) == len(set(seen))
    # In the order they became public.
    order = list(
        Game.objects.filter(pk__in=[g.pk for g in games])
        .order_by("finished_at", "pk")
        .values_list("public_id", flat=True)
    )
    assert seen == order


def test_filters_by_time_rating_and_bots(client: Client) -> None:
    me, *people = [PlayerFactory() for _ in range(3)]
    bot = BotPlayerFactory()
    with_bot = _finished([me, people[0], people[1], bot])
    rated = _finished([me, *people, PlayerFactory()][:4])
    old = _finished([me, people[0], people[1], PlayerFactory()])
    Game.objects.filter(pk=rated.pk).update(rated=True)
    Game.objects.filter(pk=old.pk).update(finished_at=datetime(2026, 1, 5, 12, tzinfo=UTC))

    def ids(**params: Any) -> set[str]:
        return set(_ids(_export(client, me.name, **params)[1]))

    everything = {with_bot.public_id, rated.public_id, old.public_id}
    assert ids() == everything
    assert ids(rated="true") == {rated.public_id}
    assert ids(rated="false") == everything - {rated.public_id}
    assert ids(with_bots="true") == {with_bot.public_id}
    assert ids(with_bots="False") == everything - {with_bot.public_id}
    assert ids(since="2026-02-01T00:00:00Z") == everything - {old.public_id}
    assert ids(until="2026-02-01") == {old.public_id}
    assert ids(since="2026-01-05T12:00:00+00:00", until="2026-01-05T12:00:01") == {old.public_id}
    assert ids(since="2026-01-05T13:00:00+01:00", until="2026-01-05T14:30:00+02:00") == {
        old.public_id
    }


def test_gzip_when_the_client_accepts_it(client: Client) -> None:
    me, *others = [PlayerFactory() for _ in range(4)]
    for _ in range(2):
        _finished([me, *others])
    plain = b"".join(client.get(_url(me.name)).streaming_content)
    r = client.get(_url(me.name), HTTP_ACCEPT_ENCODING="br, gzip;q=0.8")
    assert r["Content-Encoding"] == "gzip" and "Accept-Encoding" in r["Vary"]
    assert gzip.decompress(b"".join(r.streaming_content)) == plain
    refused = client.get(_url(me.name), HTTP_ACCEPT_ENCODING="gzip;q=0, br")
    assert not refused.has_header("Content-Encoding")
    assert b"".join(refused.streaming_content) == plain


@pytest.mark.parametrize(
    ("query", "code", "name"),
    [
        ({"since": "yesterday"}, "invalid_filter", "since"),
        ({"until": "2026-02-30T00:00:00Z"}, "invalid_filter", "until"),
        ({"rated": "maybe"}, "invalid_filter", "rated"),
        ({"with_bots": "1"}, "invalid_filter", "with_bots"),
        ({"since": "2026-03-01", "until": "2026-02-01"}, "invalid_filter", "until"),
        ({"cursor": "not-a-cursor"}, "invalid_cursor", None),
        ({"cursor": "OTk5OTk5OTk5OTk5OTk5OTk5OS4x"}, "invalid_cursor", None),
        ({"limit": "0"}, "bad_parameter", None),
        ({"limit": "ten"}, "bad_parameter", None),
    ],
)
def test_a_bad_filter_is_a_typed_400(
    client: Client, query: dict[str, str], code: str, name: str | None
) -> None:
    me = PlayerFactory()
    r = client.get(_url(me.name), query)
    assert r.status_code == 400 and r["Content-Type"] == "application/json"
    body = r.json()
    assert body["code"] == code and body["message"]
    if name:
        assert body["extra"]["name"] == name


def test_an_unknown_player_is_a_typed_404(client: Client) -> None:
    r = client.get(_url("nobody-here"), HTTP_ACCEPT="application/x-ndjson")
    assert r.status_code == 404
    assert r.json()["code"] == "player_not_found"
    assert r.json()["extra"] == {"name": "nobody-here"}


@pytest.mark.django_db(transaction=True)
def test_under_asgi_the_body_is_streamed_from_an_async_iterator(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from django.db import connection

    from backalley_site.asgi import application
    from games.api import exports as export_view

    # The request's thread closes its connection when the request ends (the dict is shared
    # by every thread's connection), so the test database can be dropped afterwards.
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 0)

    me, *others = [PlayerFactory() for _ in range(4)]
    games = [_finished([me, *others]) for _ in range(3)]
    chunks: list[int] = []
    original = export_view._async_chunks

    async def counted(ids: list[int], compress: bool) -> Any:
        async for chunk in original(ids, compress):
            chunks.append(len(chunk))
            yield chunk

    export_view._async_chunks = counted  # type: ignore[assignment]
    try:
        status, headers, body = asyncio.run(
            asgi_get_to_the_end(
                application, _url(me.name), b"limit=2", headers=[(b"accept-encoding", b"gzip")]
            )
        )
    finally:
        export_view._async_chunks = original  # type: ignore[assignment]
    assert status == 200 and headers[b"content-encoding"] == b"gzip"
    assert headers[b"content-type"] == b"application/x-ndjson"
    assert b'rel="next"' in headers[b"link"]
    lines = gzip.decompress(body).decode().splitlines()
    assert len(lines) == 2 and chunks  # the iterator above wrote the body
    assert {json.loads(line)["game"] for line in lines} <= {g.public_id for g in games}


def test_export_pages_are_limited_per_client_address(client: Client, settings: Any) -> None:
    from django.core.cache import cache

    cache.clear()
    settings.GAMES_EXPORT_RATE = "2/minute"
    me = PlayerFactory()
    for _ in range(2):
        assert client.get(_url(me.name)).status_code == 200
    r = client.get(_url(me.name))
    assert r.status_code == 429 and r.json()["code"] == "throttled"
    assert int(r["Retry-After"]) > 0
    other = Client(REMOTE_ADDR="10.1.2.3")
    assert other.get(_url(me.name)).status_code == 200
