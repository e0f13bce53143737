"""Celery tasks of the push app (queue "celery"): thin and idempotent, each taking ids.

``push_turn`` and ``push_game_over`` are enqueued by the push app's outbox consumers
(``push.hooks``) with task ids made from the event, so the outbox's second delivery of an
event is the same task. Each task re-reads the rows and calls :mod:`push.delivery`, which
skips the devices already told; a device whose push service did not answer, answered 429
or 5xx is tried again by the task's retry, with backoff (or after the push service's
``Retry-After``), the others are not posted to again.
"""

from __future__ import annotations

import random
import time
from datetime import datetime
from typing import Any

from celery import Task, shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from accounts.languages import in_language_of
from accounts.models import Player
from games.models import Game, GameStatus
from push import preferences, turns, words
from push.delivery import Delivery, notice_deliver
from push.services import push_active
from tournaments.selectors import game_tournament

COMMON: dict[str, Any] = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "ignore_result": True,
    "soft_time_limit": 120,
    "time_limit": 150,
}
MAX_RETRIES = 8  # about two hours of backoff (30 s, 1 min, 2 min, … 30 min): then dropped
BACKOFF_MAX_S = 1800.0
HOP_S = 1800.0  # a push held by quiet hours waits in hops of this long at most


def _again(task: Task, done: Delivery, **kwargs: Any) -> None:
    """Retry the task for the devices left, after the push service's wish or a backoff."""
    if not done.again:
        return
    if task.request.retries >= MAX_RETRIES:
        return  # given up: counted as failures already, one by one
    backoff = min(settings.PUSH_RETRY_BACKOFF_S * 2**task.request.retries, BACKOFF_MAX_S)
    wait = max(done.retry_after or 0.0, backoff * random.uniform(0.8, 1.2))
    raise task.retry(
        args=(), kwargs={**kwargs, "only": done.again}, countdown=wait, max_retries=None
    )


def _hold(task: Task, end: datetime, task_id: str, kwargs: dict[str, Any]) -> None:
    """Run the task again once the quiet hours end, in hops shorter than the broker's
    visibility timeout (a task waiting longer in a worker would be handed out twice)."""
    if task.request.is_eager:
        return  # run inline (a development set-up): held is dropped, never looped on
    wait = max((end - timezone.now()).total_seconds(), 1.0)
    task.apply_async(kwargs=kwargs, countdown=min(wait, HOP_S), task_id=task_id)


def _send(
    task: Task,
    *,
    player: Player,
    kind: str,
    key: str,
    payload: dict[str, Any],
    urgency: str = "normal",
    again: dict[str, Any],
    hold_id: str,
) -> int:
    """The person's wish for ``kind``, then the delivery and its retry."""
    wish = preferences.wish(player_id=player.pk, kind=kind)
    if not wish.wanted:
        return 0
    if wish.held_until is not None:
        _hold(task, wish.held_until, hold_id, again)
        return 0
    done = notice_deliver(
        player_id=player.pk, key=key, payload=payload, urgency=urgency, only=again.get("only")
    )
    _again(task, done, **{k: v for k, v in again.items() if k != "only"})
    return done.sent


@shared_task(name="push.tasks.push_turn", bind=True, max_retries=None, **COMMON)
def push_turn(
    self: Task, game_id: int, seq: int, until: float, look: int = 0, only: list[int] | None = None
) -> int:
    """ "Your move" for the turn game ``game_id`` reached at move ``seq``, once its seat's
    page has been away long enough (looked at again until ``until``, epoch seconds; this is
    look number ``look``)."""
    if not push_active():
        return 0
    check = turns.turn_check(game_id=int(game_id), seq=int(seq))
    if check.player is None or check.game is None or check.seat is None:
        return 0
    if not check.due:
        wait = max(check.wait or 0.0, 1.0)
        # A device's retry does not wait on; nor does a task run inline (it would loop).
        if only is None and not self.request.is_eager and time.time() + wait <= until:
            push_turn.apply_async(
                kwargs={"game_id": game_id, "seq": seq, "until": until, "look": look + 1},
                countdown=wait,
                task_id=f"push-turn:{game_id}:{seq}:{look + 1}",
            )
        return 0
    with in_language_of(check.player):
        payload = words.your_turn(check.game, check.seat)
    return _send(
        self,
        player=check.player,
        kind="turn",
        key=f"turn:{game_id}:{seq}",
        payload=payload,
        urgency="high",
        again={"game_id": game_id, "seq": seq, "until": until, "look": look + 1, "only": only},
        hold_id=f"push-turn:{game_id}:{seq}:{look + 1}",
    )


@shared_task(name="push.tasks.push_game_over", **COMMON)
def push_game_over(game_id: int) -> int:
    """The result, to each person seated (a task each, so one's retries are theirs)."""
    if not push_active():
        return 0
    recipients = turns.result_recipients(game_id=int(game_id))
    for player, seat in recipients:
        push_result.apply_async(
            kwargs={"game_id": game_id, "player_id": player.pk, "seat": seat},
            task_id=f"push-over:{game_id}:{player.pk}",
        )
    return len(recipients)


@shared_task(name="push.tasks.push_result", bind=True, max_retries=None, **COMMON)
def push_result(
    self: Task, game_id: int, player_id: int, seat: int, only: list[int] | None = None
) -> int:
    game = Game.objects.filter(pk=game_id).first()
    player = Player.objects.filter(pk=player_id).first()
    if game is None or player is None or not push_active():
        return 0
    with in_language_of(player):
        payload = words.game_over(game, int(seat))
    return _send(
        self,
        player=player,
        kind="over",
        key=f"over:{game_id}",
        payload=payload,
        again={"game_id": game_id, "player_id": player_id, "seat": seat, "only": only},
        hold_id=f"push-over:{game_id}:{player_id}:held",
    )


@shared_task(name="push.tasks.push_notice", bind=True, max_retries=None, **COMMON)
def push_notice(
    self: Task,
    player_id: int,
    kind: str,
    key: str,
    title: str,
    body: str,
    game_id: int | None = None,
    only: list[int] | None = None,
) -> int:
    """One of the clock's notices (an invitation or its answer, a claim, a reminder), in the
    words the clock wrote in the person's language: it keeps no row of them when the
    person reads no notices in the app, so they travel with the task."""
    player = Player.objects.filter(pk=player_id).first()
    if player is None or not push_active():
        return 0
    game = Game.objects.filter(pk=game_id).first() if game_id is not None else None
    return _send(
        self,
        player=player,
        kind=kind,
        key=f"{kind}:{key}",
        payload=words.notice(kind=kind, title=title, body=body, game=game),
        again={
            "player_id": player_id,
            "kind": kind,
            "key": key,
            "title": title,
            "body": body,
            "game_id": game_id,
            "only": only,
        },
        hold_id=f"push-notice:{player_id}:{kind}:{key}:held",
    )


@shared_task(name="push.tasks.push_round", **COMMON)
def push_round(game_id: int) -> int:
    """A game started at a tournament's table: its round has started for each person seated
    (a task each, as for the result)."""
    if not push_active() or game_tournament(int(game_id)) is None:
        return 0
    recipients = turns.seated_people(game_id=int(game_id), statuses=(GameStatus.ACTIVE,))
    for player, _seat in recipients:
        push_round_start.apply_async(
            kwargs={"game_id": game_id, "player_id": player.pk},
            task_id=f"push-round:{game_id}:{player.pk}",
        )
    return len(recipients)


@shared_task(name="push.tasks.push_round_start", bind=True, max_retries=None, **COMMON)
def push_round_start(
    self: Task, game_id: int, player_id: int, only: list[int] | None = None
) -> int:
    """One person's "round N has started", while their table's game is still being played
    (held by quiet hours past its end, it is not told at all)."""
    game = Game.objects.filter(pk=game_id, status=GameStatus.ACTIVE).first()
    player = Player.objects.filter(pk=player_id).first()
    found = game_tournament(int(game_id)) if game is not None else None
    if game is None or player is None or found is None or not push_active():
        return 0
    with in_language_of(player):
        payload = words.round_started(
            game, tournament=found["name"], round_number=found["round"], table=found["table"]
        )
    return _send(
        self,
        player=player,
        kind="round",
        key=f"round:{game_id}",
        payload=payload,
        again={"game_id": game_id, "player_id": player_id, "only": only},
        hold_id=f"push-round:{game_id}:{player_id}:held",
    )
