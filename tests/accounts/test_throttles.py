"""Sign-up and login limits: counted per real client address in the shared cache, on the
site as on the API, with django-axes locking out a username after repeated wrong passwords."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.test import Client

from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db
JSON = "application/json"


@pytest.fixture(autouse=True)
def _fresh(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()


def _api_signup(client: Client, n: int, **headers: str) -> int:
    payload = {"username": f"u{n}", "password": PASSWORD, "name": f"Player_{n}"}
    return client.post("/api/v1/auth/signup/", payload, content_type=JSON, **headers).status_code


def _site_signup(client: Client, n: int, **headers: str) -> int:
    payload = {
        "username": f"s{n}",
        "name": f"Site_{n}",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    return client.post("/accounts/signup/", payload, **headers).status_code


def test_the_throttle_cache_is_shared_by_every_process() -> None:
    backend = django_settings.CACHES["default"]["BACKEND"]
    assert backend in {
        "django.core.cache.backends.db.DatabaseCache",
        "django.core.cache.backends.redis.RedisCache",
    }


def test_x_forwarded_for_does_not_buy_a_new_address(settings: Any) -> None:
    settings.ACCOUNTS_API_SIGNUP_RATE = "3/hour"
    client = Client()
    codes = [_api_signup(client, n, HTTP_X_FORWARDED_FOR=f"203.0.113.{n}") for n in range(5)]
    assert codes == [201, 201, 201, 429, 429]


def test_behind_a_configured_proxy_the_forwarded_address_counts(settings: Any) -> None:
    settings.ACCOUNTS_API_SIGNUP_RATE = "1/hour"
    settings.NUM_PROXIES = 1
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    client = Client()
    assert _api_signup(client, 1, HTTP_X_FORWARDED_FOR="203.0.113.1") == 201
    assert _api_signup(client, 2, HTTP_X_FORWARDED_FOR="203.0.113.2") == 201
    assert _api_signup(client, 3, HTTP_X_FORWARDED_FOR="203.0.113.2") == 429


def test_site_and_api_sign_ups_share_one_budget_per_address(settings: Any) -> None:
    settings.ACCOUNTS_API_SIGNUP_RATE = "3/hour"
    assert _site_signup(Client(), 1) == 302
    assert _api_signup(Client(), 2) == 201
    assert _site_signup(Client(), 3) == 302
    blocked = Client().post(
        "/accounts/signup/",
        {"username": "s9", "name": "Site_9", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert blocked.status_code == 429 and b"Too many sign-ups" in blocked.content
    assert _api_signup(Client(), 4) == 429


def test_site_login_attempts_are_limited_per_address(settings: Any) -> None:
    settings.ACCOUNTS_LOGIN_RATE = "4/hour"
    settings.AXES_FAILURE_LIMIT = 100
    UserFactory(username="erin")
    client = Client()
    codes = [
        client.post("/accounts/login/", {"username": "erin", "password": "wrong"}).status_code
        for _ in range(5)
    ]
    assert codes == [200, 200, 200, 200, 429]


def test_wrong_passwords_lock_the_login_out_even_for_the_right_one(settings: Any) -> None:
    settings.AXES_FAILURE_LIMIT = 5
    UserFactory(username="frank")
    client = Client()
    for _ in range(5):
        client.post("/accounts/login/", {"username": "frank", "password": "wrong"})
    right = client.post("/accounts/login/", {"username": "frank", "password": PASSWORD})
    assert right.status_code == 429
    assert "_auth_user_id" not in client.session
    # Another user from the same address is not locked out by frank's failures.
    UserFactory(username="grace")
    other = Client().post("/accounts/login/", {"username": "grace", "password": PASSWORD})
    assert other.status_code == 302


def test_a_good_login_before_the_limit_resets_the_count(settings: Any) -> None:
    settings.AXES_FAILURE_LIMIT = 3
    UserFactory(username="heidi")
    client = Client()
    for _ in range(2):
        client.post("/accounts/login/", {"username": "heidi", "password": "wrong"})
    assert (
        client.post("/accounts/login/", {"username": "heidi", "password": PASSWORD}).status_code
        == 302
    )
    client.logout()
    for _ in range(2):
        client.post("/accounts/login/", {"username": "heidi", "password": "wrong"})
    assert (
        client.post("/accounts/login/", {"username": "heidi", "password": PASSWORD}).status_code
        == 302
    )
