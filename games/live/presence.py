"""Who is at a table now: for each (game, seat), when that seat was last seen (an open
stream of its events, or its table page in view) and since when its page is hidden.

The table page says when it is shown and when it is hidden (``POST
/api/v1/games/<id>/presence/``, every ``PING_S`` seconds while shown, and once when hidden
or closed); an open stream for a seat renews the seat's mark every ``REFRESH_S`` seconds.
A mark lapses by itself ``TTL_S`` seconds after the last sign: a page closed without a
word, a stream cut, a server gone.

Kept in Redis when ``LIVE_REDIS_URL`` names one (a small hash per seat, shared by every
server and worker process), else in Django's cache (the database's cache table in the
embedded default, which the web process and the worker share too). A mark holds no card,
only times. Read with :func:`presence`, for a notice such as "your turn" that should reach a
person only once the seat's page has been away for a while, never one watching the table.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.dispatch import Signal

logger = logging.getLogger(__name__)

FRESH_S = 45.0  # a seat seen within this long is present
TTL_S = 600  # a mark lasts this long after the last sign (so "away since" stays known)
REFRESH_S = 15.0  # an open stream renews its seat's mark at most this often
PING_S = 20  # the table page's pings while it is shown (templates/games/table.html)

# Sent after a seat's table page says it is shown (kwargs: ``game``, ``seats`` and ``here``,
# each seat's presence as just read), for the
# apps that tell people who is at their tables (the clock's "everyone is here" notice).
seat_shown = Signal()


@dataclass(frozen=True, slots=True)
class Presence:
    seen_at: float | None = None  # epoch seconds: the last sign (stream, or page in view)
    hidden_at: float | None = None  # epoch seconds: its page hidden then, and not shown since

    def away_for(self, now: float | None = None) -> float | None:
        """Seconds the seat has been away (its page hidden or closed, its stream gone), or
        None while it is present. Never seen (or lapsed): away for ever (``inf``)."""
        now = time.time() if now is None else now
        if self.hidden_at is not None:
            return max(0.0, now - self.hidden_at)
        if self.seen_at is None:
            return float("inf")
        since = now - self.seen_at
        return since if since > FRESH_S else None

    @property
    def present(self) -> bool:
        return self.away_for() is None


def key(game_id: int, seat: int) -> str:
    return f"{settings.LIVE_CHANNEL_PREFIX}presence:{game_id}:{seat}"


def _decode(raw: dict[Any, Any] | None) -> Presence:
    if not raw:
        return Presence()

    def number(name: str) -> float | None:
        value = raw.get(name, raw.get(name.encode()))
        try:
            return float(value) if value not in (None, b"", "") else None
        except (TypeError, ValueError):
            return None

    return Presence(seen_at=number("seen"), hidden_at=number("hidden"))


# --- the sync side (the presence ping's view, the worker's readers) -------------------------
class _SyncRedis:
    """One client per process (made anew after a fork), short timeouts: presence is a hint,
    never worth holding a request for."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._client: Any = None
        self._key: tuple[int, str] | None = None

    def get(self) -> Any:
        url = settings.LIVE_REDIS_URL
        if not url:
            return None
        with self._lock:
            if self._key != (os.getpid(), url):
                # Only with LIVE_REDIS_URL set: the embedded default runs without Redis.
                import redis

                self._client = redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
                self._key = (os.getpid(), url)
            return self._client


_sync = _SyncRedis()


def mark(game_id: int, seat: int, *, shown: bool | None, now: float | None = None) -> None:
    """A sign of ``seat`` at ``game_id``: its page shown (``True``), hidden or closed
    (``False``), or its stream open (``None``: whether the page is shown is left as it is)."""
    now = time.time() if now is None else now
    client = _sync.get()
    name = key(game_id, seat)
    if client is not None:
        try:
            pipe = client.pipeline(transaction=True)
            pipe.hset(name, "seen", repr(now))
            if shown is True:
                pipe.hdel(name, "hidden")
            elif shown is False:
                pipe.hset(name, "hidden", repr(now))
            pipe.expire(name, TTL_S)
            pipe.execute()
        except Exception as exc:  # a hint lost: the seat looks away a little early
            logger.warning("live: could not mark presence at %s: %s", name, exc)
        return
    state = cache.get(name) or {}
    state["seen"] = now
    if shown is True:
        state.pop("hidden", None)
    elif shown is False:
        state["hidden"] = now
    cache.set(name, state, TTL_S)


def _mark_stream(game_id: int, seat: int) -> None:
    mark(game_id, seat, shown=None)


def presence(game_id: int, seat: int) -> Presence:
    """The seat's presence as last marked (``Presence()`` when nothing is known)."""
    client = _sync.get()
    name = key(game_id, seat)
    if client is not None:
        try:
            return _decode(client.hgetall(name))
        except Exception as exc:  # unknown: taken as away
            logger.warning("live: could not read presence at %s: %s", name, exc)
            return Presence()
    return _decode(cache.get(name))


def _read(game_ids: list[int]) -> list[Presence]:
    """The four seats' marks of each of ``game_ids``, in order, in one round trip."""
    names = [key(game_id, seat) for game_id in game_ids for seat in range(4)]
    if not names:
        return []
    client = _sync.get()
    if client is not None:
        try:
            pipe = client.pipeline(transaction=False)
            for name in names:
                pipe.hgetall(name)
            return [_decode(raw) for raw in pipe.execute()]
        except Exception as exc:  # unknown: taken as away
            logger.warning("live: could not read presence at %s games: %s", len(game_ids), exc)
            return [Presence() for _ in names]
    found = cache.get_many(names)
    return [_decode(found.get(name)) for name in names]


def table_presence(game_id: int) -> list[Presence]:
    """The four seats' presence at ``game_id``, read in one round trip (a game's payload
    asks for all four on every read)."""
    return _read([game_id])


def tables_present(game_ids: list[int]) -> dict[int, list[bool]]:
    """:func:`seats_present` for many games in one round trip (a person's list of games)."""
    marks = _read(game_ids)
    return {
        game_id: [m.present for m in marks[4 * i : 4 * i + 4]] for i, game_id in enumerate(game_ids)
    }


def seats_present(game_id: int) -> list[bool]:
    """Whether each of the four seats at ``game_id`` is at the table now (players only:
    the readers show it to the game's own players, never to spectators)."""
    return [seen.present for seen in table_presence(game_id)]


# --- the async side (streams, on the server's event loop) ----------------------------------
class StreamMarks:
    """The hub's writer of its streams' marks: with Redis, an async client of the hub's own
    loop (no thread per mark); without it, or for an inline hub, the sync writer run by
    ``db`` (the hub's ``Hub.db``: its database threads, or the caller's for ``inline``)."""

    def __init__(self, *, inline: bool, db: Callable[..., Awaitable[Any]]) -> None:
        self.inline = inline
        self.db = db
        self._redis: Any = None

    def _client(self) -> Any:
        if self._redis is None and settings.LIVE_REDIS_URL and not self.inline:
            # Only with LIVE_REDIS_URL set: the embedded default runs without Redis.
            import redis.asyncio as aioredis

            pool = aioredis.BlockingConnectionPool.from_url(
                settings.LIVE_REDIS_URL,
                max_connections=8,
                timeout=2,
                socket_timeout=1,
                socket_connect_timeout=1,
            )
            self._redis = aioredis.Redis(connection_pool=pool)
        return self._redis

    async def stream_open(self, game_id: int, seat: int) -> None:
        client = self._client()
        if client is None:
            await self.db(_mark_stream, game_id, seat)
            return
        name = key(game_id, seat)
        try:
            pipe = client.pipeline(transaction=True)
            pipe.hset(name, "seen", repr(time.time()))
            pipe.expire(name, TTL_S)
            await pipe.execute()
        except Exception as exc:
            logger.warning("live: could not mark presence at %s: %s", name, exc)
