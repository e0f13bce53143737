"""A small Back Alley webhook bot: an HTTP server that answers each turn with a legal action.

Run it where the club can reach it, register it (``kind: "webhook"``, your URL), then give it
the secret shown at registration (once, and again only by rotating it)::

    python examples/webhook_bot.py --port 8765 --secret whsec_...

Every request is signed::

    X-BackAlley-Timestamp: <unix seconds>
    X-BackAlley-Delivery:  <random id, new for every request>
    X-BackAlley-Signature: v2=<hex HMAC-SHA256(secret, f"{ts}.{delivery}.{body}")>[,v2=...]

This bot refuses a bad signature, a stale timestamp, and a delivery id it has already seen
(a replayed request). Until it has a secret it answers only the registration ping, which
carries nothing secret. Only the standard library is used.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import random
import threading
import time
from collections.abc import Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

FRESHNESS_S = 300  # refuse requests signed longer ago than this (or in the future)


def signature_ok(secret: str, headers: Mapping[str, str | None], body: bytes) -> bool:
    """A fresh timestamp and one matching ``v2=`` signature (several while keys rotate)."""
    timestamp = headers.get("X-BackAlley-Timestamp") or ""
    delivery = headers.get("X-BackAlley-Delivery") or ""
    header = headers.get("X-BackAlley-Signature") or ""
    if not secret or not delivery.isascii() or not (timestamp.isascii() and timestamp.isdigit()):
        return False
    if not delivery or abs(time.time() - int(timestamp)) > FRESHNESS_S:
        return False
    signed = f"{timestamp}.{delivery}.".encode() + body
    expected = hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
    return any(
        part.strip().startswith("v2=") and hmac.compare_digest(part.strip()[3:], expected)
        for part in header.split(",")
    )


class SeenDeliveries:
    """Delivery ids seen within the freshness window: a second request with one is a replay."""

    def __init__(self) -> None:
        self._seen: dict[str, float] = {}
        self._lock = threading.Lock()

    def first_time(self, delivery: str, now: float | None = None) -> bool:
        now = time.time() if now is None else now
        with self._lock:
            # Forget ids older than twice the window: their timestamps are refused anyway.
            for old in [d for d, t in self._seen.items() if now - t > 2 * FRESHNESS_S]:
                del self._seen[old]
            if delivery in self._seen:
                return False
            self._seen[delivery] = now
            return True


def choose(turn: dict) -> str:
    """Pick an action from the legal ones. A real bot would study ``turn["view"]`` here."""
    legal = turn["legal_actions"]
    bids = [a for a in legal if a.isdigit()]
    if bids:  # bidding: a modest numeric bid if we can, else pass
        return min(bids, key=int)
    return random.choice(legal)


def make_server(host: str, port: int, secret: str = "") -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_POST(self) -> None:  # noqa: N802
            length = int(self.headers.get("Content-Length") or 0)
            if length > 1_000_000:
                return self.answer(413, {"error": "too large"})
            body = self.rfile.read(length)
            try:
                msg = json.loads(body)
            except ValueError:
                return self.answer(400, {"error": "not json"})
            signed = signature_ok(self.server.secret, self.headers, body)  # type: ignore[attr-defined]
            if msg.get("type") == "ping" and (signed or not self.server.secret):  # type: ignore[attr-defined]
                return self.answer(200, {"challenge": msg.get("challenge")})
            if not signed:
                return self.answer(401, {"error": "bad signature or stale timestamp"})
            if not self.server.seen.first_time(self.headers["X-BackAlley-Delivery"]):  # type: ignore[attr-defined]
                return self.answer(409, {"error": "delivery already seen (a replay)"})
            if msg.get("type") == "turn":
                return self.answer(200, {"action": choose(msg)})
            return self.answer(400, {"error": "unknown message type"})

        def answer(self, status: int, obj: dict) -> None:
            data = json.dumps(obj).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer((host, port), Handler)
    server.secret = secret  # type: ignore[attr-defined]
    server.seen = SeenDeliveries()  # type: ignore[attr-defined]
    return server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--secret", default="", help="the secret shown at registration")
    args = parser.parse_args()
    server = make_server(args.host, args.port, args.secret)
    print(f"webhook bot listening on {args.host}:{args.port}")
    server.serve_forever()


if __name__ == "__main__":
    main()
