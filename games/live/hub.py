"""The hub: one per server process (per event loop), where the event feed's clients wait.

A waiting client is a coroutine parked on its game's :class:`Watch`. The hub hears
wake-ups (Redis pub/sub, one subscription per process, or in-process calls from a commit in
this process) and wakes only the watches of those games. A woken game is read once (in a
small thread pool) and that snapshot is shared by all its waiters, each of which then picks
the events its seat may see since its own ``since``. A snapshot extends the previous one
with the new moves only, and carries the clock's part as of its read, so a wake-up costs
the same few queries however many clients wait on the game. The waiters are then woken
``FAN_OUT_SLICE`` at a time, one slice per turn of the event loop, so a game watched by
thousands never holds the loop for the whole fan-out: the requests that arrive meanwhile
(a move, a health check) are served between two slices. Every ``LIVE_CHECK_INTERVAL`` seconds
one query re-reads the counters of all watched games, so a lost wake-up (Redis down, a
move made in a worker without Redis) only delays an event. When the server is told to
stop (SIGTERM/SIGINT), every wait returns at once, so streams close cleanly and clients
resume from their last id.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import logging
import os
import signal
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections

from games import extensions, feed
from games.live import admissions, presence, publish
from games.live.slots import Slots
from games.models import Game

logger = logging.getLogger(__name__)
T = TypeVar("T")
DONE = ("finished", "aborted", "gone")
FAN_OUT_SLICE = 64  # waiters woken per turn of the loop (~5 ms of their work, measured)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A game's feed as of one read: every event so far (the seats' private ones included:
    each waiter filters for its own seat)."""

    seq: int
    status: str
    events: tuple[dict[str, Any], ...]
    seqs: tuple[int, ...]
    clock: Any = None  # the clock's part of the game, as of this read
    entry: Any = None  # the feed's entry (games.feed.FeedEntry), extended by the next read
    timed: bool = False  # whether the game has a clock at all (chosen at its creation)
    # Answers already written from this snapshot, by (format, since, seat): the waiters of
    # one game mostly share a since, so a broadcast is encoded once, not once per watcher.
    rendered: dict[tuple[str, int, int | None], bytes] = field(
        default_factory=dict, compare=False, repr=False
    )

    @property
    def done(self) -> bool:
        return self.status in DONE

    def since(self, since: int, seat: int | None) -> list[dict[str, Any]]:
        start = bisect.bisect_right(self.seqs, since)
        return [ev for ev in self.events[start:] if feed.visible_to(ev, seat)]


def _read_snapshot(game_id: int, previous: Snapshot | None) -> Snapshot:
    game = Game.objects.filter(pk=game_id).defer("snapshot").first()
    if game is None:
        return Snapshot(-1, "gone", (), ())
    events, seqs, entry = feed.feed_upto(game, previous.entry if previous else None)
    clock = extensions.game_part("clock", game)
    timed = game.time_control is not None
    return Snapshot(game.move_count, game.status, events, seqs, clock, entry, timed)


def _read_counters(ids: list[int]) -> list[tuple[int, int, str]]:
    return list(Game.objects.filter(pk__in=ids).values_list("pk", "move_count", "status"))


def _job(fn: Callable[..., T], args: tuple[Any, ...]) -> T:
    # A request's worth of database work: Django's per-request connection handling, here.
    close_old_connections()
    try:
        return fn(*args)
    finally:
        close_old_connections()


class Watch:
    """The waiters of one game in this process."""

    __slots__ = ("waiters", "gen", "changed", "sleepers", "snap", "snap_gen", "loading")

    def __init__(self) -> None:
        self.waiters = 0
        self.gen = 0  # bumped by every wake-up that may bring news
        # Done (and replaced) by each such wake-up.
        self.changed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        # The waits parked until ``changed`` is done (in arrival order), each its own future:
        # a wake-up hands them to the fan-out, which wakes them a slice at a time.
        self.sleepers: dict[asyncio.Future[None], None] = {}
        self.snap: Snapshot | None = None
        self.snap_gen = -1
        self.loading: asyncio.Task[None] | None = None


_executor: ThreadPoolExecutor | None = None
_executor_lock = threading.Lock()


def _shared_executor() -> ThreadPoolExecutor:
    """One small pool per process for the feed's reads (bounded connections)."""
    global _executor
    with _executor_lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(settings.LIVE_DB_THREADS, thread_name_prefix="live-db")
        return _executor


class Hub:
    """``inline``: the hub of a sync caller's temporary loop (the WSGI handler or Django's
    test client run an async view through ``async_to_sync``): its database work runs in the
    caller's own thread, on its connection and transaction, and it has no subscription."""

    def __init__(self, loop: asyncio.AbstractEventLoop, *, inline: bool = False) -> None:
        self.loop = loop
        self.inline = inline
        self.watches: dict[int, Watch] = {}
        self.closing = asyncio.Event()
        self.slots = Slots(shared=not inline)
        self.presence = presence.StreamMarks(inline=inline, db=self.db)
        self._tasks: list[asyncio.Task[None]] = []
        self._fanning: set[asyncio.Task[None]] = set()
        self._started = False

    # --- lifecycle ------------------------------------------------------------------------
    def start(self) -> None:
        if self._started:
            return
        self._started = True
        self._tasks.append(self.loop.create_task(self._check_forever()))
        if settings.LIVE_REDIS_URL and not self.inline:
            self._tasks.append(self.loop.create_task(self._subscribe_forever()))
        self._install_shutdown_hook()

    def close(self) -> None:
        """Return every wait now (the server is stopping); new waits return at once too."""
        if self.closing.is_set():
            return
        self.closing.set()
        for watch in self.watches.values():
            self._wake_now(self._bump(watch))

    def _install_shutdown_hook(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return  # signals reach only the main thread (a test server in a thread has none)
        for sig in (signal.SIGTERM, signal.SIGINT):
            previous = signal.getsignal(sig)

            def handler(signum: int, frame: Any, previous: Any = previous) -> None:
                self.loop.call_soon_threadsafe(self.close)
                if callable(previous):
                    previous(signum, frame)  # the server's own handler: it starts its stop
                elif previous == signal.SIG_DFL:
                    signal.signal(signum, signal.SIG_DFL)
                    os.kill(os.getpid(), signum)

            signal.signal(sig, handler)

    # --- database work, off the event loop ------------------------------------------------
    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        if self.inline:
            return await sync_to_async(fn, thread_sensitive=True)(*args)
        return await self.loop.run_in_executor(_shared_executor(), _job, fn, args)

    # --- watching -------------------------------------------------------------------------
    def watch(self, game_id: int) -> Watch:
        watch = self.watches.get(game_id)
        if watch is None:
            watch = self.watches[game_id] = Watch()
        watch.waiters += 1
        return watch

    def unwatch(self, game_id: int) -> None:
        watch = self.watches.get(game_id)
        if watch is not None:
            watch.waiters -= 1
            if watch.waiters <= 0 and watch.loading is None:
                del self.watches[game_id]

    def wake(self, game_id: int, seq: int, status: str) -> None:
        """A wake-up heard: wake the game's waiters unless their snapshot already has it."""
        watch = self.watches.get(game_id)
        if watch is None:
            return
        snap = watch.snap
        fresh = snap is not None and watch.snap_gen == watch.gen
        if (
            fresh
            and snap is not None
            and (seq < snap.seq or (seq == snap.seq and status == snap.status))
        ):
            return
        sleepers = self._bump(watch)
        if sleepers:
            task = self.loop.create_task(self._fan_out(game_id, watch, sleepers))
            self._fanning.add(task)  # held until done: the loop keeps only a weak reference
            task.add_done_callback(self._fanning.discard)

    @staticmethod
    def _bump(watch: Watch) -> list[asyncio.Future[None]]:
        """A new generation: what was read before it is stale. Returns the parked waits."""
        watch.gen += 1
        changed, watch.changed = watch.changed, watch.changed.get_loop().create_future()
        sleepers, watch.sleepers = list(watch.sleepers), {}
        if not changed.done():
            changed.set_result(None)
        return sleepers

    @staticmethod
    def _wake_now(sleepers: list[asyncio.Future[None]]) -> None:
        for sleeper in sleepers:
            if not sleeper.done():
                sleeper.set_result(None)

    async def _fan_out(
        self, game_id: int, watch: Watch, sleepers: list[asyncio.Future[None]]
    ) -> None:
        """Read the game once for all, then wake its parked waits a slice per loop turn."""
        # A failed read: each woken wait reads for itself, and meets the error there.
        with contextlib.suppress(Exception):
            await self.snapshot(game_id, watch)
        for start in range(0, len(sleepers), FAN_OUT_SLICE):
            if start:
                await asyncio.sleep(0)  # one turn of the loop: its sockets are served
            self._wake_now(sleepers[start : start + FAN_OUT_SLICE])

    async def snapshot(self, game_id: int, watch: Watch) -> Snapshot:
        """The game's feed, read once for all its waiters since the last wake-up."""
        while watch.snap is None or watch.snap_gen != watch.gen:
            if watch.loading is None:
                watch.loading = self.loop.create_task(self._load(game_id, watch))
            await asyncio.shield(watch.loading)
        return watch.snap

    async def _load(self, game_id: int, watch: Watch) -> None:
        gen = watch.gen
        try:
            snap = await self.db(_read_snapshot, game_id, watch.snap)
            if watch.snap is None or snap.seq >= watch.snap.seq:
                watch.snap = snap
            watch.snap_gen = gen
        finally:
            watch.loading = None
            if watch.waiters <= 0:
                self.watches.pop(game_id, None)

    async def next_events(
        self, game_id: int, watch: Watch, *, seat: int | None, since: int, timeout: float
    ) -> tuple[list[dict[str, Any]], Snapshot]:
        """Events newer than ``since`` for ``seat``, waiting up to ``timeout`` seconds for
        some; returns early (maybe with none) when the game is over or the server stops."""
        deadline = self.loop.time() + timeout
        while True:
            changed = watch.changed  # taken before the read: a wake-up during it is kept
            snap = await self.snapshot(game_id, watch)
            events = snap.since(since, seat)
            remaining = deadline - self.loop.time()
            if events or snap.done or self.closing.is_set() or remaining <= 0:
                return events, snap
            await self._until(watch, changed, remaining)

    async def _until(self, watch: Watch, changed: asyncio.Future[None], timeout: float) -> None:
        """Wait until the wake-up that finishes ``changed`` (``watch``'s generation as this
        wait read it) reaches this wait, or ``timeout`` s have passed, whichever is first.

        Why not ``asyncio.timeout``: its TimeoutError (one per heartbeat, one per idle long
        poll: hundreds a second with thousands waiting) leaves a reference cycle through its
        traceback, and chasing those cycles made the collector pause the loop for 100+ ms.
        """
        if changed.done():
            return
        mine: asyncio.Future[None] = self.loop.create_future()
        sleepers = watch.sleepers  # the current generation's: ``changed`` is not done
        sleepers[mine] = None
        timer = self.loop.call_later(timeout, _release, mine)
        try:
            await mine
        finally:
            timer.cancel()
            sleepers.pop(mine, None)

    # --- hearing wake-ups -----------------------------------------------------------------
    async def check(self) -> None:
        """Re-read the counters of every watched game (one query) and wake the changed."""
        ids = list(self.watches)
        if not ids:
            return
        for game_id, seq, status in await self.db(_read_counters, ids):
            self.wake(game_id, seq, status)

    async def _check_forever(self) -> None:
        while not self.closing.is_set():
            await asyncio.sleep(settings.LIVE_CHECK_INTERVAL)
            try:
                await self.check()
            except Exception:  # the next round tries again
                logger.exception("live: periodic check failed")

    def heard(self, data: bytes | str) -> None:
        """A message on the live channel: a wake-up, or "forget the admissions"."""
        if data in (publish.FORGET_ADMISSIONS, publish.FORGET_ADMISSIONS.encode()):
            admissions.tickets.forget_all()
            return
        parsed = publish.decode(data)
        if parsed is not None:
            self.wake(*parsed)

    async def _subscribe_forever(self) -> None:
        # Loaded only in a process that subscribes (LIVE_REDIS_URL set, not inline): the
        # embedded default runs without Redis, and redis.asyncio is a sizeable import.
        import redis.asyncio as aioredis

        name = publish.channel()
        listened = False
        while not self.closing.is_set():
            client = aioredis.Redis.from_url(settings.LIVE_REDIS_URL)
            try:
                pubsub = client.pubsub()
                await pubsub.subscribe(name)
                # What was published while we were not listening: moves, and perhaps a
                # credential's change that this process's admissions must not outlive.
                if listened:
                    admissions.tickets.forget_all()
                listened = True
                await self.check()
                async for message in pubsub.listen():
                    if message.get("type") == "message":
                        self.heard(message["data"])
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                logger.warning("live: Redis subscription lost (%s); retrying", exc)
                await asyncio.sleep(1.0)
            finally:
                await client.aclose()


def _release(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


_hubs: dict[asyncio.AbstractEventLoop, Hub] = {}
_hubs_lock = threading.Lock()


def get(*, inline: bool = False) -> Hub:
    """The hub of the running event loop (created and started on first use)."""
    loop = asyncio.get_running_loop()
    with _hubs_lock:
        for old in [lp for lp in _hubs if lp.is_closed()]:
            del _hubs[old]
        hub = _hubs.get(loop)
        if hub is None:
            hub = _hubs[loop] = Hub(loop, inline=inline)
    hub.start()
    return hub


def wake_all(game_id: int, seq: int, status: str) -> None:
    """Wake ``game_id``'s waiters in every hub of this process (callable from any thread)."""
    with _hubs_lock:
        hubs = list(_hubs.values())
    for hub in hubs:
        with contextlib.suppress(RuntimeError):  # that loop has closed
            hub.loop.call_soon_threadsafe(hub.wake, game_id, seq, status)


# A commit in this process wakes its hubs without a trip through Redis.
publish.on_wake(wake_all)
