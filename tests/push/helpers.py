"""A browser's side of Web Push, for the tests: its key pair and auth secret, the
subscription it hands the site, and the decryption of what its push service received."""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from push.vapid import b64url, b64url_decode, generate_pair

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


# --- A push service on loopback -------------------------------------------------------------
@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    status: int  # what the fake answered


class FakePushService:
    """A push service on 127.0.0.1 (RFC 8030's receiving end): it records every request
    it gets and answers each path with the statuses queued for it, then 201."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self._answers: dict[str, list[int]] = {}
        self._lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with service._lock:
                    queued = service._answers.get(self.path, [])
                    status = queued.pop(0) if queued else 201
                    service.received.append(
                        Received(
                            self.path, {k.lower(): v for k, v in self.headers.items()}, body, status
                        )
                    )
                self.send_response(status)
                if status == 429:
                    self.send_header("Retry-After", "0")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        self.base = f"http://127.0.0.1:{self._server.server_address[1]}"

    def browser(self, name: str) -> Browser:
        """A browser whose push service is this one."""
        return Browser(endpoint=f"{self.base}/push/{name}")

    def answer(self, browser: Browser, *statuses: int) -> None:
        """Answer the browser's next pushes with ``statuses`` (then 201)."""
        with self._lock:
            self._answers[urlsplit(browser.endpoint).path] = list(statuses)

    def to(self, browser: Browser) -> list[Received]:
        path = urlsplit(browser.endpoint).path
        with self._lock:
            return [r for r in self.received if r.path == path]

    def delivered(self, browser: Browser) -> list[dict[str, Any]]:
        """The payloads the browser could read (the pushes answered 201), decrypted."""
        return [browser.decrypt(r.body) for r in self.to(browser) if r.status == 201]

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def subscribe(player: Any, browser: Browser) -> Any:
    """The device subscribed, as the API would do it."""
    from push.services import subscription_save

    return subscription_save(
        player=player, endpoint=browser.endpoint, p256dh=browser.p256dh, auth=browser.auth
    )


def vapid_claims(request: Received) -> dict[str, Any]:
    """The VAPID header's claims, once its signature is checked against the site's key."""
    scheme, _, params = request.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    parts = dict(p.strip().split("=", 1) for p in params.split(","))
    assert parts["k"] == PUBLIC
    head, claims, signature = parts["t"].split(".")
    raw = b64url_decode(signature)
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64url_decode(PUBLIC))
    public.verify(
        encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
        f"{head}.{claims}".encode(),
        ec.ECDSA(hashes.SHA256()),
    )
    loaded: dict[str, Any] = json.loads(b64url_decode(claims))
    return loaded
