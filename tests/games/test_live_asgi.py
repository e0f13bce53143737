"""The feed's own ASGI handler: the feed's middleware and the gate in one call in a thread,
the wait as a coroutine, and the middleware's headers on the answer."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured

from accounts.tokens import token_create
from games.api.asgi import FEED_MIDDLEWARE, feed_middleware
from games.live import hub as live_hub
from tests.asgi_calls import asgi_request, middleware_thread_hops
from tests.games.conftest import Table

pytestmark = pytest.mark.django_db(transaction=True)


def _bearer(table: Table, seat: int = 0) -> list[tuple[bytes, bytes]]:
    _, secret = token_create(user=table.players[seat].user, name="feed", scopes=["read"])
    return [(b"authorization", f"Bearer {secret}".encode())]


def _thread_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The name of each function the hub runs in its database threads, from now on."""
    calls: list[str] = []
    original = live_hub.Hub.db

    async def counted(self: live_hub.Hub, fn: Any, *args: Any) -> Any:
        calls.append(getattr(fn, "__qualname__", type(fn).__name__))
        return await original(self, fn, *args)

    monkeypatch.setattr(live_hub.Hub, "db", counted)
    return calls


def test_a_long_poll_is_admitted_in_one_thread_call_and_keeps_the_security_headers(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    from backalley_site.asgi import application

    hooks = middleware_thread_hops(monkeypatch)
    calls = _thread_calls(monkeypatch)
    status, headers, body = asyncio.run(
        asgi_request(application, table.url("events/"), b"since=-1&wait=5", headers=_bearer(table))
    )
    assert status == 200, body
    assert json.loads(body)["events"]
    assert headers[b"content-type"] == b"application/json"
    assert headers[b"x-content-type-options"] == b"nosniff"
    assert headers[b"x-frame-options"] == b"DENY"
    assert b"referrer-policy" in headers
    assert b"Accept" in headers[b"vary"]
    # No middleware hook went to a thread by itself; the middleware and the gate went in
    # one call, and the events already there needed no other (the game's read is shared).
    assert hooks == []
    assert calls.count("convert_exception_to_response.<locals>.inner") == 1, calls


def test_a_refusal_comes_from_the_gate_in_the_error_shape_with_the_security_headers(
    table: Table,
) -> None:
    from backalley_site.asgi import application

    status, headers, body = asyncio.run(
        asgi_request(
            application,
            table.url("events/"),
            b"wait=5",
            headers=[(b"authorization", b"Bearer bac_not-a-token")],
        )
    )
    assert status == 401
    assert json.loads(body)["code"] == "invalid_token"
    assert headers[b"x-content-type-options"] == b"nosniff"
    assert headers[b"www-authenticate"].startswith(b"Bearer")


def test_a_bad_parameter_is_refused_by_the_gate(table: Table) -> None:
    from backalley_site.asgi import application

    status, _, body = asyncio.run(
        asgi_request(application, table.url("events/"), b"since=x", headers=_bearer(table))
    )
    assert status == 400
    assert json.loads(body)["code"] == "bad_parameter"


def test_a_stream_through_the_handler_is_a_stream_with_the_security_headers(
    table: Table,
) -> None:
    from backalley_site.asgi import application

    status, headers, body = asyncio.run(
        asgi_request(
            application,
            table.url("events/stream/"),
            b"since=-1&timeout=0",
            headers=[*_bearer(table), (b"accept", b"text/event-stream")],
        )
    )
    assert status == 200, body
    assert headers[b"content-type"].startswith(b"text/event-stream")
    assert headers[b"x-content-type-options"] == b"nosniff"
    assert headers[b"cache-control"] == b"no-cache"
    assert body.startswith(b"id: 0\nevent: ")


def test_a_signed_in_browser_is_admitted_by_its_session(table: Table) -> None:
    from django.test import Client

    from backalley_site.asgi import application

    browser = Client()
    browser.force_login(table.players[1].user)
    cookie = f"sessionid={browser.cookies['sessionid'].value}".encode()
    status, headers, body = asyncio.run(
        asgi_request(application, table.url("events/"), b"since=-1", headers=[(b"cookie", cookie)])
    )
    assert status == 200, body
    hands = [e for e in json.loads(body)["events"] if e["type"] == "hand"]
    assert hands and all(e["seat"] == 1 for e in hands)  # its own hand, no other
    assert b"Cookie" in headers[b"vary"]


def test_the_feed_middleware_must_all_be_in_the_sites_list() -> None:
    site = [m for m in FEED_MIDDLEWARE if "XFrame" not in m] + ["some.OtherMiddleware"]
    with pytest.raises(ImproperlyConfigured, match="XFrameOptionsMiddleware"):
        feed_middleware(site)
    assert feed_middleware(["some.OtherMiddleware", *FEED_MIDDLEWARE]) == list(FEED_MIDDLEWARE)
