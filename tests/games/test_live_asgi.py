"""The feed's own ASGI handler: the middleware a GET of the feed needs, and no other."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator

from accounts.tokens import token_create
from tests.games.conftest import Table

pytestmark = pytest.mark.django_db(transaction=True)


async def _get(
    app: Any, path: str, query: bytes, token: str
) -> tuple[int, dict[bytes, bytes], bytes]:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query,
        "headers": [(b"host", b"testserver"), (b"authorization", f"Bearer {token}".encode())],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }
    communicator = ApplicationCommunicator(app, scope)
    await communicator.send_input({"type": "http.request", "body": b"", "more_body": False})
    start: Any = await communicator.receive_output(10)
    body: Any = await communicator.receive_output(10)
    await communicator.wait(5)
    return start["status"], {k.lower(): v for k, v in start["headers"]}, body["body"]


def test_a_feed_request_runs_only_the_feed_middleware_and_keeps_the_security_headers(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    import django.utils.deprecation as deprecation

    from backalley_site.asgi import application

    hooks: list[str] = []
    original = deprecation.sync_to_async

    def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        hooks.append(getattr(fn, "__qualname__", repr(fn)).split(".")[0])
        return original(fn, *args, **kwargs)

    monkeypatch.setattr(deprecation, "sync_to_async", counted)
    user = table.players[0].user
    _, secret = token_create(user=user, name="feed", scopes=["read"])
    status, headers, body = asyncio.run(
        _get(application, f"/api/v1/games/{table.game_id}/events/", b"since=-1", secret)
    )
    assert status == 200, body
    assert json.loads(body)["events"]
    assert headers[b"x-content-type-options"] == b"nosniff"
    assert headers[b"x-frame-options"] == b"DENY"
    assert set(hooks) <= {
        "SecurityMiddleware",
        "SessionMiddleware",
        "AuthenticationMiddleware",
        "XFrameOptionsMiddleware",
    }, hooks
    assert "CsrfViewMiddleware" not in hooks and "MessageMiddleware" not in hooks
