"""Long polls that come back: admitted again in the event loop, without the gate.

A long poll is answered after every move of its game and comes back at once, with the same
token, the same game and the same seat. Its admission (:mod:`games.api.asgi`: the feed's
middleware and the DRF gate, three queries, ~5 ms of CPU) would give the same answer as last
time, as long as nothing it depends on changed. Each server process keeps that answer as a
:class:`Ticket`, and a request that matches one exactly goes straight to its wait.

What a ticket may stand for, and why each is safe:
- **The game's seats.** Only for a started game: its four seats never change hands after
  the start (a seat is taken or left only while the game waits).
- **The seat looked through.** Only when it does not depend on whose turn it is: the
  request names its seat, or the credential holds at most one seat of the game.
- **The credential.** Only a bearer token, and only a request without cookies (a session
  can be signed out; a cookie could bring the middleware a new session). A ticket is keyed
  by a digest of the ``Authorization`` header, never the secret itself, with the host, the
  scheme, the proxy's scheme header, ``Accept``, the game and the ``seat`` parameter: the
  same request, once again.
- **The token's standing** (revoked, its bot retired, its account disabled or deleted):
  every change to a credential is announced (:mod:`accounts.credentials`), published to
  every server process, and each forgets **all** its tickets at once; a process whose
  subscription was broken forgets them when it listens again. ``LIVE_ADMISSION_TTL``
  bounds a ticket's life in any case, and is 0 (no tickets) without Redis, where another
  process could not tell this one.

What a ticket does not skip: the request is read as strictly as the middleware and the gate
would; anything unusual in it (a parameter not known here, a value that is not plain, a
body, a control character) goes the whole way instead, and gets the gate's own answer.
"""

from __future__ import annotations

import hashlib
import re
import threading
import time
from dataclasses import dataclass

from django.conf import settings

from backalley_site.text import CONTROL_IN_HEADER_CLASS

FEED_POLL_PATH = re.compile(r"^/api/v1/games/([A-Za-z0-9_-]{1,64})/events/$")
_DIGITS = re.compile(rb"[0-9]{1,10}")
# As RequestSanityMiddleware: control characters in a header value (tab allowed).
_CONTROL = re.compile(f"[{CONTROL_IN_HEADER_CLASS}]".encode("ascii"))
_PARAMS = frozenset({b"since", b"wait", b"seat"})
_MAX_TICKETS = 100_000  # beyond this the oldest half is forgotten (one entry is ~1 KB)


@dataclass(frozen=True, slots=True)
class Ticket:
    game_id: int
    seat: int | None
    holder: str
    headers: tuple[tuple[str, str], ...]  # what the middleware put on the admitted answer
    expires: float  # time.monotonic()


@dataclass(frozen=True, slots=True)
class Request:
    """A long poll read from its ASGI scope, when it is plain enough for a ticket."""

    key: bytes
    since: int
    wait: int


def read(scope: dict[str, object], max_wait: int) -> Request | None:
    """The long poll of ``scope`` if it is plain enough to be served by a ticket, else None
    (and the whole way answers it)."""
    if scope.get("method") != "GET":
        return None
    found = FEED_POLL_PATH.match(str(scope.get("path", "")))
    if found is None:
        return None
    params: dict[bytes, int] = {}
    query = scope.get("query_string", b"")
    assert isinstance(query, bytes)
    for pair in query.split(b"&") if query else ():
        name, eq, value = pair.partition(b"=")
        negative = name == b"since" and value == b"-1"
        if name not in _PARAMS or name in params or not eq:
            return None
        if not negative and not _DIGITS.fullmatch(value):
            return None
        params[name] = -1 if negative else int(value)
    since, wait, seat = params.get(b"since", -1), params.get(b"wait", 0), params.get(b"seat")
    if since > 10**9 or wait > max_wait or (seat is not None and seat > 3):
        return None
    authorization = host = accept = proxy_scheme = b""
    proxy_header = _proxy_header_name()
    headers = scope.get("headers", [])
    assert isinstance(headers, list)
    for name, value in headers:
        if _CONTROL.search(value):
            return None
        if name == b"authorization":
            if authorization:
                return None
            authorization = value
        elif name == b"host":
            host = value
        elif name == b"accept":  # the gate negotiates it (406 for what it cannot give)
            accept = value
        elif name == b"last-event-id":
            if not _DIGITS.fullmatch(value.strip()) or int(value) > 10**9:
                return None
            since = max(since, int(value))
        elif name in (b"cookie", b"transfer-encoding") or (
            name == b"content-length" and value.strip() != b"0"
        ):
            return None
        elif name == proxy_header:
            proxy_scheme = value
    if not authorization.startswith(b"Bearer "):
        return None
    digest = hashlib.sha256()
    for part in (
        authorization,
        host,
        accept,
        str(scope.get("scheme", "")).encode(),
        proxy_scheme,
        found.group(1).encode(),
        str(seat).encode(),
    ):
        digest.update(len(part).to_bytes(4, "big") + part)
    return Request(key=digest.digest(), since=since, wait=wait)


def _proxy_header_name() -> bytes:
    header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if not header:
        return b"\x00"  # no header has this name
    return str(header[0]).removeprefix("HTTP_").lower().replace("_", "-").encode()


class Tickets:
    """This process's tickets (any thread may forget them; the loop reads and adds)."""

    def __init__(self) -> None:
        self._by_key: dict[bytes, Ticket] = {}
        self._lock = threading.Lock()
        # Bumped by each forget_all: an admission decided before it must not be kept after it
        # (the gate may have read the token just before it was revoked).
        self.generation = 0

    def get(self, key: bytes) -> Ticket | None:
        ticket = self._by_key.get(key)
        if ticket is not None and ticket.expires <= time.monotonic():
            self._by_key.pop(key, None)
            ticket = None
        return ticket

    def remember(
        self,
        key: bytes,
        *,
        generation: int,
        game_id: int,
        seat: int | None,
        holder: str,
        headers: list[tuple[str, str]],
    ) -> None:
        """Keep an admission decided when :attr:`generation` was ``generation``."""
        ttl = float(settings.LIVE_ADMISSION_TTL)
        if ttl <= 0:
            return
        with self._lock:
            if generation != self.generation:
                return
            if len(self._by_key) >= _MAX_TICKETS:
                for old in list(self._by_key)[: _MAX_TICKETS // 2]:
                    del self._by_key[old]
            self._by_key[key] = Ticket(
                game_id, seat, holder, tuple(headers), time.monotonic() + ttl
            )

    def forget_all(self) -> None:
        with self._lock:
            self.generation += 1
            self._by_key.clear()

    def __len__(self) -> int:
        return len(self._by_key)


tickets = Tickets()  # one per process: credentials change for every loop at once
