"""Publishing wake-ups after commit (the sync side of live play).

A wake-up says only "game G is at seq S, status X"; waiters re-read the feed themselves, so
a wake-up carries no card and can be repeated or lost without harm (a lost one is made up
by the hub's periodic check). Publishing never blocks the committing thread: the Redis
message is handed to a background thread.

The hubs of this process (:mod:`games.live.hub`, which sits above this module) hear a
commit made here at once, without Redis: ``hub`` adds its ``wake_all`` with
:func:`on_wake` when it is imported. A process that never imported the hub (a Celery
worker) has no waiters to wake.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
from collections.abc import Callable
from typing import Any

from django.conf import settings

from games.hooks import GameEvent
from games.live.admissions import tickets

logger = logging.getLogger(__name__)

_QUEUE_LIMIT = 10_000  # wake-ups waiting for Redis; beyond this they are dropped (see above)


def channel() -> str:
    return f"{settings.LIVE_CHANNEL_PREFIX}games"


def encode(game_id: int, seq: int, status: str) -> str:
    return f"{game_id} {seq} {status}"


def decode(message: str | bytes) -> tuple[int, int, str] | None:
    text = message.decode() if isinstance(message, bytes) else message
    parts = text.split()
    if len(parts) != 3 or not (parts[0].isdigit() and parts[1].isdigit()):
        return None
    return int(parts[0]), int(parts[1]), parts[2]


class _RedisPublisher:
    """One daemon thread per process (restarted after a fork) that publishes queued wake-ups."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.pid = os.getpid()
        self.queue: queue.Queue[str] = queue.Queue(_QUEUE_LIMIT)
        threading.Thread(target=self._run, name="live-publisher", daemon=True).start()

    def put(self, message: str) -> None:
        try:
            self.queue.put_nowait(message)
        except queue.Full:
            logger.warning("live: wake-up queue full, dropping %s", message)

    def _run(self) -> None:
        # Only with LIVE_REDIS_URL set: the embedded default runs without Redis.
        import redis

        client = redis.Redis.from_url(self.url, socket_timeout=2, socket_connect_timeout=2)
        name = channel()
        while True:
            message = self.queue.get()
            try:
                client.publish(name, message)
            except redis.RedisError as exc:  # the periodic check makes up for it
                logger.warning("live: could not publish %s: %s", message, exc)


_publisher: _RedisPublisher | None = None
_publisher_lock = threading.Lock()


def _redis_publisher() -> _RedisPublisher | None:
    global _publisher
    url = settings.LIVE_REDIS_URL
    if not url:
        return None
    with _publisher_lock:
        if _publisher is None or _publisher.pid != os.getpid() or _publisher.url != url:
            _publisher = _RedisPublisher(url)
        return _publisher


# In-process listeners of wake-ups (the hub's ``wake_all``): (game id, seq, status).
_local: list[Callable[[int, int, str], None]] = []


def on_wake(listener: Callable[[int, int, str], None]) -> None:
    """Have ``listener`` hear every wake-up published by this process (once per listener)."""
    if listener not in _local:
        _local.append(listener)


def wake(game_id: int, seq: int, status: str) -> None:
    """Wake the clients waiting on ``game_id`` in this process and, by Redis, everywhere."""
    for listener in tuple(_local):
        listener(game_id, seq, status)
    publisher = _redis_publisher()
    if publisher is not None:
        publisher.put(encode(game_id, seq, status))


FORGET_ADMISSIONS = "forget-admissions"


def forget_admissions() -> None:
    """A credential changed: every server process forgets the long-poll admissions it keeps
    (:mod:`games.live.admissions`), this one at once, the others by Redis."""
    tickets.forget_all()
    publisher = _redis_publisher()
    if publisher is not None:
        publisher.put(FORGET_ADMISSIONS)


def on_credentials_changed(**kwargs: Any) -> None:
    """The receiver of :data:`accounts.credentials.credentials_changed`."""
    forget_admissions()


def on_game_event(event: GameEvent) -> None:
    """The consumer registered with games.hooks for starts, moves and finishes."""
    wake(event.game_id, event.seq, event.status)
