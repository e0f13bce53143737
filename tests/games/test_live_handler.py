"""The feed's ASGI handler: once a wait is admitted, the request is let go."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator
from django.core import signals
from django.core.handlers.asgi import ASGIRequest

from accounts.tokens import token_create
from games.live.asgi import FeedHandler
from tests.games.conftest import make_table

pytestmark = pytest.mark.django_db(transaction=True)


def _scope(path: str, query: str, secret: str) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "headers": [(b"host", b"testserver"), (b"authorization", f"Bearer {secret}".encode())],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }


def _requests_for(path: str) -> list[ASGIRequest]:
    gc.collect()
    # type(), not isinstance(): a dead weak proxy among the objects raises on isinstance.
    return [o for o in gc.get_objects() if type(o) is ASGIRequest and o.path == path]


@pytest.mark.parametrize(
    "tail,query", [("events/", "since=999&wait=30"), ("events/stream/", "since=999")]
)
def test_a_waiting_client_holds_no_request_and_its_request_is_finished(
    tail: str, query: str
) -> None:
    table = make_table()
    _, secret = token_create(user=table.players[0].user, name="feed", scopes=["read"])
    path = f"/api/v1/games/{table.game_id}/{tail}"
    finished: list[bool] = []

    def on_finished(**kwargs: Any) -> None:
        finished.append(True)

    async def scenario() -> tuple[int, int, bool]:
        communicator = ApplicationCommunicator(FeedHandler(), _scope(path, query, secret))
        await communicator.send_input({"type": "http.request", "body": b""})
        started: dict[str, Any] | None = None
        if tail.endswith("stream/"):  # a stream answers its head at once, then waits
            started = await communicator.receive_output(timeout=10)
        await asyncio.sleep(1.0)  # admitted, now waiting (nothing after seq 999)
        held = len(_requests_for(path))
        done = len(finished)
        waiting = communicator.output_queue.empty()
        await communicator.send_input({"type": "http.disconnect"})
        await communicator.wait(timeout=10)
        assert started is None or started["status"] == 200
        return held, done, waiting

    signals.request_finished.connect(on_finished)
    try:
        held, done, waiting = asyncio.run(scenario())
    finally:
        signals.request_finished.disconnect(on_finished)
    assert waiting  # the wait was still on
    assert held == 0  # nothing kept the request alive while it waited
    assert done >= 1  # Django's request was finished before the wait
