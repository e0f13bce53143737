"""DJANGO_ENV=production: DEBUG off, no default secret, HTTPS only, `check --deploy` clean.

Each case runs `manage.py` in a fresh process, as a deployment would, with only the
environment it names (no .env file, no developer defaults).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DJANGO_ENV": "production",
    "DJANGO_SECRET_KEY": "p" * 20 + "roduction-secret-key-with-enough-entropy-0123456789",
    "BOTS_WEBHOOK_KEY": "w" * 20 + "ebhook-key-with-enough-entropy-0123456789",
    "DJANGO_ALLOWED_HOSTS": "backalley.example.com",
}


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG"}}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def settings_value(name: str, **env: str) -> str:
    code = f"from django.conf import settings; print(repr(settings.{name}))"
    result = manage("shell", "-c", code, **env)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


def issues(output: str) -> list[str]:
    """The check ids reported (``security.W004``, ...), except the API schema's own
    (``drf_spectacular.W001``, about how the schema is generated, not about deployment)."""
    found = re.findall(r"\(([a-z_]+\.[EW]\d+)\)", output)
    return [i for i in found if not i.startswith("drf_spectacular.")]


def test_check_deploy_is_clean_under_production_settings() -> None:
    result = manage("check", "--deploy", "--fail-level", "ERROR", **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert issues(result.stdout + result.stderr) == []


def test_check_deploy_fails_on_the_local_defaults() -> None:
    # The same check notices what production must not have (proves the check has teeth).
    result = manage("check", "--deploy")
    found = issues(result.stdout + result.stderr)
    assert {"security.W004", "security.W008", "security.W012", "security.W018"} <= set(found)


@pytest.mark.parametrize(
    "missing", ["DJANGO_SECRET_KEY", "BOTS_WEBHOOK_KEY", "DJANGO_ALLOWED_HOSTS"]
)
def test_production_refuses_to_start_without_its_secrets_and_hosts(missing: str) -> None:
    env = {k: v for k, v in PRODUCTION.items() if k != missing}
    result = manage("check", **env)
    assert result.returncode != 0
    assert f"{missing} must" in result.stderr


def test_production_refuses_debug_a_wildcard_host_and_a_shared_webhook_key() -> None:
    assert "DJANGO_DEBUG cannot be on" in manage("check", **PRODUCTION, DJANGO_DEBUG="true").stderr
    wildcard = manage("check", **{**PRODUCTION, "DJANGO_ALLOWED_HOSTS": "*"})
    assert "DJANGO_ALLOWED_HOSTS must" in wildcard.stderr
    shared = manage("check", **{**PRODUCTION, "BOTS_WEBHOOK_KEY": PRODUCTION["DJANGO_SECRET_KEY"]})
    assert "must differ" in shared.stderr


def test_production_values_and_the_local_zero_setup_defaults() -> None:
    assert settings_value("DEBUG", **PRODUCTION) == "False"
    assert settings_value("SESSION_COOKIE_SECURE", **PRODUCTION) == "True"
    assert settings_value("SECURE_SSL_REDIRECT", **PRODUCTION) == "True"
    assert settings_value("REST_FRAMEWORK['NUM_PROXIES']", **PRODUCTION) == "0"
    proxied = {**PRODUCTION, "DJANGO_SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto"}
    assert settings_value("SECURE_PROXY_SSL_HEADER", **proxied) == (
        "('HTTP_X_FORWARDED_PROTO', 'https')"
    )
    # No environment at all: the local defaults, DEBUG on only here.
    assert settings_value("DEBUG") == "True"
    assert settings_value("SECURE_SSL_REDIRECT") == "False"


def test_the_image_and_compose_run_the_production_settings_with_no_default_secret() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "ENV DJANGO_ENV=production" in dockerfile
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    for name in ["migrate", "web", "worker", "beat"]:
        env = compose["services"][name]["environment"]
        assert env["DJANGO_ENV"] == "production"
        for key in ["DJANGO_SECRET_KEY", "BOTS_WEBHOOK_KEY"]:
            # ${VAR:?message}: compose stops with the message when the variable is unset.
            assert env[key].startswith("${" + key + ":?"), env[key]
        assert env["CACHE_URL"].startswith("redis://")
