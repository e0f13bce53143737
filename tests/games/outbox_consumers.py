"""Consumers for the crash tests of the outbox, registered in every process of the test
(the pytest process, the committing process that is killed, the worker).

``record`` keeps, in Redis, how often each event reached it (``calls``) and the set of
events it took (``effects``: an idempotent write, so a redelivery changes nothing).
``kill_once`` SIGKILLs its whole process group the first time it is called in a process
started with ``OUTBOX_TEST_KILL_ONCE=1`` (the worker, mid-dispatch), never again.
"""

from __future__ import annotations

import os
import signal

import redis
from django.conf import settings

from games import hooks

PREFIX = "outbox-test:"


def store() -> redis.Redis:
    return redis.Redis.from_url(settings.CELERY_BROKER_URL)


def reset() -> None:
    r = store()
    r.delete(*(r.keys(PREFIX + "*") or [PREFIX + "none"]))


def record(event: hooks.GameEvent) -> None:
    r = store()
    r.hincrby(PREFIX + "calls", event.key, 1)
    r.sadd(PREFIX + "effects", event.key)


def kill_once(event: hooks.GameEvent) -> None:
    if os.environ.get("OUTBOX_TEST_KILL_ONCE") != "1":
        return
    if store().set(PREFIX + "killed", event.key, nx=True):
        os.killpg(os.getpgrp(), signal.SIGKILL)  # the worker and its pool, mid-dispatch


def install() -> None:
    for register in (hooks.on_game_started, hooks.on_move_committed, hooks.on_game_finished):
        register(record, name="tests.record")
        register(kill_once, name="tests.kill_once")


def uninstall() -> None:
    hooks.unregister(record)
    hooks.unregister(kill_once)


install()  # on import: the worker imports this module with --include


def calls() -> dict[str, int]:
    return {k.decode(): int(v) for k, v in store().hgetall(PREFIX + "calls").items()}


def effects() -> set[str]:
    return {k.decode() for k in store().smembers(PREFIX + "effects")}


def killed() -> str | None:
    value = store().get(PREFIX + "killed")
    return value.decode() if value else None
