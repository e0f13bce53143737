"""A webhook bot's server: signatures verified, replays refused, every turn answered in time.

Each request of the service is signed (docs/bots.md, "Webhook bots")::

    X-BackAlley-Timestamp: <unix seconds>
    X-BackAlley-Delivery:  <random id, new for every request>
    X-BackAlley-Signature: v2=<hex HMAC-SHA256(secret, "<timestamp>.<delivery>.<raw body>")>

:func:`signature_ok` checks one of the ``v2=`` values (several while keys rotate) and the
timestamp's freshness; :class:`SeenDeliveries` refuses a delivery id seen before (a replay).

>>> import hmac, hashlib
>>> body, ts = b'{"type": "turn"}', "1700000000"
>>> sig = hmac.new(b"sec", f"{ts}.d1.".encode() + body, hashlib.sha256).hexdigest()
>>> headers = {TIMESTAMP: ts, DELIVERY: "d1", SIGNATURE: f"v2=old,v2={sig}"}
>>> signature_ok("sec", headers, body, now=1700000010)
True
>>> signature_ok("sec", headers, body + b" ", now=1700000010), signature_ok("sec", headers, body, now=1700000400)
(False, False)

:func:`serve` answers each turn with the bot's choice, or with its fallback when the choice
is not ready a safety margin before the turn's ``deadline_ms`` (counted from the request's
arrival, so clock skew does not matter): the service never times the bot out.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import threading
import time
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from backalley_bot.bot import Bot
from backalley_bot.observation import Observation

log = logging.getLogger("backalley_bot.webhook")

TIMESTAMP = "X-BackAlley-Timestamp"
DELIVERY = "X-BackAlley-Delivery"
SIGNATURE = "X-BackAlley-Signature"
FRESHNESS_S = 300  # refuse requests signed longer ago than this (or as far in the future)
MAX_BODY = 1_000_000
DEFAULT_DEADLINE_MS = 3000


def signature_ok(
    secrets: str | Iterable[str],
    headers: Mapping[str, str | None],
    body: bytes,
    *,
    now: float | None = None,
) -> bool:
    """A fresh timestamp and a ``v2=`` signature made with one of ``secrets`` over the
    timestamp, the delivery id and the raw ``body`` (compared in constant time)."""
    keys = [secrets] if isinstance(secrets, str) else list(secrets)
    timestamp = headers.get(TIMESTAMP) or ""
    delivery = headers.get(DELIVERY) or ""
    header = headers.get(SIGNATURE) or ""
    if not any(keys) or not delivery or not delivery.isascii():
        return False
    if not (timestamp.isascii() and timestamp.isdigit()):
        return False
    now = time.time() if now is None else now
    if abs(now - int(timestamp)) > FRESHNESS_S:
        return False
    signed = f"{timestamp}.{delivery}.".encode() + body
    given = [p.strip()[3:] for p in header.split(",") if p.strip().startswith("v2=")]
    ok = False
    for key in filter(None, keys):
        expected = hmac.new(key.encode(), signed, hashlib.sha256).hexdigest()
        for value in given:
            ok |= hmac.compare_digest(value, expected)
    return ok


class SeenDeliveries:
    """Delivery ids accepted within the freshness window: a second one is a replay."""

    def __init__(self) -> None:
        self._seen: dict[str, float] = {}
        self._lock = threading.Lock()

    def first_time(self, delivery: str, now: float | None = None) -> bool:
        now = time.time() if now is None else now
        with self._lock:
            # Ids older than twice the window can go: their timestamps are refused anyway.
            for old in [d for d, t in self._seen.items() if now - t > 2 * FRESHNESS_S]:
                del self._seen[old]
            if delivery in self._seen:
                return False
            self._seen[delivery] = now
            return True


class WebhookServer(ThreadingHTTPServer):
    """The bot's HTTP server. ``secrets``: the bot's secret (and the previous one while it
    rotates); empty, it answers only the registration ping, which carries nothing secret.
    ``margin_s``: how long before the deadline a late choice is given up for the fallback."""

    daemon_threads = True

    def __init__(
        self,
        bot: Bot,
        address: tuple[str, int],
        *,
        secrets: Iterable[str] = (),
        margin_s: float = 0.3,
    ) -> None:
        self.bot = bot
        self.secrets = [s for s in secrets if s]
        self.margin_s = margin_s
        self.seen = SeenDeliveries()
        self.turns = 0
        self.late = 0
        self._pool = ThreadPoolExecutor(max_workers=8, thread_name_prefix="choose")
        super().__init__(address, _Handler)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}/"

    def set_secret(self, secret: str, *previous: str) -> None:
        """The secret shown at registration (or rotation), and any still signing."""
        self.secrets = [s for s in (secret, *previous) if s]

    def answer_turn(self, msg: Mapping[str, Any], arrived: float) -> str:
        """The bot's action for a turn, or its fallback once the time is nearly up."""
        obs = Observation.from_view(
            msg["view"],
            game=str(msg.get("game", "")),
            seat=int(msg["seat"]),
            legal=list(msg["legal_actions"]),
            seq=int(msg.get("seq", 0)),
        )
        self.turns += 1
        budget_s = float(msg.get("deadline_ms") or DEFAULT_DEADLINE_MS) / 1000
        left = budget_s - self.margin_s - (time.monotonic() - arrived)
        future = self._pool.submit(self.bot.decide, obs)
        try:
            return future.result(timeout=max(left, 0.01))
        except FutureTimeout:
            self.late += 1
            log.warning("%s: no choice within the deadline, the fallback plays", self.bot.name)
            return self.bot.fallback(obs)

    def server_close(self) -> None:
        super().server_close()
        self._pool.shutdown(wait=False, cancel_futures=True)


class _Handler(BaseHTTPRequestHandler):
    server: WebhookServer

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        log.debug(format, *args)

    def do_POST(self) -> None:  # noqa: N802
        arrived = time.monotonic()
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            return self._answer(413, {"error": "too large"})
        body = self.rfile.read(length)
        try:
            msg = json.loads(body)
        except ValueError:
            return self._answer(400, {"error": "not json"})
        if not isinstance(msg, dict):
            return self._answer(400, {"error": "not a JSON object"})
        headers = {k: self.headers.get(k) for k in (TIMESTAMP, DELIVERY, SIGNATURE)}
        signed = signature_ok(self.server.secrets, headers, body)
        if msg.get("type") == "ping" and (signed or not self.server.secrets):
            return self._answer(200, {"challenge": msg.get("challenge")})
        if not signed:
            return self._answer(401, {"error": "bad signature or stale timestamp"})
        if not self.server.seen.first_time(str(headers[DELIVERY])):
            return self._answer(409, {"error": "delivery already seen (a replay)"})
        if msg.get("type") == "turn":
            return self._answer(200, {"action": self.server.answer_turn(msg, arrived)})
        return self._answer(400, {"error": "unknown message type"})

    def _answer(self, status: int, obj: Mapping[str, Any]) -> None:
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def serve(
    bot: Bot, *, host: str = "127.0.0.1", port: int = 8765, secret: str = ""
) -> WebhookServer:
    """A server for ``bot`` on ``host:port`` (port 0: a free one), not yet serving: call
    ``serve_forever()`` (or run it in a thread) and ``shutdown()``."""
    return WebhookServer(bot, (host, port), secrets=[secret])
