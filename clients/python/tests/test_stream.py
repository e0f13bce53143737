"""The event stream resumes where it broke (Last-Event-ID), with backoff, to the game's end."""

import json
from collections.abc import Iterator

import httpx
import pytest

from backalley_bot import Client, TransportError


class Broken(httpx.SyncByteStream):
    """Lines, then (optionally) the connection lost."""

    def __init__(self, lines: list[dict | None], fail: bool) -> None:
        self.lines, self.fail = lines, fail

    def __iter__(self) -> Iterator[bytes]:
        for line in self.lines:
            yield (b"" if line is None else json.dumps(line).encode()) + b"\n"
        if self.fail:
            raise httpx.ReadError("connection lost")


def _client(handler) -> tuple[Client, list[float]]:  # type: ignore[no-untyped-def]
    waits: list[float] = []
    http = httpx.Client(transport=httpx.MockTransport(handler))
    return Client("http://club.test", "tok", http=http, sleep=waits.append), waits


def test_a_broken_stream_resumes_after_the_last_event_without_loss_or_repeat() -> None:
    opened: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/stream/"):
            opened.append(request)
            if len(opened) == 1:
                body = [{"seq": 1, "type": "bid"}, None, {"seq": 2, "type": "bid"}]
                return httpx.Response(200, stream=Broken(body, fail=True))
            if len(opened) == 2:
                return httpx.Response(503, json={"code": "database_unavailable", "message": "x"})
            if len(opened) == 3:
                return httpx.Response(
                    429,
                    json={"code": "too_many_streams", "message": "x"},
                    headers={"Retry-After": "5"},
                )
            if len(opened) == 4:
                return httpx.Response(200, stream=Broken([{"seq": 3, "type": "play"}], fail=False))
            body = [{"seq": 4, "type": "game_end"}, {"seq": 5, "type": "never"}]
            return httpx.Response(200, stream=Broken(body, fail=False))
        # The stream ended cleanly after seq 3: the game is still on (only a time limit).
        return httpx.Response(200, json={"id": "g_1", "status": "active", "seq": 3})

    client, waits = _client(handler)
    events = list(client.events("g_1", seat=2))
    assert [e["seq"] for e in events] == [1, 2, 3, 4]
    assert "Last-Event-ID" not in opened[0].headers
    assert opened[0].url.params["seat"] == "2"
    assert [r.headers["Last-Event-ID"] for r in opened[1:]] == ["2", "2", "2", "3"]
    assert opened[4].url.params["since"] == "3"
    assert opened[0].headers["Accept"] == "application/x-ndjson"
    assert waits[:3] == [0.2, 0.4, 5.0]  # backoff, then Retry-After for the 429


def test_a_stream_that_ends_on_a_finished_game_stops() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/stream/"):
            return httpx.Response(200, stream=Broken([{"seq": 9, "type": "play"}], fail=False))
        return httpx.Response(200, json={"id": "g_1", "status": "finished", "seq": 9})

    client, _ = _client(handler)
    assert [e["seq"] for e in client.events("g_1", since=8)] == [9]


def test_a_stream_that_keeps_failing_raises() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused")

    client, waits = _client(handler)
    with pytest.raises(TransportError):
        list(client.events("g_1"))
    assert len(waits) == 8
