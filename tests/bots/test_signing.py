"""Webhook signatures: HMAC-SHA256 over "timestamp.delivery.body", with a freshness window."""

from __future__ import annotations

import hashlib
import hmac

from bots import signing


def test_signature_is_hmac_sha256_of_timestamp_delivery_and_body() -> None:
    body = b'{"type":"turn","seq":3}'
    expected = hmac.new(b"k3y", b"1700000000.d-1." + body, hashlib.sha256).hexdigest()
    assert signing.sign("k3y", 1700000000, "d-1", body) == expected


def test_signed_headers_verify_with_the_same_secret_and_carry_a_fresh_delivery_id() -> None:
    body = b'{"a":1}'
    headers = signing.signed_headers(["secret-1"], body, now=1700000000)
    again = signing.signed_headers(["secret-1"], body, now=1700000000)
    assert headers[signing.SIGNATURE_HEADER].startswith("v2=")
    assert headers[signing.DELIVERY_HEADER] != again[signing.DELIVERY_HEADER]
    assert signing.verify("secret-1", headers, body, now=1700000001)


def test_tampered_body_id_or_time_wrong_secret_and_stale_timestamp_fail() -> None:
    body = b'{"a":1}'
    h = signing.signed_headers(["secret-1"], body, now=1700000000)
    assert not signing.verify("secret-1", h, b'{"a":2}', now=1700000000)
    assert not signing.verify("secret-2", h, body, now=1700000000)
    assert not signing.verify("secret-1", h, body, now=1700000000 + 301)
    assert not signing.verify("secret-1", h, body, now=1700000000 - 301)
    # The timestamp and the delivery id are part of what is signed.
    moved = {**h, signing.TIMESTAMP_HEADER: "1700000005"}
    assert not signing.verify("secret-1", moved, body, now=1700000005)
    other_id = {**h, signing.DELIVERY_HEADER: "x" * 32}
    assert not signing.verify("secret-1", other_id, body, now=1700000000)
    assert not signing.verify("secret-1", {**h, signing.DELIVERY_HEADER: None}, body)
    assert not signing.verify("secret-1", {**h, signing.TIMESTAMP_HEADER: "\u00b2"}, body)
    old_version = {**h, signing.SIGNATURE_HEADER: "v1=" + h[signing.SIGNATURE_HEADER][3:]}
    assert not signing.verify("secret-1", old_version, body, now=1700000000)


def test_while_rotating_every_secret_given_signs_and_each_verifies() -> None:
    body = b"{}"
    h = signing.signed_headers(["new", "old"], body, now=1700000000)
    assert h[signing.SIGNATURE_HEADER].count("v2=") == 2
    assert signing.verify("new", h, body, now=1700000000)
    assert signing.verify("old", h, body, now=1700000000)
    assert not signing.verify("other", h, body, now=1700000000)


def test_derived_secrets_differ_per_nonce_and_per_server_key() -> None:
    a = signing.derive_secret("server-key", "n1")
    assert a == signing.derive_secret("server-key", "n1")
    assert a != signing.derive_secret("server-key", "n2")
    assert a != signing.derive_secret("other-key", "n1")
    assert a.startswith("whsec_") and len(a) == 6 + 64
