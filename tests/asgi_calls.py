"""One HTTP request through an ASGI application, in the test's own event loop, and a count
of the middleware hooks that Django hands to a thread one by one."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator


async def asgi_request(
    app: Any,
    path: str,
    query: bytes = b"",
    *,
    chunks: list[bytes] | None = None,
    headers: list[tuple[bytes, bytes]] | None = None,
) -> tuple[int, dict[bytes, bytes], bytes]:
    """GET ``path`` (a POST when ``chunks`` of body are given): status, headers, body."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST" if chunks else "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query,
        "headers": [(b"host", b"testserver"), *(headers or [])],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }
    communicator = ApplicationCommunicator(app, scope)
    parts = chunks or [b""]
    for i, chunk in enumerate(parts):
        more = i < len(parts) - 1
        await communicator.send_input({"type": "http.request", "body": chunk, "more_body": more})
    start: Any = await communicator.receive_output(10)
    body = b""
    while True:  # a streaming response comes in several messages
        message: Any = await communicator.receive_output(10)
        body += message.get("body", b"")
        if not message.get("more_body", False):
            break
    return start["status"], {k.lower(): v for k, v in start["headers"]}, body


def middleware_thread_hops(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The class of each ``MiddlewareMixin`` hook run through ``sync_to_async`` from now on
    (a round trip between the event loop and a thread per hook)."""
    import django.utils.deprecation as deprecation

    hops: list[str] = []
    original = deprecation.sync_to_async

    def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        hops.append(getattr(fn, "__qualname__", repr(fn)).split(".")[0])
        return original(fn, *args, **kwargs)

    monkeypatch.setattr(deprecation, "sync_to_async", counted)
    return hops


async def asgi_get_to_the_end(
    app: Any, path: str, query: bytes = b"", *, headers: list[tuple[bytes, bytes]] | None = None
) -> tuple[int, dict[bytes, bytes], bytes]:
    """GET ``path`` and wait for the application to finish the request (its request_finished
    has run, closing the request thread's database connection): status, headers, body."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query,
        "headers": [(b"host", b"testserver"), *(headers or [])],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }
    communicator = ApplicationCommunicator(app, scope)
    await communicator.send_input({"type": "http.request", "body": b""})
    start: Any = await communicator.receive_output(10)
    body = b""
    while True:
        message: Any = await communicator.receive_output(10)
        body += message.get("body", b"")
        if not message.get("more_body", False):
            break
    await communicator.send_input({"type": "http.disconnect"})
    await communicator.wait(10)
    return start["status"], {k.lower(): v for k, v in start["headers"]}, body
