"""The event feed on a real ASGI server process (gunicorn with uvicorn workers, PostgreSQL,
Redis): many waiting clients cost the site nothing, moves are pushed to them, resuming
loses nothing (across a server restart too), private events stay private, and a token's
open waits are capped."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from games.models import Game
from tests.factories import PlayerFactory
from tests.games.conftest import make_table
from tests.games.helpers import play
from tests.games.live_clients import LongPoll, StreamReader, auth, token_for

pytestmark = [pytest.mark.server, pytest.mark.django_db(transaction=True)]

# Only a push can deliver within the tests' budgets: the periodic check is made slow.
PUSH_ONLY = {"LIVE_CHECK_INTERVAL": "300"}


def _feed(server: Any, game_id: str, tail: str) -> str:
    return f"{server.url}/api/v1/games/{game_id}/events/{tail}"


def _all_events(server: Any, game_id: str, token: str) -> list[dict[str, Any]]:
    r = httpx.get(_feed(server, game_id, "?since=-1"), headers=auth(token), timeout=30)
    assert r.status_code == 200, r.text
    return r.json()["events"]


def test_many_waiting_clients_leave_the_site_answering_at_once_and_all_get_the_move(
    asgi_server_factory: Any,
) -> None:
    server = asgi_server_factory(PUSH_ONLY).start()
    table = make_table(("many_a", "many_b", "many_c", "many_d"))

    def api_move(seq: int) -> float:
        """The seat to act bids 1 through the API; how long the answer took."""
        seat = table.to_act()
        token = token_for(table.players[seat].user, name=f"mover{seq}")
        started = time.monotonic()
        r = httpx.post(
            f"{server.url}/api/v1/games/{table.game_id}/moves/",
            json={"action": {"bid": 1}, "expected_seq": seq},
            headers=auth(token),
            timeout=20,
        )
        assert r.status_code == 201, r.text
        return time.monotonic() - started

    api_move(0)  # warms the server's caches
    alone = api_move(1)  # the move's own cost on this machine now, with nobody waiting
    mover = table.to_act()
    tokens = [token_for(table.players[i % 4].user, name=f"t{i}") for i in range(24)]
    streams = [
        StreamReader(_feed(server, table.game_id, "stream/?since=2&timeout=120"), t).start()
        for t in tokens
        for _ in range(2)
    ]
    polls = [LongPoll(_feed(server, table.game_id, "?since=2&wait=50"), t).start() for t in tokens]
    for s in streams:
        assert s.opened.wait(30) and s.status == 200, (s.status, s.body)

    def healthz() -> float:
        started = time.monotonic()
        assert httpx.get(server.url + "/healthz/", timeout=10).status_code == 200
        return time.monotonic() - started

    # Admitting 72 clients takes the server a moment (authentication, the first read);
    # once they are parked they cost nothing: the site answers at once.
    assert any(healthz() < 0.5 for _ in range(40)), "the server never settled"
    assert not any(p.done.is_set() for p in polls), [p.result for p in polls if p.result]
    assert max(healthz() for _ in range(5)) < 1.0
    started = time.monotonic()
    took = api_move(2)
    assert took < 3 * alone + 0.5, (took, alone)  # the waiting clients do not slow it down

    for s in streams:
        assert s.wait_for_seq(3, 10), (s.events, s.error)
        assert [(e["seq"], e["type"], e["seat"]) for e in s.events] == [(3, "bid", mover)]
    for p in polls:
        assert p.done.wait(10) and p.status == 200, p.error
        assert [(e["seq"], e["type"]) for e in p.result["events"]] == [(3, "bid")]
        assert p.result["seq"] == 3
    assert max(s.arrived[0] for s in streams) - started < 5.0


def test_resuming_by_last_event_id_and_by_since_has_no_gap_and_no_duplicate(
    asgi_server_factory: Any,
) -> None:
    server = asgi_server_factory(PUSH_ONLY).start()
    table = make_table(("res_a", "res_b", "res_c", "res_d"))
    token = token_for(table.players[1].user)
    seen: list[dict[str, Any]] = []

    sse = StreamReader(_feed(server, table.game_id, "stream/?timeout=600"), token, sse=True)
    sse.start()
    assert sse.opened.wait(20) and sse.status == 200
    play(table.game, 3)
    assert sse.wait_for_seq(3, 10), sse.events
    seen += sse.events  # the browser's view: then it drops the connection

    play(table.game, 3)  # while nobody listens
    resumed = StreamReader(
        _feed(server, table.game_id, "stream/?timeout=2"),
        token,
        sse=True,
        headers={"Last-Event-ID": str(seen[-1]["seq"])},
    ).start()
    assert resumed.ended.wait(20) and resumed.error is None
    seen += resumed.events

    play(table.game, 2)
    poll = httpx.get(
        _feed(server, table.game_id, f"?since={seen[-1]['seq']}&wait=5"),
        headers=auth(token),
        timeout=30,
    ).json()
    seen += poll["events"]
    nd = StreamReader(
        _feed(server, table.game_id, f"stream/?since={seen[-1]['seq']}&timeout=3"), token
    ).start()
    play(table.game, 1)
    assert nd.ended.wait(20) and nd.error is None
    seen += nd.events

    assert Game.objects.get(public_id=table.game_id).move_count == 9
    assert seen == _all_events(server, table.game_id, token)
    assert [e["seq"] for e in seen] == sorted(e["seq"] for e in seen)
    assert max(e["seq"] for e in seen) == 9


def test_a_server_stop_ends_streams_cleanly_and_after_a_restart_nothing_is_lost(
    asgi_server_factory: Any,
) -> None:
    server = asgi_server_factory(PUSH_ONLY).start()
    table = make_table(("stop_a", "stop_b", "stop_c", "stop_d"))
    token = token_for(table.players[2].user)
    nd = StreamReader(_feed(server, table.game_id, "stream/?since=0&timeout=3600"), token)
    sse = StreamReader(_feed(server, table.game_id, "stream/?timeout=3600"), token, sse=True)
    poll = LongPoll(_feed(server, table.game_id, "?since=0&wait=60"), token)
    for client in (nd, sse):
        client.start()
        assert client.opened.wait(20) and client.status == 200
    play(table.game, 2)
    assert nd.wait_for_seq(2, 10) and sse.wait_for_seq(2, 10)
    poll.url = _feed(server, table.game_id, "?since=2&wait=60")
    poll.start()
    time.sleep(0.5)

    took = server.stop()
    assert took < 10, f"the stop waited on open streams ({took:.1f} s)"
    for client in (nd, sse):
        assert client.ended.is_set() and client.error is None, client.error  # a clean end
    assert poll.done.is_set() and poll.status == 200 and poll.result["events"] == []

    play(table.game, 2)  # while the server is down
    server.start()
    resumed = StreamReader(
        _feed(server, table.game_id, "stream/?timeout=2"),
        token,
        sse=True,
        headers={"Last-Event-ID": str(sse.events[-1]["seq"])},
    ).start()
    assert resumed.ended.wait(20) and resumed.error is None
    everything = _all_events(server, table.game_id, token)
    assert sse.events + resumed.events == everything
    assert nd.events == [e for e in everything if 0 < e["seq"] <= 2]


def test_a_seats_private_events_reach_that_seat_only_over_streams(
    asgi_server_factory: Any,
) -> None:
    server = asgi_server_factory(PUSH_ONLY).start()
    table = make_table(("priv_a", "priv_b", "priv_c", "priv_d"))
    spectator = PlayerFactory(name="priv_watch")
    readers = {
        seat: StreamReader(
            _feed(server, table.game_id, "stream/?timeout=600"),
            token_for(table.players[seat].user),
        ).start()
        for seat in range(4)
    }
    readers[None] = StreamReader(
        _feed(server, table.game_id, "stream/?timeout=600"),
        token_for(spectator.user, scopes=("read",)),
    ).start()
    for reader in readers.values():
        assert reader.opened.wait(20) and reader.status == 200
    game = table.game
    while game.deal_number == 1 and game.status == "active":  # into the second deal
        game = play(game, 1)
    last = game.move_count
    for seat, reader in readers.items():
        assert reader.wait_for_seq(last, 20), (seat, len(reader.events))
        private = [e for e in reader.events if e.get("private_to") is not None]
        hands = [e for e in reader.events if e["type"] == "hand"]
        if seat is None:
            assert private == [] and hands == []
        else:
            assert {e["private_to"] for e in private} == {seat}
            assert len(hands) == 2 and {h["seat"] for h in hands} == {seat}  # deals 1 and 2
        # the same events as the seat's own long-poll view: nothing more, nothing less
        assert [e["seq"] for e in reader.events] == sorted(e["seq"] for e in reader.events)


def test_a_token_holds_at_most_the_configured_number_of_open_waits(
    asgi_server_factory: Any,
) -> None:
    server = asgi_server_factory({"LIVE_MAX_STREAMS_PER_TOKEN": "2"}).start()
    table = make_table(("cap_a", "cap_b", "cap_c", "cap_d"))
    token, other = token_for(table.players[0].user), token_for(table.players[0].user, name="b")
    url = _feed(server, table.game_id, "stream/?since=0&timeout=6")
    held = [StreamReader(url, token).start() for _ in range(2)]
    for reader in held:
        assert reader.opened.wait(20) and reader.status == 200
    refused = StreamReader(url, token).start()
    assert refused.ended.wait(20) and refused.status == 429
    body = httpx.Response(429, content=refused.body).json()
    assert body["code"] == "too_many_streams" and body["extra"] == {"limit": 2}
    r = httpx.get(_feed(server, table.game_id, "?since=0&wait=5"), headers=auth(token), timeout=20)
    assert (r.status_code, r.json()["code"]) == (429, "too_many_streams")
    assert r.headers["Retry-After"]
    # A poll that does not wait is no open wait; another token has its own allowance.
    r = httpx.get(_feed(server, table.game_id, "?since=0&wait=0"), headers=auth(token), timeout=20)
    assert r.status_code == 200
    elsewhere = StreamReader(url, other).start()
    assert elsewhere.opened.wait(20) and elsewhere.status == 200
    # A stream that ends gives its slot back.
    for reader in held:
        assert reader.ended.wait(20) and reader.error is None
    after = StreamReader(url, token).start()
    assert after.opened.wait(20) and after.status == 200
