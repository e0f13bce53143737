"""Domain events of a game, and the apps that listen to them (bots, clock, ladder, …).

Register a consumer in your AppConfig.ready()::

    from games import hooks
    hooks.on_move_committed(my_callback)      # every committed move
    hooks.on_game_started(my_callback)        # the fourth seat was filled
    hooks.on_game_finished(my_callback)       # the last move made the game terminal
    hooks.on_game_called_off(my_callback)     # a running game ended without a result

Each callback gets a :class:`GameEvent`. The events are durable: the games services write
each one as an outbox row (:class:`games.models.Event`) in the same transaction as the move,
and :mod:`games.outbox` delivers it to every registered consumer **at least once** — right
after the commit in the committing process, and again from the relay (a Celery beat task)
for whatever was not acknowledged (the process died, a consumer raised). A consumer is
acknowledged when it returns without raising; one that raises is retried later, the
others are not called again.

So a consumer must be idempotent: enqueue a Celery task with ids and a deterministic task
id (``event.key``), or make a write that a second call leaves as it is. It should be quick.
A consumer is known by its ``name`` (by default the callback's module and qualified name):
keep it stable, since deliveries are recorded under it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

KINDS = ("game_started", "move_committed", "game_finished", "game_called_off")


@dataclass(frozen=True, slots=True)
class GameEvent:
    kind: str  # one of KINDS
    game_id: int
    public_id: str
    seq: int  # the game's move count after the event
    seat: int | None  # the seat that moved (move_committed), else None
    to_act: int | None  # the seat whose turn it now is; None when finished
    status: str
    event_id: int | None = None  # the outbox row (None only for an event never stored)
    to_act_abandoned: bool = False  # the seat to act was abandoned: the house bot plays it

    @property
    def key(self) -> str:
        """A stable identity of what happened, for idempotency keys and task ids."""
        return f"{self.kind}:{self.game_id}:{self.seq}"


Callback = Callable[[GameEvent], None]

_registry: dict[str, dict[str, Callback]] = {kind: {} for kind in KINDS}


def consumer_name(callback: Callback) -> str:
    module = getattr(callback, "__module__", None) or "?"
    return f"{module}.{getattr(callback, '__qualname__', repr(callback))}"


def _register(kind: str, callback: Callback, name: str | None) -> Callback:
    # By name, so ready() running twice in some test set-ups registers once.
    _registry[kind][name or consumer_name(callback)] = callback
    return callback


def on_game_started(callback: Callback, *, name: str | None = None) -> Callback:
    return _register("game_started", callback, name)


def on_move_committed(callback: Callback, *, name: str | None = None) -> Callback:
    return _register("move_committed", callback, name)


def on_game_finished(callback: Callback, *, name: str | None = None) -> Callback:
    return _register("game_finished", callback, name)


def on_game_called_off(callback: Callback, *, name: str | None = None) -> Callback:
    """A started game called off without a result (an event's time ran out on it): no
    totals, no rating; those waiting on it learn that it is over."""
    return _register("game_called_off", callback, name)


def unregister(callback: Callback) -> None:
    for consumers in _registry.values():
        for name in [n for n, cb in consumers.items() if cb is callback]:
            del consumers[name]


def consumers(kind: str) -> dict[str, Callback]:
    """The consumers of ``kind`` by name (a copy)."""
    return dict(_registry[kind])


def registered(callback: Callback, kind: str) -> bool:
    return any(cb is callback for cb in _registry[kind].values())
