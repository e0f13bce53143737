"""No input is a 500: bad path parameters are 404s, unreadable bodies, queries and headers 400s."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):  # type: ignore[no-untyped-def]
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


BAD_SEGMENTS = ["%00", "a%0d%0ab", "%1b%5b2J"]
API_PATHS = [
    "/api/v1/games/{}/",
    "/api/v1/games/{}/moves/",
    "/api/v1/games/{}/record/",
    "/api/v1/bots/{}/",
    "/api/v1/bots/{}/faults/",
    "/api/v1/ladder/players/{}/",
    "/api/v1/ladder/players/{}/games/",
]
PAGE_PATHS = ["/games/{}/", "/ladder/players/{}/", "/ladder/games/{}/"]


def _client(logged_in: bool) -> Client:
    client = Client(raise_request_exception=False)
    if logged_in:
        client.force_login(PlayerFactory().user)
    return client


def _assert_shape(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.content[:300]
    assert response.json()["code"] == code


@pytest.mark.parametrize("logged_in", [False, True])
@pytest.mark.parametrize("segment", BAD_SEGMENTS)
@pytest.mark.parametrize("template", API_PATHS)
def test_a_bad_path_parameter_is_a_404_on_the_api(template, segment, logged_in) -> None:  # type: ignore[no-untyped-def]
    _assert_shape(_client(logged_in).get(template.format(segment)), 404, "not_found")


@pytest.mark.parametrize("logged_in", [False, True])
@pytest.mark.parametrize("template", PAGE_PATHS)
def test_a_bad_path_parameter_is_a_404_page(template, logged_in) -> None:  # type: ignore[no-untyped-def]
    response = _client(logged_in).get(template.format("%00"))
    assert response.status_code == 404


@pytest.mark.parametrize(
    "body",
    [
        "[" * 40_000,
        "[" * 5_000 + "]" * 5_000,
        '{"a":' * 2_000 + "1" + "}" * 2_000,
        '{"name": "x\\u0000y"}',
        '{"params": {"k": "\\ud800"}}',
        '{"\\u0000": 1}',
    ],
)
def test_unstorable_or_too_deep_json_is_malformed_json(body) -> None:  # type: ignore[no-untyped-def]
    client = _client(logged_in=True)
    for path in ["/api/v1/games/", "/api/v1/bots/", "/api/v1/auth/signup/"]:
        response = client.post(path, data=body, content_type="application/json")
        _assert_shape(response, 400, "malformed_json")


def test_an_unknown_charset_is_malformed_json() -> None:
    response = _client(logged_in=True).generic(
        "POST", "/api/v1/games/", b"{}", content_type="application/json; charset=no-such-codec"
    )
    assert response.status_code == 400 and response.json()["code"] in {"malformed_json", "invalid"}


@pytest.mark.parametrize(
    "headers",
    [
        {"HTTP_IDEMPOTENCY_KEY": "k\x00"},
        {"HTTP_AUTHORIZATION": "Bearer bac_\x00"},
        {"HTTP_X_ANYTHING": "\x1b[2J"},
    ],
)
def test_control_characters_in_a_header_are_a_400(headers) -> None:  # type: ignore[no-untyped-def]
    response = _client(logged_in=True).get("/api/v1/games/mine/", **headers)
    _assert_shape(response, 400, "bad_request")


@pytest.mark.parametrize("query", ["status=%00", "%00=1", "page=%0a"])
def test_control_characters_in_the_query_are_a_400(query) -> None:  # type: ignore[no-untyped-def]
    client = _client(logged_in=True)
    _assert_shape(client.get(f"/api/v1/games/open/?{query}"), 400, "bad_request")
    assert client.get(f"/ladder/?{query}").status_code == 400
