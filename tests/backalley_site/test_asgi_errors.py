"""Under ASGI, a request Django cannot even build still answers in the error shape (/api/)."""

from __future__ import annotations

import json

import pytest

from backalley_site.asgi_errors import ShapedASGIHandler
from tests.asgi_calls import asgi_request, middleware_thread_hops


async def _call(
    path: str,
    query: bytes = b"",
    *,
    chunks: list[bytes] | None = None,
    headers: list[tuple[bytes, bytes]] | None = None,
) -> tuple[int, dict[bytes, bytes], bytes]:
    return await asgi_request(ShapedASGIHandler(), path, query, chunks=chunks, headers=headers)


def test_a_query_that_is_not_utf8_is_a_shaped_400_on_the_api() -> None:
    import asyncio

    status, headers, body = asyncio.run(_call("/api/v1/games/open/", b"x=\xff\xfe"))
    assert status == 400 and headers[b"content-type"] == b"application/json"
    assert json.loads(body)["code"] == "bad_request"
    status, headers, _ = asyncio.run(_call("/ladder/", b"x=\xff\xfe"))
    assert status == 400 and not headers[b"content-type"].startswith(b"application/json")


def test_a_body_over_the_limit_is_refused_before_it_is_read(settings) -> None:  # type: ignore[no-untyped-def]
    import asyncio

    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    declared = [(b"content-length", b"50000000")]
    status, _, body = asyncio.run(_call("/api/v1/games/", chunks=[b"{"], headers=declared))
    assert status == 413 and json.loads(body)["code"] == "body_too_large"
    # Streamed (no length declared): refused once it passes the limit.
    streamed = [b"[" * 600, b"[" * 600, b"]" * 10]
    status, _, body = asyncio.run(_call("/api/v1/games/", chunks=streamed))
    assert status == 413 and json.loads(body)["code"] == "body_too_large"
    status, headers, _ = asyncio.run(_call("/accounts/login/", chunks=streamed))
    assert status == 413 and headers[b"content-type"].startswith(b"text/plain")


def test_a_body_under_the_limit_reaches_the_view(transactional_db) -> None:  # type: ignore[no-untyped-def]
    import asyncio

    chunks = [b'{"username": ', b"[1, 2"]  # read whole (two messages), then found malformed
    size = str(sum(map(len, chunks))).encode()
    json_type = [(b"content-type", b"application/json"), (b"content-length", size)]
    status, _, body = asyncio.run(_call("/api/v1/auth/signup/", chunks=chunks, headers=json_type))
    assert status == 400 and json.loads(body)["code"] == "malformed_json", body


@pytest.mark.django_db(transaction=True)
def test_the_site_runs_its_middleware_in_the_request_thread_in_one_go(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each sync middleware hook handed between the loop and the request's thread on its
    own costs a round trip through a busy event loop; the site's chain is entered once."""
    import asyncio

    hops = middleware_thread_hops(monkeypatch)
    status, _, body = asyncio.run(_call("/healthz/"))
    assert status == 200 and json.loads(body) == {"status": "ok"}
    assert hops == [], f"middleware hooks handed to a thread one by one: {hops}"
