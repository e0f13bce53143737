"""The feed's own ASGI handler: the middleware a GET of the feed needs, and no other."""

from __future__ import annotations

import asyncio
import json

import pytest

from accounts.tokens import token_create
from tests.asgi_calls import asgi_request, middleware_thread_hops
from tests.games.conftest import Table

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_feed_request_runs_only_the_feed_middleware_and_keeps_the_security_headers(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    from backalley_site.asgi import application

    hooks = middleware_thread_hops(monkeypatch)
    user = table.players[0].user
    _, secret = token_create(user=user, name="feed", scopes=["read"])
    status, headers, body = asyncio.run(
        asgi_request(
            application,
            f"/api/v1/games/{table.game_id}/events/",
            b"since=-1",
            headers=[(b"authorization", f"Bearer {secret}".encode())],
        )
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
