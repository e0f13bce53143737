"""The site's VAPID key pair (RFC 8292): the push services learn from it that a push comes
from this site, and the browsers subscribe to that public key.

Both keys are base64url without padding, as browsers and ``pywebpush`` read them: the public
key is the uncompressed P-256 point (65 bytes; ``applicationServerKey`` in the page), the
private key the 32-byte scalar.

>>> public, private = generate_pair()
>>> len(public), len(private)
(87, 43)
>>> public_of(private) == public
True
"""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _public_text(key: ec.EllipticCurvePrivateKey) -> str:
    point = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(point)


def generate_pair() -> tuple[str, str]:
    """A new (public, private) key pair."""
    key = ec.generate_private_key(ec.SECP256R1())
    return _public_text(key), b64url(key.private_numbers().private_value.to_bytes(32, "big"))


def public_of(private: str) -> str:
    """The public key that goes with ``private`` (ValueError if it is not a P-256 key)."""
    raw = b64url_decode(private.strip())
    if len(raw) != 32:
        raise ValueError("a VAPID private key is 32 bytes, base64url")
    return _public_text(ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1()))
