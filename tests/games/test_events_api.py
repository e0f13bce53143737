"""The event feed: long-poll and stream, each event with its seq, private events only to
their seat."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.db import connections
from rest_framework.test import APIClient

from games import feed, statecache
from tests.factories import PlayerFactory
from tests.games.conftest import Table, client_for, make_table
from tests.games.helpers import play

pytestmark = pytest.mark.django_db


def _content(response: Any) -> bytes:
    """The whole body of a streamed response (the stream is an async iterator)."""

    async def collect() -> bytes:
        return b"".join([chunk async for chunk in response.streaming_content])

    return async_to_sync(collect)()


def _events(client: APIClient, table: Table, query: str = "") -> Any:
    r = client.get(table.url(f"events/{query}"))
    assert r.status_code == 200, r.content
    return r.json()


def test_opening_events_give_each_seat_only_its_own_hand(table: Table) -> None:
    for seat in range(4):
        body = _events(table.clients[seat], table)
        assert body["seq"] == 0 and body["status"] == "active"
        kinds = [e["type"] for e in body["events"]]
        assert kinds[0] == "deal_start" and all(e["seq"] == 0 for e in body["events"])
        hands = [e for e in body["events"] if e["type"] == "hand"]
        assert [(h["seat"], h["private_to"]) for h in hands] == [(seat, seat)]
        assert hands[0]["cards"] == table.clients[seat].get(table.url()).json()["view"]["hand"]
        assert all(e["private_to"] in (None, seat) for e in body["events"])
    spectator = client_for(PlayerFactory().user)
    body = _events(spectator, table)
    assert body["events"] and all(e["private_to"] is None for e in body["events"])
    assert not [e for e in body["events"] if e["type"] == "hand"]


def test_since_returns_only_newer_events_in_order(table: Table) -> None:
    play(table.game, 6)
    everything = _events(table.clients[1], table)["events"]
    assert [e["seq"] for e in everything] == sorted(e["seq"] for e in everything)
    newer = _events(table.clients[1], table, "?since=3")
    assert newer["seq"] == 6
    assert newer["events"] == [e for e in everything if e["seq"] > 3]
    assert {e["seq"] for e in newer["events"]} == {4, 5, 6}
    assert _events(table.clients[1], table, "?since=6&wait=0")["events"] == []


def test_events_match_a_fresh_derivation(table: Table) -> None:
    play(table.game, 40)
    cached = _events(table.clients[2], table)["events"]
    feed.forget()
    statecache.forget()
    assert _events(table.clients[2], table)["events"] == cached


@pytest.mark.parametrize("query", ["?since=abc", "?since=-5", "?wait=1000", "?wait=x", "?seat=9"])
def test_bad_feed_parameters_are_400(table: Table, query: str) -> None:
    r = table.clients[0].get(table.url(f"events/{query}"))
    assert r.status_code == 400 and r.json()["code"] == "bad_parameter", r.content


def test_asking_for_a_seat_you_do_not_hold_is_403(table: Table) -> None:
    r = table.clients[0].get(table.url("events/?seat=1"))
    assert (r.status_code, r.json()["code"]) == (403, "not_your_seat")


def test_server_sent_events_stream_carries_ids_and_resumes(table: Table) -> None:
    play(table.game, 5)
    r = table.clients[3].get(table.url("events/stream/?timeout=0"), HTTP_ACCEPT="text/event-stream")
    assert r.status_code == 200 and r["Content-Type"].startswith("text/event-stream")
    text = _content(r).decode()
    blocks = [b for b in text.split("\n\n") if b.strip()]
    parsed = []
    for block in blocks:
        lines = dict(line.split(": ", 1) for line in block.splitlines())
        ev = json.loads(lines["data"])
        assert lines["id"] == str(ev["seq"]) and lines["event"] == ev["type"]
        parsed.append(ev)
    assert parsed == _events(table.clients[3], table)["events"]
    r = table.clients[3].get(
        table.url("events/stream/?timeout=0"),
        HTTP_ACCEPT="text/event-stream",
        HTTP_LAST_EVENT_ID="3",
    )
    resumed = [
        json.loads(line[6:])
        for line in _content(r).decode().splitlines()
        if line.startswith("data: ")
    ]
    assert resumed == [e for e in parsed if e["seq"] > 3]


def test_ndjson_stream(table: Table) -> None:
    play(table.game, 2)
    r = table.clients[0].get(
        table.url("events/stream/?timeout=0&since=0"), HTTP_ACCEPT="application/x-ndjson"
    )
    assert r.status_code == 200 and r["Content-Type"].startswith("application/x-ndjson")
    lines = _content(r).decode().splitlines()
    events = [json.loads(line) for line in lines]
    assert [e["seq"] for e in events] == [1, 2]
    assert all(e["type"] == "bid" for e in events)


@pytest.mark.django_db(transaction=True)
def test_long_poll_wakes_when_a_move_commits() -> None:
    table = make_table(("lp_a", "lp_b", "lp_c", "lp_d"))
    waiter = table.clients[(table.to_act() + 2) % 4]
    got: dict[str, Any] = {}

    def wait_for_news() -> None:
        started = time.monotonic()
        try:
            got["body"] = waiter.get(table.url("events/?since=0&wait=20")).json()
        finally:
            connections.close_all()
        got["took"] = time.monotonic() - started

    thread = threading.Thread(target=wait_for_news)
    thread.start()
    time.sleep(0.5)
    seat = table.to_act()
    assert table.move(seat, {"bid": 2}, 0).status_code == 201
    thread.join(30)
    assert not thread.is_alive()
    body = got["body"]
    assert body["seq"] == 1
    assert [(e["type"], e["seat"], e["bid"]) for e in body["events"]] == [("bid", seat, 2)]
    assert got["took"] < 20  # woken by the move, not by the timeout


@pytest.mark.django_db(transaction=True)
def test_the_stream_delivers_a_move_made_while_it_is_open() -> None:
    table = make_table(("st_a", "st_b", "st_c", "st_d"))
    watcher = table.clients[(table.to_act() + 1) % 4]
    got: dict[str, Any] = {}

    def watch() -> None:
        try:
            r = watcher.get(
                table.url("events/stream/?since=0&timeout=3"), HTTP_ACCEPT="application/x-ndjson"
            )
            got["lines"] = _content(r).decode().splitlines()
        finally:
            connections.close_all()

    thread = threading.Thread(target=watch)
    thread.start()
    time.sleep(0.5)
    seat = table.to_act()
    assert table.move(seat, {"bid": "board"}, 0).status_code == 201
    thread.join(30)
    events = [json.loads(line) for line in got["lines"]]
    assert [(e["seq"], e["type"], e["seat"], e["bid"]) for e in events] == [
        (1, "bid", seat, "board")
    ]


@pytest.mark.parametrize("last_id", ["²", "٣", "1²", "-1", "x", "99999999999"])
def test_a_last_event_id_that_is_not_a_plain_number_is_400(table: Table, last_id: str) -> None:
    for path in ("events/", "events/stream/?timeout=0"):
        r = table.clients[0].get(table.url(path), HTTP_LAST_EVENT_ID=last_id)
        assert r.status_code == 400, (path, r.content)
        body = json.loads(r.content)
        assert body["code"] == "bad_last_event_id" and set(body) == {"code", "message", "extra"}


@pytest.mark.parametrize("since", ["٣", "²", "1_0", " 3"])
def test_since_takes_ascii_digits_only(table: Table, since: str) -> None:
    r = table.clients[0].get(table.url("events/"), {"since": since})
    assert (r.status_code, r.json()["code"]) == (400, "bad_parameter")


def test_the_feed_stays_documented_in_the_schema(client: Any) -> None:
    import yaml

    schema = yaml.safe_load(client.get("/api/schema/").content)
    poll = schema["paths"]["/api/v1/games/{public_id}/events/"]["get"]
    stream = schema["paths"]["/api/v1/games/{public_id}/events/stream/"]["get"]
    assert {"since", "wait", "seat"} <= {p["name"] for p in poll["parameters"]}
    assert {"since", "timeout", "Last-Event-ID"} <= {p["name"] for p in stream["parameters"]}
    assert {"200", "429"} <= set(poll["responses"]) and "429" in stream["responses"]
    assert {"text/event-stream", "application/x-ndjson"} <= set(
        stream["responses"]["200"]["content"]
    )


def test_the_feed_needs_authentication(table: Table) -> None:
    r = APIClient().get(table.url("events/"))
    assert r.status_code in (401, 403) and r.json()["code"] == "not_authenticated"


def test_a_reconnecting_event_source_resumes_after_its_last_event_id_not_its_since(
    table: Table,
) -> None:
    play(table.game, 5)
    r = table.clients[0].get(
        table.url("events/stream/?since=1&timeout=0"),
        HTTP_ACCEPT="text/event-stream",
        HTTP_LAST_EVENT_ID="4",
    )
    ids = [int(line[4:]) for line in _content(r).decode().splitlines() if line.startswith("id: ")]
    assert ids == [5]
