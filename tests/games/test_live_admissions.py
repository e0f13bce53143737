"""Returning long polls admitted by ticket (games.live.admissions): without the gate, never
after the credential changed, and never for a request that differs in anything that counts."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
import redis
from asgiref.testing import ApplicationCommunicator
from django.conf import settings

from accounts.tokens import token_create, token_revoke
from games.api.events import EventsView
from games.live import hub as live_hub
from games.live import publish
from games.live.admissions import tickets
from games.services import game_create
from tests.asgi_calls import asgi_request
from tests.games.conftest import Table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _needs_redis(live_redis: Any) -> None:
    """Tickets and shared slots exist only where every process hears the live channel."""


@pytest.fixture(autouse=True)
def _no_tickets() -> Any:
    tickets.forget_all()
    yield
    tickets.forget_all()


@pytest.fixture
def gate_runs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The query string of each long poll the DRF gate ran for, from now on."""
    runs: list[str] = []
    original = EventsView.get

    def counted(self: EventsView, request: Any, public_id: str) -> Any:
        runs.append(request.META.get("QUERY_STRING", ""))
        return original(self, request, public_id)

    monkeypatch.setattr(EventsView, "get", counted)
    return runs


def _token(table: Table, seat: int = 0) -> tuple[Any, str]:
    return token_create(user=table.players[seat].user, name="poll", scopes=["read"])


def _poll(
    table: Table, secret: str, query: bytes = b"since=-1", **headers: bytes
) -> tuple[int, dict[bytes, bytes], Any]:
    from backalley_site.asgi import application

    sent = [(b"authorization", f"Bearer {secret}".encode())]
    sent += [(name.replace("_", "-").encode(), value) for name, value in headers.items()]
    status, got, body = asyncio.run(
        asgi_request(application, table.url("events/"), query, headers=sent)
    )
    return status, got, json.loads(body)


def test_a_long_poll_that_comes_back_is_admitted_without_the_gate(
    table: Table, gate_runs: list[str]
) -> None:
    _, secret = _token(table)
    first = _poll(table, secret)
    again = _poll(table, secret)
    assert first[0] == again[0] == 200
    assert len(gate_runs) == 1 and len(tickets) == 1
    assert again[2] == first[2]  # the same events, the same seat's view
    assert again[1] == first[1]  # and the headers the middleware gave the first answer
    assert again[1][b"x-content-type-options"] == b"nosniff"
    assert again[1][b"x-frame-options"] == b"DENY"


def test_the_ticket_keeps_its_seat_and_shows_no_other_hand(table: Table) -> None:
    _, secret = _token(table, seat=2)
    _poll(table, secret)
    _, _, body = _poll(table, secret)
    hands = [e for e in body["events"] if e["type"] == "hand"]
    assert hands and {e["seat"] for e in hands} == {2}


def test_revoking_the_token_refuses_its_next_long_poll_at_once(table: Table) -> None:
    token, secret = _token(table)
    assert _poll(table, secret)[0] == 200
    token_revoke(user=table.players[0].user, token_id=token.pk)
    status, _, body = _poll(table, secret)
    assert (status, body["code"]) == (401, "token_revoked")


def test_disabling_the_account_refuses_its_next_long_poll_at_once(table: Table) -> None:
    _, secret = _token(table)
    assert _poll(table, secret)[0] == 200
    user = table.players[0].user
    user.is_active = False
    user.save()
    status, _, body = _poll(table, secret)
    assert (status, body["code"]) == (401, "user_inactive")


def test_signing_in_keeps_the_tickets(table: Table) -> None:
    from django.contrib.auth.models import update_last_login

    _, secret = _token(table)
    _poll(table, secret)
    update_last_login(None, table.players[1].user)  # saves last_login only
    assert len(tickets) == 1


def test_another_token_seat_host_or_accept_goes_through_the_gate(
    table: Table, gate_runs: list[str]
) -> None:
    _, secret = _token(table)
    _, other = _token(table)
    _poll(table, secret)
    _poll(table, other)
    _poll(table, secret, b"since=-1&seat=0")
    _poll(table, secret, host=b"localhost")
    _poll(table, secret, accept=b"application/json")
    assert len(gate_runs) == 5


def test_unusual_input_goes_the_whole_way_and_gets_the_gates_answer(
    table: Table, gate_runs: list[str]
) -> None:
    _, secret = _token(table)
    _poll(table, secret)
    assert _poll(table, secret, b"since=abc")[2]["code"] == "bad_parameter"
    assert _poll(table, secret, b"since=-1&wait=61")[2]["code"] == "bad_parameter"
    assert _poll(table, secret, b"since=-1", last_event_id=b"x1")[2]["code"] == "bad_last_event_id"
    assert _poll(table, secret, b"since=-1&format=json")[0] == 200
    assert _poll(table, secret, b"since=-1&since=-1")[0] == 200
    assert _poll(table, secret, b"since=-1", cookie=b"sessionid=nothing")[0] == 200
    assert len(gate_runs) == 7


def test_last_event_id_resumes_a_ticketed_poll_after_it(table: Table) -> None:
    _, secret = _token(table)
    everything = _poll(table, secret)[2]["events"]
    _, _, body = _poll(table, secret, b"since=-1", last_event_id=b"0")
    assert [e["seq"] for e in body["events"]] == [e["seq"] for e in everything if e["seq"] > 0]


def test_no_ticket_for_a_waiting_game(table: Table) -> None:
    from backalley_site.asgi import application

    creator = table.players[0]
    game = game_create(creator=creator, seats=[creator, None, None, None])
    _, secret = _token(table)
    status, _, _ = asyncio.run(
        asgi_request(
            application,
            f"/api/v1/games/{game.public_id}/events/",
            b"since=-1",
            headers=[(b"authorization", f"Bearer {secret}".encode())],
        )
    )
    assert status == 200 and len(tickets) == 0


def test_no_ticket_when_the_admission_ttl_is_zero(table: Table, settings: Any) -> None:
    settings.LIVE_ADMISSION_TTL = 0
    _, secret = _token(table)
    _poll(table, secret)
    assert len(tickets) == 0


def test_a_ticket_lapses_after_the_ttl(
    table: Table, gate_runs: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, secret = _token(table)
    _poll(table, secret)
    later = time.monotonic() + settings.LIVE_ADMISSION_TTL + 1
    monkeypatch.setattr("games.live.admissions.time.monotonic", lambda: later)
    _poll(table, secret)
    assert len(gate_runs) == 2


def test_an_admission_decided_before_a_forget_is_not_kept() -> None:
    generation = tickets.generation
    tickets.forget_all()  # a credential changed while the gate was running
    tickets.remember(b"k", generation=generation, game_id=1, seat=0, holder="token:1", headers=[])
    assert len(tickets) == 0


def test_the_forget_message_from_another_process_clears_the_tickets(table: Table) -> None:
    _, secret = _token(table)
    _poll(table, secret)
    assert len(tickets) == 1

    async def hear() -> None:
        live_hub.get().heard(publish.FORGET_ADMISSIONS.encode())

    asyncio.run(hear())
    assert len(tickets) == 0


def test_a_credential_change_is_published_to_every_process() -> None:
    client = redis.Redis.from_url(settings.LIVE_REDIS_URL)
    pubsub = client.pubsub()
    pubsub.subscribe(publish.channel())
    pubsub.get_message(timeout=2)  # the subscription's confirmation
    publish.forget_admissions()
    message = pubsub.get_message(ignore_subscribe_messages=True, timeout=5)
    pubsub.close()
    assert message is not None and message["data"] == publish.FORGET_ADMISSIONS.encode()


def test_a_client_that_leaves_a_ticketed_wait_frees_its_slot(table: Table) -> None:
    from backalley_site.asgi import application

    token, secret = _token(table)
    seq = _poll(table, secret)[2]["seq"]
    assert len(tickets) == 1  # whatever its since and wait, this poll comes by ticket now
    path = table.url("events/")
    headers = [(b"host", b"testserver"), (b"authorization", f"Bearer {secret}".encode())]
    key = f"{settings.LIVE_CHANNEL_PREFIX}waits:token:{token.pk}"
    store = redis.Redis.from_url(settings.LIVE_REDIS_URL)

    async def wait_and_leave() -> tuple[int, int]:
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": f"since={seq}&wait=30".encode(),
            "headers": headers,
            "client": ("127.0.0.1", 5000),
            "server": ("testserver", 80),
        }
        communicator = ApplicationCommunicator(application, scope)
        await communicator.send_input({"type": "http.request", "body": b"", "more_body": False})
        for _ in range(50):
            await asyncio.sleep(0.05)
            if store.zcard(key):
                break
        held = int(store.zcard(key))
        await communicator.send_input({"type": "http.disconnect"})
        await communicator.wait(5)
        return held, int(store.zcard(key))

    held, after = asyncio.run(asyncio.wait_for(wait_and_leave(), 10))
    assert (held, after) == (1, 0)


def test_a_ticketed_poll_beyond_the_tokens_cap_is_refused(table: Table, settings: Any) -> None:
    from backalley_site.asgi import application

    settings.LIVE_MAX_STREAMS_PER_TOKEN = 1
    _, secret = _token(table)
    seq = _poll(table, secret)[2]["seq"]
    assert len(tickets) == 1
    bearer = [(b"authorization", f"Bearer {secret}".encode())]
    waiting = f"since={seq}&wait=30".encode()

    async def one_waits_another_is_refused() -> tuple[int, Any]:
        held = asyncio.ensure_future(
            asgi_request(application, table.url("events/"), waiting, headers=bearer)
        )
        await asyncio.sleep(0.5)  # the first is waiting now, and holds the one slot
        status, _, body = await asgi_request(
            application, table.url("events/"), waiting, headers=bearer
        )
        held.cancel()
        return status, json.loads(body)

    status, body = asyncio.run(one_waits_another_is_refused())
    assert (status, body["code"]) == (429, "too_many_streams")
