"""The house bot's choice for a seat whose player ran out of time or abandoned the game.

One function, so the strategy can be swapped in one line: it goes through the bots'
strategy interface with the house strategy (``heuristic``), which plays a legal action
from the seat's own view.
"""

from __future__ import annotations

from typing import Any

from bots import brain


def house_action(state: Any, seat: int, rng_seed: int) -> int:
    """A legal action for ``seat`` (``state`` is the engine's GameState; it is not mutated)."""
    return brain.choose_action(brain.HOUSE_STRATEGY, {}, state.clone(), seat, rng_seed)
