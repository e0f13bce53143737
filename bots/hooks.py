"""Scheduling bot turns: after a move commits (or a game starts), enqueue the bot to act.

The games app fires these callbacks from ``transaction.on_commit``, so the task is only
ever enqueued for a move that is in the database; the task still re-reads everything.
"""

from __future__ import annotations

import logging

from games import hooks as game_hooks
from games.models import GameStatus

logger = logging.getLogger(__name__)


def schedule_bot_turn(event: game_hooks.GameEvent) -> None:
    if event.status != GameStatus.ACTIVE or event.to_act is None:
        return
    from bots import selectors
    from bots.tasks import play_bot_turn

    # Called only for started games (seats are final), so the per-game answer is cached.
    if event.to_act not in selectors.worker_bot_positions(event.game_id, event.public_id):
        return
    play_bot_turn.apply_async(args=(event.game_id, event.seq), queue="bots")


def install() -> None:
    game_hooks.on_game_started(schedule_bot_turn)
    game_hooks.on_move_committed(schedule_bot_turn)
