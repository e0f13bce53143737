"""The client's calls: typed errors with the service's codes, safe retries."""

import json

import httpx
import pytest

from backalley_bot import ApiError, Client, IllegalMove, NotYourSeat, StaleState, TransportError


def _client(handler) -> tuple[Client, list[float]]:  # type: ignore[no-untyped-def]
    waits: list[float] = []
    http = httpx.Client(transport=httpx.MockTransport(handler))
    return Client("http://club.test/", "tok", http=http, sleep=waits.append), waits


def test_refusals_raise_the_error_of_their_code() -> None:
    answers = {
        "stale_state": (409, StaleState),
        "must_follow_suit": (400, IllegalMove),
        "not_your_seat": (403, NotYourSeat),
        "something_new": (409, ApiError),
    }

    def handler(request: httpx.Request) -> httpx.Response:
        code = request.headers["X-Code"]
        status = answers[code][0]
        return httpx.Response(status, json={"code": code, "message": "No.", "extra": {"k": 1}})

    client, waits = _client(handler)
    for code, (status, cls) in answers.items():
        with pytest.raises(cls) as caught:
            client.http.headers["X-Code"] = code
            client.move("g_1", "AS", expected_seq=3, seat=1)
        assert (caught.value.code, caught.value.status, caught.value.extra) == (
            code,
            status,
            {"k": 1},
        )
    assert waits == []  # a refusal is never retried


def test_a_move_is_retried_with_the_same_idempotency_key() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if len(seen) == 1:
            raise httpx.ConnectError("down")
        if len(seen) == 2:
            return httpx.Response(502, text="bad gateway")
        return httpx.Response(201, json={"move": {"seq": 3, "seat": 1, "action": "AS"}})

    client, waits = _client(handler)
    answer = client.move("g_1", "AS", expected_seq=3, seat=1)
    assert answer["move"]["seq"] == 3
    keys = {r.headers["Idempotency-Key"] for r in seen}
    assert keys == {"move:g_1:1:3"}
    assert seen[0].headers["Authorization"] == "Bearer tok"
    assert str(seen[0].url) == "http://club.test/api/v1/games/g_1/moves/"
    assert json.loads(seen[0].content) == {
        "action": {"card": "AS"},
        "expected_seq": 3,
        "seat": 1,
    }
    assert waits == [0.2, 0.4]


def test_a_write_without_a_key_is_not_retried() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("down")

    client, _ = _client(handler)
    with pytest.raises(TransportError):
        client.register_bot("Mine", "api")
