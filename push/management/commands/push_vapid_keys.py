"""Print a new VAPID key pair for the environment (docs/push.md)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from push.vapid import generate_pair


class Command(BaseCommand):
    help = (
        "Print a new VAPID key pair as environment lines (PUSH_VAPID_PUBLIC_KEY, "
        "PUSH_VAPID_PRIVATE_KEY). Generate it once per site: the browsers' subscriptions are "
        "bound to the public key, so a new pair leaves every device to subscribe again."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        public, private = generate_pair()
        self.stdout.write(f"PUSH_VAPID_PUBLIC_KEY={public}")
        self.stdout.write(f"PUSH_VAPID_PRIVATE_KEY={private}")
