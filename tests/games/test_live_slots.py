"""The per-token cap on open waits, counted in Redis for every server process."""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any

import pytest
import redis
from django.conf import settings

from games.live.slots import Slots


@pytest.fixture(autouse=True)
def _needs_redis(live_redis: Any) -> None:
    """Tickets and shared slots exist only where every process hears the live channel."""


@pytest.fixture
def holder() -> str:
    return f"token:test-{uuid.uuid4().hex}"


def _members(holder: str) -> dict[bytes, float]:
    store = redis.Redis.from_url(settings.LIVE_REDIS_URL)
    key = f"{settings.LIVE_CHANNEL_PREFIX}waits:{holder}"
    return dict(store.zrange(key, 0, -1, withscores=True))


def test_a_holder_gets_up_to_the_limit_and_a_released_slot_back(
    holder: str, settings: object
) -> None:
    settings.LIVE_MAX_STREAMS_PER_TOKEN = 2  # type: ignore[attr-defined]

    async def scenario() -> list[bool]:
        slots = Slots(shared=True)
        first, second = await slots.acquire(holder, 60), await slots.acquire(holder, 60)
        refused = await slots.acquire(holder, 60)
        assert first is not None and second is not None
        await first.release()
        again = await slots.acquire(holder, 60)
        return [refused is None, again is not None, len(_members(holder)) == 2]

    assert asyncio.run(scenario()) == [True, True, True]


def test_slots_whose_process_died_lapse_by_themselves(holder: str, settings: object) -> None:
    settings.LIVE_MAX_STREAMS_PER_TOKEN = 1  # type: ignore[attr-defined]
    store = redis.Redis.from_url(settings.LIVE_REDIS_URL)  # type: ignore[attr-defined]
    key = f"{settings.LIVE_CHANNEL_PREFIX}waits:{holder}"  # type: ignore[attr-defined]
    store.zadd(key, {"from-a-dead-process": time.time() - 1})  # lapsed a second ago

    async def scenario() -> bool:
        return await Slots(shared=True).acquire(holder, 60) is not None

    assert asyncio.run(scenario())
    assert list(_members(holder)) != [b"from-a-dead-process"]
    assert store.ttl(key) > 60  # the set itself goes when nobody refreshes it
