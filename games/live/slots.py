"""The per-token cap on open streams and long polls (``LIVE_MAX_STREAMS_PER_TOKEN``).

With Redis the count is shared by every server process: a sorted set per holder whose
members are the open waits, scored by when they lapse (refreshed while a stream lives), so
a crashed process's slots free themselves. Without Redis there is one server process (the
embedded default) and the count is kept in memory.

A long poll is answered after every move of its game and comes straight back for another
wait, with the same credential: giving its slot back and taking one again would be two
Redis round trips per answer per client, most of a broadcast's cost. So a slot given back
by an answered poll is *parked* in this process for ``PARK_S`` and taken by the holder's
next wait here without a word to Redis; what is not taken is given back, all at once,
``PARK_S`` later. A holder may therefore count one wait too many for a moment after an
answer; a wait refused at the limit tries once more after the parking is over, so that a
poll which came back through another process is not refused for a slot parked here.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections import Counter
from typing import Any

from django.conf import settings

logger = logging.getLogger(__name__)

PARK_S = 0.25  # how long an answered poll's slot waits here for that holder's next wait


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
    def __init__(self, slots: Slots, holder: str, member: str, lapses: float) -> None:
        self.slots, self.holder, self.member = slots, holder, member
        self.lapses = lapses  # time.time() when Redis lets it go by itself
        self.released = False

    async def refresh(self, ttl: float) -> None:
        await self.slots._refresh(self, ttl)

    async def release(self, *, park: bool = False) -> None:
        """Give the slot back; ``park``: an answered long poll's, likely taken again at once
        by the holder's next wait (kept here for ``PARK_S``)."""
        if not self.released:
            self.released = True
            if park and self.slots.parks:
                self.slots._park(self)
            else:
                await self.slots._release(self)


class Slots:
    def __init__(self, *, shared: bool) -> None:
        self.shared = shared  # counted in Redis (when configured) for every server process
        # Answered polls' slots are parked only by a hub whose loop lives as long as its
        # process (a shared one), never on the temporary loop of a sync caller.
        self.parks = shared
        self.local: Counter[str] = Counter()
        self.parked: dict[str, list[tuple[Slot, float]]] = {}  # holder -> (slot, since when)
        self._flusher: asyncio.Task[None] | None = None
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

    async def acquire(self, holder: str, ttl: float, *, lease: float = 0.0) -> Slot | None:
        """A slot for one more open wait of ``holder``, held at least ``ttl`` seconds unless
        refreshed, or None when it holds the limit. ``lease``: take (or make good) a slot for
        this long instead, so that the holder's next waits reuse it without a refresh."""
        lease = max(ttl, lease)
        slot = await self._unpark(holder, ttl, lease)
        if slot is not None:
            return slot
        slot = await self._take_new(holder, lease)
        if slot is None and self.parks:
            # At the limit perhaps only for a slot parked in another process by a poll that
            # came back here: it is given back within PARK_S.
            await asyncio.sleep(2 * PARK_S)
            slot = await self._unpark(holder, ttl, lease) or await self._take_new(holder, lease)
        return slot

    async def _take_new(self, holder: str, ttl: float) -> Slot | None:
        member = uuid.uuid4().hex
        client = self._client()
        if client is not None:
            now = time.time()
            try:
                args = [now, member, now + ttl, self.limit, int(ttl) + 120]
                if not await self._take(keys=[self._key(holder)], args=args):
                    return None
                return Slot(self, holder, member, now + ttl)
            except Exception as exc:  # Redis away: count in this process instead
                logger.warning("live: stream slots fall back to this process (%s)", exc)
        if self.local[holder] >= self.limit:
            return None
        self.local[holder] += 1
        return Slot(self, holder, "", float("inf"))

    async def _unpark(self, holder: str, ttl: float, lease: float) -> Slot | None:
        """The holder's parked slot, if any, good for ``ttl`` more seconds (made good for
        ``lease`` when it is not)."""
        parked = self.parked.get(holder)
        if not parked:
            return None
        slot, _ = parked.pop()
        if not parked:
            del self.parked[holder]
        slot.released = False
        if slot.lapses < time.time() + ttl:  # rarely, with a lease longer than a wait
            await self._refresh(slot, lease)
        return slot

    def _park(self, slot: Slot) -> None:
        self.parked.setdefault(slot.holder, []).append((slot, time.monotonic()))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.get_running_loop().create_task(self._flush_parked())

    async def _flush_parked(self) -> None:
        """Give back, in one round trip, every slot parked longer than PARK_S."""
        while self.parked:
            await asyncio.sleep(PARK_S / 2)
            cutoff = time.monotonic() - PARK_S
            due: list[Slot] = []
            for holder in list(self.parked):
                kept = [(slot, at) for slot, at in self.parked[holder] if at > cutoff]
                due += [slot for slot, at in self.parked[holder] if at <= cutoff]
                if kept:
                    self.parked[holder] = kept
                else:
                    del self.parked[holder]
            try:
                await self._release_all(due)
            except Exception:  # each lapses by itself in Redis; the next round goes on
                logger.exception("live: could not give back parked slots")

    async def _refresh(self, slot: Slot, ttl: float) -> None:
        client = self._client()
        if client is not None and slot.member:
            lapses = time.time() + ttl
            try:
                await client.zadd(self._key(slot.holder), {slot.member: lapses})
                slot.lapses = lapses
            except Exception as exc:
                logger.warning("live: could not refresh a stream slot (%s)", exc)

    async def _release_all(self, slots: list[Slot]) -> None:
        shared = [slot for slot in slots if slot.member]
        for slot in slots:
            if not slot.member:
                await self._release(slot)
        if shared:
            client = self._client()
            pipe = client.pipeline(transaction=False)
            for slot in shared:
                pipe.zrem(self._key(slot.holder), slot.member)
            await pipe.execute()

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
