"""The push app follows the games through their durable events (the outbox).

Each consumer only enqueues a task, named after the event (``push-turn:<game>:<seq>:0``,
``push-over:<game>``, ``push-round:<game>``): the outbox's second delivery of an event enqueues the same work,
which the delivery's per-device record makes a no-op. A slow push service holds a worker,
never a move.
"""

from __future__ import annotations

import time
from typing import Any

from clock import signals as notices
from games import hooks as game_hooks
from push import preferences, selectors, turns
from push.services import push_active
from push.tasks import push_game_over, push_notice, push_round, push_turn


def turn_pushed(event: game_hooks.GameEvent) -> None:
    """A turn began (a start or a move): look whether to tell its seat's person."""
    if event.to_act is None or event.to_act_abandoned or not push_active():
        return
    # One indexed look-up instead of a task for every move of every bot (the arena's games).
    if not selectors.seat_has_devices(game_id=event.game_id, seat=event.to_act):
        return
    until = time.time() + turns.watch_s()
    push_turn.apply_async(
        kwargs={"game_id": event.game_id, "seq": event.seq, "until": until, "look": 0},
        task_id=f"push-turn:{event.game_id}:{event.seq}:0",
    )


def result_pushed(event: game_hooks.GameEvent) -> None:
    if not push_active():
        return
    push_game_over.apply_async(
        kwargs={"game_id": event.game_id}, task_id=f"push-over:{event.game_id}"
    )


def round_pushed(event: game_hooks.GameEvent) -> None:
    """A game started: when it is a tournament's table (the task looks), its round has
    started for the people at it."""
    if not push_active() or not selectors.game_has_devices(game_id=event.game_id):
        return
    push_round.apply_async(kwargs={"game_id": event.game_id}, task_id=f"push-round:{event.game_id}")


def notice_pushed(
    sender: Any,
    *,
    player_id: int,
    kind: str,
    key: str,
    title: str,
    body: str,
    game_id: int | None,
    **_kwargs: Any,
) -> None:
    """The clock delivered a notice (once): push it too, if it is a kind pushed and the
    person has a device."""
    if kind not in preferences.SWITCHES or not push_active():
        return
    if not selectors.has_devices(player_id=player_id):
        return
    push_notice.apply_async(
        kwargs={
            "player_id": player_id,
            "kind": kind,
            "key": key,
            "title": title,
            "body": body,
            "game_id": game_id,
        },
        task_id=f"push-notice:{player_id}:{kind}:{key}",
    )


def install() -> None:
    notices.notice_delivered.connect(notice_pushed, dispatch_uid="push.notice_pushed")
    game_hooks.on_game_started(turn_pushed, name="push.turn_pushed")
    game_hooks.on_move_committed(turn_pushed, name="push.turn_pushed")
    game_hooks.on_game_started(round_pushed, name="push.round_pushed")
    game_hooks.on_game_finished(result_pushed, name="push.result_pushed")
    # Called off (a daylong's window closed on it): told as the end, without a score.
    game_hooks.on_game_called_off(result_pushed, name="push.called_off_pushed")
