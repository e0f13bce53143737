"""A browser's side of Web Push, for the tests: its key pair and auth secret, the
subscription it hands the site, and the decryption of what its push service received."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from push.vapid import b64url, generate_pair

PUBLIC, PRIVATE = generate_pair()
PUSH_SETTINGS = {
    "PUSH_ENABLED": True,
    "PUSH_VAPID_PUBLIC_KEY": PUBLIC,
    "PUSH_VAPID_PRIVATE_KEY": PRIVATE,
    "PUSH_VAPID_SUBJECT": "mailto:ops@backalley.example",
    "PUSH_ALLOW_PRIVATE_ENDPOINTS": True,
}


@dataclass
class Browser:
    """What ``PushManager.subscribe()`` makes: a P-256 key pair and a 16-byte secret."""

    endpoint: str = "https://push.example.net/v1/abc123"
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    secret: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        return b64url(
            self.key.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )

    @property
    def auth(self) -> str:
        return b64url(self.secret)

    def subscription(self) -> dict[str, Any]:
        """The body of ``PushSubscription.toJSON()``."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}

    def decrypt(self, body: bytes) -> dict[str, Any]:
        """The payload of one push (aes128gcm, RFC 8291), as the browser reads it."""
        plain = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.secret, version="aes128gcm"
        )
        loaded: dict[str, Any] = json.loads(plain)
        return loaded
