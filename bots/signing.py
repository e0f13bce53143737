"""Webhook request signing: ``X-BackAlley-Signature: v1=<hex HMAC-SHA256(secret, "ts.body")>``.

A bot checks the signature with its secret and refuses a timestamp that is not fresh, so a
captured request cannot be replayed later. The secret itself is derived from the server key
and the bot's random nonce, so only the nonce is stored.

>>> sig = sign("s3cret", 1700000000, b'{"type":"ping"}')
>>> verify("s3cret", "1700000000", b'{"type":"ping"}', "v1=" + sig, now=1700000010)
True
>>> verify("s3cret", "1700000000", b'{"type":"ping"}', "v1=" + sig, now=1700001000)
False
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time

TIMESTAMP_HEADER = "X-BackAlley-Timestamp"
SIGNATURE_HEADER = "X-BackAlley-Signature"
SIGNATURE_VERSION = "v1"
# A bot should refuse a request whose timestamp is further than this from its clock.
DEFAULT_TOLERANCE_S = 300


def sign(secret: str, timestamp: int | str, body: bytes) -> str:
    """Hex HMAC-SHA256 of ``f"{timestamp}.{body}"`` under ``secret``."""
    message = str(timestamp).encode("ascii") + b"." + body
    return hmac.new(secret.encode("utf-8"), message, hashlib.sha256).hexdigest()


def signed_headers(secret: str, body: bytes, *, now: int | None = None) -> dict[str, str]:
    """The headers to send with ``body``."""
    ts = int(time.time()) if now is None else now
    return {
        TIMESTAMP_HEADER: str(ts),
        SIGNATURE_HEADER: f"{SIGNATURE_VERSION}={sign(secret, ts, body)}",
        "Content-Type": "application/json",
    }


def verify(
    secret: str,
    timestamp: str | None,
    body: bytes,
    signature_header: str | None,
    *,
    now: float | None = None,
    tolerance_s: int = DEFAULT_TOLERANCE_S,
) -> bool:
    """True when the signature matches and the timestamp is within ``tolerance_s`` of now."""
    if not timestamp or not signature_header or not timestamp.isdigit():
        return False
    current = time.time() if now is None else now
    if abs(current - int(timestamp)) > tolerance_s:
        return False
    expected = sign(secret, timestamp, body)
    # The header may carry several comma-separated versions (for secret rotation).
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
