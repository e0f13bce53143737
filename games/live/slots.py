"""The per-token cap on open streams and long polls (``LIVE_MAX_STREAMS_PER_TOKEN``).

With Redis the count is shared by every server process: a sorted set per holder whose
members are the open waits, scored by when they lapse (refreshed while a stream lives), so
a crashed process's slots free themselves. Without Redis there is one server process (the
embedded default) and the count is kept in memory.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections import Counter
from typing import Any

from django.conf import settings

logger = logging.getLogger(__name__)


# One round trip, atomic: drop the lapsed waits, and take a slot if fewer than the limit
# are held. KEYS[1]: the holder's set; ARGV: now, member, when it lapses, limit, key TTL.
_TAKE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then
    return 0
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1
"""


class Slot:
    def __init__(self, slots: Slots, holder: str, member: str) -> None:
        self.slots, self.holder, self.member = slots, holder, member
        self.released = False

    async def refresh(self, ttl: float) -> None:
        await self.slots._refresh(self, ttl)

    async def release(self) -> None:
        if not self.released:
            self.released = True
            await self.slots._release(self)


class Slots:
    def __init__(self, *, shared: bool) -> None:
        self.shared = shared  # counted in Redis (when configured) for every server process
        self.local: Counter[str] = Counter()
        self._redis: Any = None
        self._take: Any = None

    @property
    def limit(self) -> int:
        return int(settings.LIVE_MAX_STREAMS_PER_TOKEN)

    def _client(self) -> Any:
        if self._redis is None and self.shared and settings.LIVE_REDIS_URL:
            # Only with LIVE_REDIS_URL set: the embedded default runs without Redis.
            import redis.asyncio as aioredis

            # A few connections per process, waited for when busy: thousands of streams
            # opening at once must not open thousands of Redis connections.
            pool = aioredis.BlockingConnectionPool.from_url(
                settings.LIVE_REDIS_URL,
                max_connections=16,
                timeout=5,
                socket_timeout=2,
                socket_connect_timeout=2,
            )
            self._redis = aioredis.Redis(connection_pool=pool)
            self._take = self._redis.register_script(_TAKE)
        return self._redis

    def _key(self, holder: str) -> str:
        return f"{settings.LIVE_CHANNEL_PREFIX}waits:{holder}"

    async def acquire(self, holder: str, ttl: float) -> Slot | None:
        """A slot for one more open wait of ``holder``, or None when it holds the limit."""
        member = uuid.uuid4().hex
        client = self._client()
        if client is not None:
            now = time.time()
            try:
                args = [now, member, now + ttl, self.limit, int(ttl) + 120]
                if not await self._take(keys=[self._key(holder)], args=args):
                    return None
                return Slot(self, holder, member)
            except Exception as exc:  # Redis away: count in this process instead
                logger.warning("live: stream slots fall back to this process (%s)", exc)
        if self.local[holder] >= self.limit:
            return None
        self.local[holder] += 1
        return Slot(self, holder, "")

    async def _refresh(self, slot: Slot, ttl: float) -> None:
        client = self._client()
        if client is not None and slot.member:
            try:
                await client.zadd(self._key(slot.holder), {slot.member: time.time() + ttl})
            except Exception as exc:
                logger.warning("live: could not refresh a stream slot (%s)", exc)

    async def _release(self, slot: Slot) -> None:
        if not slot.member:
            self.local[slot.holder] -= 1
            if self.local[slot.holder] <= 0:
                del self.local[slot.holder]
            return
        client = self._client()
        try:
            await client.zrem(self._key(slot.holder), slot.member)
        except Exception as exc:  # it lapses by itself
            logger.warning("live: could not release a stream slot (%s)", exc)
