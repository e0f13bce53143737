"""What one seat knows about the deal in progress: the engine's observation of it.

Strategies decide from a :class:`SeatKnowledge`, never from the engine state itself, so a
strategy cannot read another seat's hand by accident. It is the engine's
:class:`backalley_engine.observation.Observation` (``GameState.observation(seat)``): the seat's
own hand, the public table (docs/rules.md §8), the contracts, board levels and whether trump
is broken, and the cards each other seat is known not to hold. The engine derives all of it,
so no strategy re-derives a rule.
"""

from __future__ import annotations

from backalley_engine.observation import Observation, Trick

SeatKnowledge = Observation

__all__ = ["SeatKnowledge", "Trick"]
