"""Webhook signatures: HMAC-SHA256 over "timestamp.body", checked with a freshness window."""

from __future__ import annotations

import hashlib
import hmac

from bots import signing


def test_signature_is_hmac_sha256_of_timestamp_dot_body() -> None:
    body = b'{"type":"turn","seq":3}'
    expected = hmac.new(b"k3y", b"1700000000." + body, hashlib.sha256).hexdigest()
    assert signing.sign("k3y", 1700000000, body) == expected


def test_signed_headers_verify_with_the_same_secret() -> None:
    body = b'{"a":1}'
    headers = signing.signed_headers("secret-1", body, now=1700000000)
    assert headers[signing.SIGNATURE_HEADER].startswith("v1=")
    assert signing.verify(
        "secret-1",
        headers[signing.TIMESTAMP_HEADER],
        body,
        headers[signing.SIGNATURE_HEADER],
        now=1700000001,
    )


def test_tampered_body_wrong_secret_and_stale_timestamp_fail() -> None:
    body = b'{"a":1}'
    h = signing.signed_headers("secret-1", body, now=1700000000)
    ts, sig = h[signing.TIMESTAMP_HEADER], h[signing.SIGNATURE_HEADER]
    assert not signing.verify("secret-1", ts, b'{"a":2}', sig, now=1700000000)
    assert not signing.verify("secret-2", ts, body, sig, now=1700000000)
    assert not signing.verify("secret-1", ts, body, sig, now=1700000000 + 301)
    assert not signing.verify("secret-1", ts, body, sig, now=1700000000 - 301)
    # The timestamp is part of what is signed: moving it breaks the signature.
    assert not signing.verify("secret-1", "1700000005", body, sig, now=1700000005)
    assert not signing.verify("secret-1", None, body, sig)
    assert not signing.verify("secret-1", ts, body, "v0=" + sig[3:], now=1700000000)


def test_derived_secrets_differ_per_nonce_and_per_server_key() -> None:
    a = signing.derive_secret("server-key", "n1")
    assert a == signing.derive_secret("server-key", "n1")
    assert a != signing.derive_secret("server-key", "n2")
    assert a != signing.derive_secret("other-key", "n1")
    assert a.startswith("whsec_") and len(a) == 6 + 64
