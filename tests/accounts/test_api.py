"""The accounts API: /api/v1/me/, /api/v1/tokens/, /api/v1/auth/signup/."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client

from accounts.models import ApiToken, Player
from tests.factories import (
    PASSWORD,
    ApiTokenFactory,
    BotPlayerFactory,
    PlayerFactory,
    UserFactory,
    auth_header,
)

pytestmark = pytest.mark.django_db
JSON = "application/json"


def error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"code", "message", "extra"} and body["code"] == code
    return body


@pytest.fixture(autouse=True)
def _fresh_throttles() -> None:
    # Throttle counters live in the cache, which outlives a test.
    cache.clear()


@pytest.fixture
def session(client: Client) -> tuple[Client, Any]:
    player = PlayerFactory()
    client.force_login(player.user)
    return client, player.user


# --- tokens ------------------------------------------------------------------------------


def test_create_a_token_shows_its_secret_once_and_it_works(session: tuple[Client, Any]) -> None:
    client, user = session
    response = client.post(
        "/api/v1/tokens/", {"name": "cli", "scopes": ["read", "play"]}, content_type=JSON
    )
    assert response.status_code == 201
    body = response.json()
    secret = body["token"]
    assert response["Cache-Control"] == "no-store"
    assert secret.startswith(body["prefix"]) and body["active"] is True
    assert body["scopes"] == ["play", "read"] and body["bot"] is None
    listed = client.get("/api/v1/tokens/").json()
    assert listed["count"] == 1
    assert "token" not in listed["results"][0]
    assert secret not in client.get("/api/v1/tokens/").content.decode()
    me = Client().get("/api/v1/me/", HTTP_AUTHORIZATION=f"Bearer {secret}")
    assert me.status_code == 200 and me.json()["username"] == user.username


def test_list_shows_only_my_tokens_newest_first(session: tuple[Client, Any]) -> None:
    client, user = session
    older = ApiTokenFactory(user=user, name="older")
    newer = ApiTokenFactory(user=user, name="newer")
    ApiTokenFactory(name="someone else's")
    results = client.get("/api/v1/tokens/").json()["results"]
    assert [t["id"] for t in results] == [newer.pk, older.pk]


def test_create_a_token_for_my_bot(session: tuple[Client, Any]) -> None:
    client, user = session
    BotPlayerFactory(owner=user, name="MyBot")
    response = client.post(
        "/api/v1/tokens/", {"name": "bot", "scopes": ["bot"], "bot": "mybot"}, content_type=JSON
    )
    assert response.status_code == 201 and response.json()["bot"] == "MyBot"


def test_a_token_for_someone_elses_bot_is_403(session: tuple[Client, Any]) -> None:
    client, _ = session
    BotPlayerFactory(name="TheirBot")
    response = client.post(
        "/api/v1/tokens/", {"name": "b", "scopes": ["bot"], "bot": "TheirBot"}, content_type=JSON
    )
    error(response, 403, "not_your_bot")
    assert not ApiToken.objects.exists()


def test_a_token_for_an_unknown_bot_is_404(session: tuple[Client, Any]) -> None:
    client, _ = session
    response = client.post(
        "/api/v1/tokens/", {"name": "b", "scopes": ["bot"], "bot": "ghost"}, content_type=JSON
    )
    error(response, 404, "not_found")


@pytest.mark.parametrize(
    "payload",
    [
        {},
        {"name": "x"},
        {"name": "x", "scopes": []},
        {"name": "x", "scopes": ["admin"]},
        {"name": "", "scopes": ["read"]},
        {"name": "x", "scopes": "read"},
    ],
)
def test_bad_token_requests_are_400_invalid(
    session: tuple[Client, Any], payload: dict[str, Any]
) -> None:
    client, _ = session
    body = error(client.post("/api/v1/tokens/", payload, content_type=JSON), 400, "invalid")
    assert body["extra"]["fields"]
    assert not ApiToken.objects.exists()


def test_malformed_json_to_tokens_is_400_malformed_json(session: tuple[Client, Any]) -> None:
    client, _ = session
    error(client.post("/api/v1/tokens/", "{nope", content_type=JSON), 400, "malformed_json")


def test_tokens_need_a_login(client: Client) -> None:
    error(client.get("/api/v1/tokens/"), 401, "not_authenticated")
    error(client.post("/api/v1/tokens/", {}, content_type=JSON), 401, "not_authenticated")
    error(client.delete("/api/v1/tokens/1/"), 401, "not_authenticated")


def test_a_token_cannot_manage_tokens(client: Client) -> None:
    token = ApiTokenFactory()
    error(client.get("/api/v1/tokens/", **auth_header(token)), 403, "insufficient_scope")
    response = client.post(
        "/api/v1/tokens/",
        {"name": "x", "scopes": ["read"]},
        content_type=JSON,
        **auth_header(token),
    )
    error(response, 403, "insufficient_scope")
    error(
        client.delete(f"/api/v1/tokens/{token.pk}/", **auth_header(token)),
        403,
        "insufficient_scope",
    )
    assert ApiToken.objects.count() == 1


def test_revoke_a_token_stops_it_at_once(session: tuple[Client, Any]) -> None:
    client, user = session
    token = ApiTokenFactory(user=user)
    assert Client().get("/api/v1/me/", **auth_header(token)).status_code == 200
    assert client.delete(f"/api/v1/tokens/{token.pk}/").status_code == 204
    error(Client().get("/api/v1/me/", **auth_header(token)), 401, "token_revoked")
    assert client.delete(f"/api/v1/tokens/{token.pk}/").status_code == 204
    listed = client.get("/api/v1/tokens/").json()["results"][0]
    assert listed["active"] is False and listed["revoked_at"]


def test_revoking_someone_elses_token_is_404_and_changes_nothing(
    session: tuple[Client, Any],
) -> None:
    client, _ = session
    other = ApiTokenFactory()
    error(client.delete(f"/api/v1/tokens/{other.pk}/"), 404, "not_found")
    error(client.delete("/api/v1/tokens/999999/"), 404, "not_found")
    other.refresh_from_db()
    assert other.revoked_at is None


def test_wrong_methods_are_405(session: tuple[Client, Any]) -> None:
    client, _ = session
    error(client.put("/api/v1/tokens/", {}, content_type=JSON), 405, "method_not_allowed")
    error(client.get("/api/v1/tokens/1/"), 405, "method_not_allowed")
    error(client.post("/api/v1/me/"), 405, "method_not_allowed")


# --- me ----------------------------------------------------------------------------------


def test_me_with_a_session(session: tuple[Client, Any]) -> None:
    client, user = session
    BotPlayerFactory(owner=user, name="zeta")
    body = client.get("/api/v1/me/").json()
    assert body["username"] == user.username
    assert body["player"]["name"] == user.player.name and body["player"]["is_bot"] is False
    assert [b["name"] for b in body["bots"]] == ["zeta"]
    assert body["auth"] == "session" and body["scopes"] == ["bot", "play", "read"]
    assert body["token"] is None


def test_me_with_a_token_shows_its_scopes(client: Client) -> None:
    token = ApiTokenFactory(scopes=["read"])
    body = client.get("/api/v1/me/", **auth_header(token)).json()
    assert body["auth"] == "token" and body["scopes"] == ["read"]
    assert body["token"]["id"] == token.pk and "token" not in body["token"]


def test_me_makes_the_player_of_an_account_without_one(client: Client) -> None:
    user = UserFactory(username="newcomer")
    client.force_login(user)
    assert client.get("/api/v1/me/").json()["player"]["name"] == "newcomer"


def test_me_needs_authentication(client: Client) -> None:
    response = client.get("/api/v1/me/")
    error(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"].startswith("Bearer")


# --- sign-up -----------------------------------------------------------------------------


def test_api_signup_makes_account_player_and_first_token(client: Client) -> None:
    response = client.post(
        "/api/v1/auth/signup/",
        {"username": "carol", "password": PASSWORD, "name": "Carol_C"},
        content_type=JSON,
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert response["Cache-Control"] == "no-store"
    assert body["username"] == "carol" and body["player"]["name"] == "Carol_C"
    assert body["token"]["scopes"] == ["play", "read"]
    me = Client().get("/api/v1/me/", HTTP_AUTHORIZATION=f"Bearer {body['token']['token']}")
    assert me.json()["player"]["name"] == "Carol_C"
    # The password works on the site's login form.
    login = client.post("/accounts/login/", {"username": "carol", "password": PASSWORD})
    assert login.status_code == 302


@pytest.mark.parametrize(
    ("payload", "status", "code"),
    [
        ({"username": "dave", "password": PASSWORD}, 400, "invalid"),
        ({"username": "dave", "password": "short", "name": "Dave"}, 400, "invalid"),
        ({"username": "bad name!", "password": PASSWORD, "name": "Dave"}, 400, "invalid"),
        ({"username": "dave", "password": PASSWORD, "name": "no spaces"}, 400, "invalid_name"),
        ({"username": "TAKEN", "password": PASSWORD, "name": "Dave"}, 409, "username_taken"),
        ({"username": "dave", "password": PASSWORD, "name": "TAKEN-NAME"}, 409, "name_taken"),
        (
            {"username": "dave", "password": PASSWORD, "name": "Dave", "scopes": ["x"]},
            400,
            "invalid",
        ),
    ],
)
def test_api_signup_errors_write_nothing(
    client: Client, payload: dict[str, Any], status: int, code: str
) -> None:
    PlayerFactory(name="taken-name", user=UserFactory(username="taken"))
    users, players = get_user_model().objects.count(), Player.objects.count()
    error(client.post("/api/v1/auth/signup/", payload, content_type=JSON), status, code)
    assert get_user_model().objects.count() == users
    assert Player.objects.count() == players
    assert not ApiToken.objects.exists()


def test_api_signup_is_rate_limited_per_address(client: Client, settings: Any) -> None:
    settings.ACCOUNTS_API_SIGNUP_RATE = "2/hour"
    for i in range(2):
        response = client.post(
            "/api/v1/auth/signup/",
            {"username": f"u{i}", "password": PASSWORD, "name": f"name{i}"},
            content_type=JSON,
        )
        assert response.status_code == 201
    users = get_user_model().objects.count()
    response = client.post(
        "/api/v1/auth/signup/",
        {"username": "u3", "password": PASSWORD, "name": "name3"},
        content_type=JSON,
    )
    body = error(response, 429, "throttled")
    assert body["extra"]["wait"] > 0 and int(response["Retry-After"]) > 0
    assert get_user_model().objects.count() == users


# --- OpenAPI -----------------------------------------------------------------------------


def test_the_schema_describes_bearer_auth_and_the_accounts_endpoints(client: Client) -> None:
    schema = yaml.safe_load(client.get("/api/schema/").content)
    assert schema["components"]["securitySchemes"]["bearerAuth"] == {
        "type": "http",
        "scheme": "bearer",
        "bearerFormat": "bac_…",
        "description": schema["components"]["securitySchemes"]["bearerAuth"]["description"],
    }
    for path in [
        "/api/v1/me/",
        "/api/v1/tokens/",
        "/api/v1/tokens/{token_id}/",
        "/api/v1/auth/signup/",
    ]:
        assert path in schema["paths"], path
    me_security = schema["paths"]["/api/v1/me/"]["get"]["security"]
    assert {"bearerAuth": []} in me_security


@pytest.mark.django_db
def test_a_person_turns_autoplay_off_and_on_with_the_play_scope() -> None:
    from rest_framework.test import APIClient

    from tests.factories import ApiTokenFactory, PlayerFactory

    player = PlayerFactory()
    assert player.autoplay is True
    client = APIClient()
    reader = ApiTokenFactory(user=player.user, scopes=["read"])
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {reader.secret}")
    assert client.get("/api/v1/me/").json()["autoplay"] is True
    r = client.patch("/api/v1/me/", {"autoplay": False}, format="json")
    assert (r.status_code, r.json()["code"]) == (403, "insufficient_scope")
    player_token = ApiTokenFactory(user=player.user, scopes=["play"])
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {player_token.secret}")
    r = client.patch("/api/v1/me/", {"autoplay": False}, format="json")
    assert r.status_code == 200 and r.json()["autoplay"] is False
    player.refresh_from_db()
    assert player.autoplay is False
