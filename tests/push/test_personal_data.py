"""A person's devices in their data archive (without keys), and gone with their account."""

from __future__ import annotations

import json

import pytest
from django.test import override_settings

from accounts import personal_data
from accounts.privacy import account_delete
from push.models import PushSubscription
from push.services import subscription_save
from tests.factories import PlayerFactory, UserFactory
from tests.push.helpers import PUSH_SETTINGS, Browser

pytestmark = pytest.mark.django_db


@override_settings(**PUSH_SETTINGS)
def test_the_archive_lists_the_devices_without_their_keys_and_deletion_drops_them() -> None:
    user = UserFactory()
    user.set_password("a-long-password-1")
    user.save()
    me, other = PlayerFactory(user=user), PlayerFactory()
    browser = Browser()
    subscription_save(player=me, user_agent="Firefox · Android", **_fields(browser))
    subscription_save(player=other, **_fields(Browser(endpoint="https://push.example.net/v1/2")))
    section = dict(personal_data.exporters())["push"](personal_data.Subject(user=user, player=me))
    assert [d["name"] for d in section["devices"]] == ["Firefox · Android"]
    text = json.dumps(section)
    for secret in (browser.endpoint, browser.p256dh, browser.auth):
        assert secret not in text

    account_delete(user=user, password="a-long-password-1")

    assert list(PushSubscription.objects.values_list("player", flat=True)) == [other.pk]


def _fields(browser: Browser) -> dict[str, str]:
    return {"endpoint": browser.endpoint, "p256dh": browser.p256dh, "auth": browser.auth}
