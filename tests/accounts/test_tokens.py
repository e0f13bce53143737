"""API tokens: creation, hashing, Bearer authentication and scope checks."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import path
from django.utils import timezone
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import ApiToken
from accounts.permissions import HasScope
from accounts.tokens import MAX_ACTIVE_TOKENS, token_create, token_find, token_hash, token_revoke
from backalley_site.errors import DomainError
from tests.factories import ApiTokenFactory, BotPlayerFactory, UserFactory, auth_header

pytestmark = pytest.mark.django_db


class PlayView(APIView):
    permission_classes = [HasScope("play")]

    def post(self, request: Request) -> Response:
        return Response({"user": request.user.get_username()})


class ReadBotView(APIView):
    permission_classes = [HasScope("read", "bot")]

    def get(self, request: Request) -> Response:
        return Response({"ok": True})


urlpatterns = [
    path("api/test/play/", PlayView.as_view()),
    path("api/test/readbot/", ReadBotView.as_view()),
]


def test_token_create_stores_only_a_hash_and_returns_the_secret_once() -> None:
    user = UserFactory()
    token, secret = token_create(user=user, name="laptop", scopes=["play", "read", "play"])
    assert secret.startswith("bac_") and len(secret) == 4 + 43
    stored = ApiToken.objects.get(pk=token.pk)
    assert stored.key_hash == token_hash(secret) != secret
    assert secret not in {str(v) for v in vars(stored).values()}
    assert stored.prefix == secret[:12]
    assert stored.scopes == ["play", "read"]
    assert token_find(secret) == stored
    assert token_find(secret + "x") is None


def test_two_tokens_never_share_a_secret() -> None:
    user = UserFactory()
    secrets = {token_create(user=user, name=f"t{i}", scopes=["read"])[1] for i in range(20)}
    assert len(secrets) == 20


@pytest.mark.parametrize("scopes", [[], ["admin"], ["read", "write"]])
def test_unknown_or_empty_scopes_are_refused(scopes: list[str]) -> None:
    with pytest.raises(DomainError) as err:
        token_create(user=UserFactory(), name="t", scopes=scopes)
    assert err.value.code == "invalid_scopes"
    assert not ApiToken.objects.exists()


def test_a_token_name_is_required() -> None:
    with pytest.raises(DomainError) as err:
        token_create(user=UserFactory(), name="  ", scopes=["read"])
    assert err.value.code == "invalid_name"


def test_a_bot_token_needs_your_own_bot_and_the_bot_scope() -> None:
    owner = UserFactory()
    bot = BotPlayerFactory(owner=owner)
    token, _ = token_create(user=owner, name="bot", scopes=["bot"], bot=bot)
    assert token.bot == bot
    with pytest.raises(DomainError) as err:
        token_create(user=UserFactory(), name="steal", scopes=["bot"], bot=bot)
    assert err.value.code == "not_your_bot" and err.value.http_status == 403
    with pytest.raises(DomainError) as err:
        token_create(user=owner, name="noscope", scopes=["play"], bot=bot)
    assert err.value.code == "invalid_scopes"


def test_active_tokens_are_limited(settings) -> None:  # type: ignore[no-untyped-def]
    user = UserFactory()
    ApiTokenFactory.create_batch(MAX_ACTIVE_TOKENS, user=user)
    with pytest.raises(DomainError) as err:
        token_create(user=user, name="one more", scopes=["read"])
    assert err.value.code == "too_many_tokens" and err.value.http_status == 409
    token_revoke(user=user, token_id=ApiToken.objects.filter(user=user).first().pk)
    token_create(user=user, name="one more", scopes=["read"])


def test_revoke_is_idempotent_and_private_to_the_owner() -> None:
    token = ApiTokenFactory()
    first = token_revoke(user=token.user, token_id=token.pk).revoked_at
    assert first is not None
    assert token_revoke(user=token.user, token_id=token.pk).revoked_at == first
    with pytest.raises(DomainError) as err:
        token_revoke(user=UserFactory(), token_id=token.pk)
    assert err.value.code == "not_found"


@pytest.mark.urls("tests.accounts.test_tokens")
def test_bearer_token_authenticates_and_records_last_use(client: Client) -> None:
    token = ApiTokenFactory(scopes=["play"])
    assert token.last_used_at is None
    response = client.post("/api/test/play/", **auth_header(token))
    assert response.status_code == 200
    assert response.json() == {"user": token.user.username}
    token.refresh_from_db()
    assert token.last_used_at is not None


@pytest.mark.urls("tests.accounts.test_tokens")
def test_last_use_is_written_at_most_once_a_minute(client: Client) -> None:
    token = ApiTokenFactory(scopes=["play"])
    with time_machine.travel(timezone.now(), tick=False) as clock:
        client.post("/api/test/play/", **auth_header(token))
        token.refresh_from_db()
        first = token.last_used_at
        clock.shift(timedelta(seconds=30))
        client.post("/api/test/play/", **auth_header(token))
        token.refresh_from_db()
        assert token.last_used_at == first
        clock.shift(timedelta(seconds=31))
        client.post("/api/test/play/", **auth_header(token))
        token.refresh_from_db()
        assert token.last_used_at > first


@pytest.mark.urls("tests.accounts.test_tokens")
@pytest.mark.parametrize(
    "header",
    [
        "Bearer bac_not-a-real-token",
        "Bearer something-else",
        "Bearer",
        "Bearer two parts",
        "bearer bac_" + "A" * 43,
    ],
)
def test_unknown_or_malformed_tokens_are_401_invalid_token(client: Client, header: str) -> None:
    response = client.post("/api/test/play/", HTTP_AUTHORIZATION=header)
    assert response.status_code == 401
    assert response.json()["code"] == "invalid_token"
    assert response["WWW-Authenticate"] == 'Bearer realm="api"'


@pytest.mark.urls("tests.accounts.test_tokens")
def test_a_non_ascii_token_is_401_invalid_token(client: Client) -> None:
    response = client.post("/api/test/play/", HTTP_AUTHORIZATION="Bearer bac_\u00e9t\u00e9")
    assert response.status_code == 401
    assert response.json()["code"] == "invalid_token"


@pytest.mark.urls("tests.accounts.test_tokens")
def test_a_revoked_token_is_refused_with_its_own_code(client: Client) -> None:
    token = ApiTokenFactory(revoked_at=timezone.now())
    response = client.post("/api/test/play/", **auth_header(token))
    assert response.status_code == 401
    body = response.json()
    assert body["code"] == "token_revoked"
    assert token.secret not in response.content.decode()


@pytest.mark.urls("tests.accounts.test_tokens")
def test_a_disabled_account_cannot_use_its_token(client: Client) -> None:
    token = ApiTokenFactory(user=UserFactory(is_active=False))
    response = client.post("/api/test/play/", **auth_header(token))
    assert response.status_code == 401
    assert response.json()["code"] == "user_inactive"


@pytest.mark.urls("tests.accounts.test_tokens")
def test_a_token_without_the_scope_is_403_insufficient_scope(client: Client) -> None:
    token = ApiTokenFactory(scopes=["read"])
    response = client.post("/api/test/play/", **auth_header(token))
    assert response.status_code == 403
    body = response.json()
    assert body["code"] == "insufficient_scope"
    assert body["extra"] == {"required": ["play"], "granted": ["read"]}
    assert "'play'" in body["message"]


@pytest.mark.urls("tests.accounts.test_tokens")
def test_all_named_scopes_are_required(client: Client) -> None:
    assert client.get("/api/test/readbot/", **auth_header(ApiTokenFactory(scopes=["read"]))).json()[
        "extra"
    ]["required"] == ["read", "bot"]
    ok = client.get("/api/test/readbot/", **auth_header(ApiTokenFactory(scopes=["read", "bot"])))
    assert ok.status_code == 200


@pytest.mark.urls("tests.accounts.test_tokens")
def test_a_session_user_holds_every_scope(client: Client) -> None:
    client.force_login(UserFactory())
    assert client.get("/api/test/readbot/").status_code == 200
    assert client.post("/api/test/play/").status_code == 200


@pytest.mark.urls("tests.accounts.test_tokens")
def test_anonymous_requests_are_401_not_authenticated(client: Client) -> None:
    response = client.post("/api/test/play/")
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


@pytest.mark.urls("tests.accounts.test_tokens")
def test_session_writes_need_the_csrf_token() -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(UserFactory())
    response = client.post("/api/test/play/")
    assert response.status_code == 403
    assert response.json()["code"] == "csrf_failed"


def test_has_scope_refuses_unknown_scopes() -> None:
    with pytest.raises(ValueError):
        HasScope("admin")
