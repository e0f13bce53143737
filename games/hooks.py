"""After-commit hooks: how other apps (bots, ratings, clocks) learn that a game moved on.

Register a callback in your AppConfig.ready()::

    from games import hooks
    hooks.on_move_committed(my_callback)      # every committed move
    hooks.on_game_started(my_callback)        # the fourth seat was filled
    hooks.on_game_finished(my_callback)       # the last move made the game terminal

Each callback gets a :class:`GameEvent`. The games services call :func:`fire` only through
``transaction.on_commit``, so a callback never sees a move that could still roll back, and
it runs after the row locks are released. A callback should be quick (enqueue a Celery task
with ids, not do the work); an exception in one callback is logged and does not stop the others.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class GameEvent:
    kind: str  # "game_started" | "move_committed" | "game_finished"
    game_id: int
    public_id: str
    seq: int  # the game's move count after the event
    seat: int | None  # the seat that moved (move_committed), else None
    to_act: int | None  # the seat whose turn it now is; None when finished
    status: str


Callback = Callable[[GameEvent], None]

_registry: dict[str, list[Callback]] = {
    "game_started": [],
    "move_committed": [],
    "game_finished": [],
}


def _register(kind: str, callback: Callback) -> Callback:
    if callback not in _registry[kind]:  # ready() can run twice in some test set-ups
        _registry[kind].append(callback)
    return callback


def on_game_started(callback: Callback) -> Callback:
    return _register("game_started", callback)


def on_move_committed(callback: Callback) -> Callback:
    return _register("move_committed", callback)


def on_game_finished(callback: Callback) -> Callback:
    return _register("game_finished", callback)


def unregister(callback: Callback) -> None:
    for callbacks in _registry.values():
        if callback in callbacks:
            callbacks.remove(callback)


def fire(event: GameEvent) -> None:
    """Call every callback registered for ``event.kind`` (use from on_commit only)."""
    for callback in list(_registry[event.kind]):
        try:
            callback(event)
        except Exception:  # one broken listener must not hide the move from the others
            logger.exception("games hook %r failed for %s", callback, event)
