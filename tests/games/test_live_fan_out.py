"""A move seen by many: the game read once, the waiters woken a slice per turn of the loop,
the answer encoded once, and an answered long poll's slot taken again without Redis."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from typing import Any

import pytest
import redis
from django.conf import settings

from accounts.tokens import token_create
from games.api import events as feed_views
from games.live import hub as live_hub
from games.live.admissions import tickets
from games.live.hub import FAN_OUT_SLICE, Hub, Snapshot
from games.live.slots import PARK_S, Slots
from tests.asgi_calls import asgi_request
from tests.factories import PlayerFactory
from tests.games.conftest import Table
from tests.games.helpers import play


def _members(holder: str) -> dict[bytes, float]:
    store = redis.Redis.from_url(settings.LIVE_REDIS_URL)
    return dict(
        store.zrange(f"{settings.LIVE_CHANNEL_PREFIX}waits:{holder}", 0, -1, withscores=True)
    )


def test_a_watched_game_is_read_once_and_its_waiters_woken_a_slice_per_loop_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    event = {"type": "play", "seq": 1, "seat": 0}
    reads: list[int] = []

    def read(game_id: int, previous: Snapshot | None) -> Snapshot:
        reads.append(game_id)
        if len(reads) == 1:
            return Snapshot(0, "active", (), ())
        return Snapshot(1, "active", (event,), (1,))

    monkeypatch.setattr(live_hub, "_read_snapshot", read)
    waiters = 3 * FAN_OUT_SLICE + 5

    async def scenario() -> tuple[list[int], list[list[dict[str, Any]]]]:
        loop = asyncio.get_running_loop()
        hub = Hub(loop, inline=True)
        watch = hub.watch(7)
        for _ in range(waiters - 1):
            hub.watch(7)
        done: list[int] = [0]

        async def wait() -> list[dict[str, Any]]:
            found, _ = await hub.next_events(7, watch, seat=None, since=0, timeout=30)
            done[0] += 1
            return found

        tasks = [loop.create_task(wait()) for _ in range(waiters)]
        while len(watch.sleepers) < waiters:  # every wait parked on the first read
            await asyncio.sleep(0.01)
        seen: list[int] = []  # waits answered, as of each turn of the loop

        def each_turn() -> None:
            seen.append(done[0])
            if done[0] < waiters:
                loop.call_soon(each_turn)

        hub.wake(7, 1, "active")
        loop.call_soon(each_turn)
        found = await asyncio.wait_for(asyncio.gather(*tasks), 10)
        return seen, found

    seen, found = asyncio.run(scenario())
    assert found == [[event]] * waiters  # every wait got the move
    assert len(reads) == 2  # the first read, and one for the wake-up: not one per waiter
    steps = [b - a for a, b in zip(seen, seen[1:], strict=False)]
    assert max(steps) <= FAN_OUT_SLICE  # never more than a slice answered in one turn
    assert len([s for s in steps if s]) >= 4  # spread over several turns of the loop


def test_an_answered_polls_slot_is_taken_again_here_without_redis(live_redis: Any) -> None:
    holder = f"token:test-{uuid.uuid4().hex}"

    async def scenario() -> tuple[bool, int, int, int]:
        slots = Slots(shared=True)
        first = await slots.acquire(holder, 60)
        assert first is not None
        await first.release(park=True)
        parked = len(_members(holder))  # still counted while parked
        again = await slots.acquire(holder, 60)
        assert again is not None
        same = again.member == first.member
        await again.release(park=True)
        await asyncio.sleep(3 * PARK_S)  # nobody came back for it
        return same, parked, len(_members(holder)), len(slots.parked)

    same, parked, after, still_parked = asyncio.run(scenario())
    assert same and parked == 1  # the same slot, never given back in between
    assert (after, still_parked) == (0, 0)  # given back once its parking was over


def test_a_wait_at_the_limit_gets_the_slot_another_process_had_parked(
    live_redis: Any, settings: Any
) -> None:
    settings.LIVE_MAX_STREAMS_PER_TOKEN = 1
    holder = f"token:test-{uuid.uuid4().hex}"

    async def scenario() -> tuple[bool, float, bool]:
        here, there = Slots(shared=True), Slots(shared=True)
        slot = await there.acquire(holder, 60)
        assert slot is not None
        await slot.release(park=True)  # the poll's answer, in the other process
        started = time.monotonic()
        mine = await here.acquire(holder, 60)  # it came back here
        waited = time.monotonic() - started
        refused = await Slots(shared=True).acquire(holder, 60)  # the limit still holds
        return mine is not None, waited, refused is None

    got, waited, limited = asyncio.run(scenario())
    assert got and waited >= PARK_S
    assert limited


@pytest.mark.django_db(transaction=True)
def test_a_move_seen_by_many_long_polls_is_encoded_once(
    table: Table, live_redis: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from backalley_site.asgi import application

    tickets.forget_all()
    encoded: list[int] = []
    original = feed_views._json

    def counted(snap: Any, events: Any, clock: Any) -> bytes:
        encoded.append(len(events))
        return original(snap, events, clock)

    monkeypatch.setattr(feed_views, "_json", counted)
    secrets = [
        token_create(user=PlayerFactory().user, name="watch", scopes=["read"])[1] for _ in range(6)
    ]
    game = play(table.game, 3)
    seq = game.move_count

    async def scenario() -> list[tuple[int, bytes]]:
        polls = [
            asyncio.ensure_future(
                asgi_request(
                    application,
                    table.url("events/"),
                    f"since={seq}&wait=20".encode(),
                    headers=[(b"authorization", f"Bearer {secret}".encode())],
                )
            )
            for secret in secrets
        ]
        await asyncio.sleep(1.0)  # all of them waiting
        await asyncio.to_thread(play, game, 1)
        answers = await asyncio.wait_for(asyncio.gather(*polls), 20)
        return [(status, body) for status, _, body in answers]

    answers = asyncio.run(scenario())
    tickets.forget_all()
    assert {status for status, _ in answers} == {200}
    bodies = {body for _, body in answers}
    assert len(bodies) == 1  # the same answer for every spectator at that since
    (body,) = bodies
    assert [ev["seq"] for ev in json.loads(body)["events"]] == [seq + 1]
    assert encoded == [1]  # written once, for all six
