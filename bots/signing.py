"""Webhook request signing.

Every request carries three headers::

    X-BackAlley-Timestamp: <unix seconds>
    X-BackAlley-Delivery:  <random id, unique per request>
    X-BackAlley-Signature: v2=<hex HMAC-SHA256(secret, "<timestamp>.<delivery>.<raw body>")>

A bot checks the signature with its secret, refuses a timestamp that is not fresh, and
refuses a delivery id it has already seen within that window: a captured request then
cannot be replayed at all. The header may hold several ``v2=`` values (comma-separated)
while the server's key is being rotated; one matching is enough. The secret itself is
derived from the server key and the bot's random nonce, so only the nonce is stored.

>>> headers = signed_headers(["s3cret"], b'{"type":"ping"}', now=1700000000, delivery="d1")
>>> verify("s3cret", headers, b'{"type":"ping"}', now=1700000010)
True
>>> verify("s3cret", headers, b'{"type":"ping"}', now=1700001000)
False
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Mapping, Sequence

TIMESTAMP_HEADER = "X-BackAlley-Timestamp"
DELIVERY_HEADER = "X-BackAlley-Delivery"
SIGNATURE_HEADER = "X-BackAlley-Signature"
SIGNATURE_VERSION = "v2"
# A bot should refuse a request whose timestamp is further than this from its clock, and
# remember delivery ids for at least this long.
DEFAULT_TOLERANCE_S = 300


def sign(secret: str, timestamp: int | str, delivery: str, body: bytes) -> str:
    """Hex HMAC-SHA256 of ``f"{timestamp}.{delivery}.{body}"`` under ``secret``."""
    message = f"{timestamp}.{delivery}.".encode("ascii") + body
    return hmac.new(secret.encode("utf-8"), message, hashlib.sha256).hexdigest()


def new_delivery_id() -> str:
    return secrets.token_hex(16)


def signed_headers(
    secrets_: Sequence[str], body: bytes, *, now: int | None = None, delivery: str | None = None
) -> dict[str, str]:
    """The headers to send with ``body``: one signature per secret (several while rotating)."""
    ts = int(time.time()) if now is None else now
    delivery = delivery or new_delivery_id()
    signatures = ",".join(f"{SIGNATURE_VERSION}={sign(s, ts, delivery, body)}" for s in secrets_)
    return {
        TIMESTAMP_HEADER: str(ts),
        DELIVERY_HEADER: delivery,
        SIGNATURE_HEADER: signatures,
        "Content-Type": "application/json",
    }


def verify(
    secret: str,
    headers: Mapping[str, str | None],
    body: bytes,
    *,
    now: float | None = None,
    tolerance_s: int = DEFAULT_TOLERANCE_S,
) -> bool:
    """True when a signature matches and the timestamp is within ``tolerance_s`` of now.

    What a bot does on receipt (the replay check on the delivery id is the bot's own: it
    keeps the ids it has seen for ``tolerance_s``).
    """
    timestamp = headers.get(TIMESTAMP_HEADER)
    delivery = headers.get(DELIVERY_HEADER)
    signature_header = headers.get(SIGNATURE_HEADER)
    if not timestamp or not delivery or not signature_header:
        return False
    if not (timestamp.isascii() and timestamp.isdigit()) or not delivery.isascii():
        return False
    current = time.time() if now is None else now
    if abs(current - int(timestamp)) > tolerance_s:
        return False
    expected = sign(secret, timestamp, delivery, body)
    for part in signature_header.split(","):
        version, _, value = part.strip().partition("=")
        if version == SIGNATURE_VERSION and hmac.compare_digest(value, expected):
            return True
    return False


def new_nonce() -> str:
    return secrets.token_hex(16)


def derive_secret(server_key: str, nonce: str) -> str:
    """The bot's secret: shown once to its owner, recomputed by the server to sign."""
    digest = hmac.new(
        server_key.encode("utf-8"), b"bot-webhook-secret:" + nonce.encode("ascii"), hashlib.sha256
    ).hexdigest()
    return "whsec_" + digest
