"""The VAPID key pair: made by a command, checked by the production settings."""

from __future__ import annotations

import doctest
import io

from django.core.management import call_command

from push import devices, vapid
from push.vapid import public_of
from tests.backalley_site.test_production_settings import PRODUCTION, manage


def test_the_command_prints_a_matching_pair_as_environment_lines() -> None:
    out = io.StringIO()
    call_command("push_vapid_keys", stdout=out)
    lines = dict(line.split("=", 1) for line in out.getvalue().split())
    assert set(lines) == {"PUSH_VAPID_PUBLIC_KEY", "PUSH_VAPID_PRIVATE_KEY"}
    assert public_of(lines["PUSH_VAPID_PRIVATE_KEY"]) == lines["PUSH_VAPID_PUBLIC_KEY"]
    again = io.StringIO()
    call_command("push_vapid_keys", stdout=again)
    assert again.getvalue() != out.getvalue()


def test_the_modules_examples_hold() -> None:
    for module in (vapid, devices):
        assert doctest.testmod(module).failed == 0


def test_production_refuses_to_start_with_push_on_and_no_key() -> None:
    public, private = vapid.generate_pair()
    keys = {"PUSH_VAPID_PUBLIC_KEY": public, "PUSH_VAPID_PRIVATE_KEY": private}
    for missing in keys:
        env = {k: v for k, v in keys.items() if k != missing}
        result = manage("check", **PRODUCTION, PUSH_ENABLED="true", **env)
        assert result.returncode != 0
        assert f"{missing} must be set" in result.stderr
    no_subject = manage("check", **PRODUCTION, PUSH_ENABLED="true", **keys)
    assert "PUSH_VAPID_SUBJECT must be set" in no_subject.stderr
    ok = manage(
        "check",
        **PRODUCTION,
        PUSH_ENABLED="true",
        PUSH_VAPID_SUBJECT="mailto:ops@x.example",
        **keys,
    )
    assert ok.returncode == 0, ok.stderr
    # Push off: no key is needed.
    assert manage("check", **PRODUCTION).returncode == 0
