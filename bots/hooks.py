"""Scheduling bot turns: when a game starts or a move commits, enqueue the bot to act.

A consumer of the games app's durable events (``games.hooks``): it may be called more than
once for one event (a retry after a crash), so the task has a deterministic id and is
idempotent itself (it re-reads the game and plays only the turn it was sent for).
"""

from __future__ import annotations

from bots import selectors
from bots.runs import SCHEDULER
from bots.tasks import play_bot_turn
from games import hooks as game_hooks
from games.models import GameStatus


def bot_turn_task_id(game_id: int, seq: int) -> str:
    return f"bot-turn:{game_id}:{seq}"


def schedule_bot_turn(event: game_hooks.GameEvent) -> None:
    if event.status != GameStatus.ACTIVE or event.to_act is None:
        return
    # Called only for started games (seats are final), so the per-game answer is cached.
    if event.to_act not in selectors.worker_bot_positions(event.game_id, event.public_id):
        return
    play_bot_turn.apply_async(
        args=(event.game_id, event.seq), task_id=bot_turn_task_id(event.game_id, event.seq)
    )


def install() -> None:
    game_hooks.on_game_started(schedule_bot_turn, name=SCHEDULER)
    game_hooks.on_move_committed(schedule_bot_turn, name=SCHEDULER)
