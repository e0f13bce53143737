"""A request signed as the service signs it (docs/bots.md), written from the docs."""

import hashlib
import hmac
import secrets as random_ids
import time


def signed(secrets: list[str], body: bytes, *, now: int | None = None) -> dict[str, str]:
    ts = str(int(time.time()) if now is None else now)
    delivery = random_ids.token_hex(8)
    message = f"{ts}.{delivery}.".encode() + body
    sigs = [hmac.new(s.encode(), message, hashlib.sha256).hexdigest() for s in secrets]
    return {
        "X-BackAlley-Timestamp": ts,
        "X-BackAlley-Delivery": delivery,
        "X-BackAlley-Signature": ",".join(f"v2={s}" for s in sigs),
        "Content-Type": "application/json",
    }
