"""How a hosted bot (and the house substitute for a faulty webhook bot) picks its action.

One small interface over the built-in strategies of ``bots.strategies``, so the task code
never depends on how a strategy is written: :func:`choose_action` takes the engine state
and the seat and returns a legal action int. Strategies see only what the seat may see;
that guarantee lives in ``bots.strategies`` (they decide from the seat's knowledge only).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from backalley_site.errors import DomainError
from bots import strategies

HOUSE_STRATEGY = "heuristic"


class StrategyError(DomainError):
    code = "bad_strategy"
    http_status = 400


def available_strategies() -> dict[str, dict[str, Any]]:
    """Name -> the accepted ``params`` with their defaults."""
    return strategies.available()


def validate(strategy: str, params: Mapping[str, Any] | None) -> dict[str, Any]:
    """The params to store for ``strategy``; raises ``bad_strategy`` / ``bad_params``."""
    known = available_strategies()
    if strategy not in known:
        raise StrategyError(
            message=_("Unknown strategy %(strategy)s; choose one of %(value)s.")
            % {"strategy": repr(strategy), "value": ", ".join(sorted(known))},
            extra={"strategy": strategy, "available": sorted(known)},
        )
    if params is None:
        params = {}
    if not isinstance(params, Mapping):
        raise DomainError("bad_params", _("The params are a JSON object."), extra={})
    try:
        return strategies.validate_params(strategy, dict(params))
    except (ValueError, TypeError) as exc:
        raise DomainError(
            "bad_params", str(exc), extra={"strategy": strategy, "accepted": known[strategy]}
        ) from exc


def turn_seed(game_id: int, seq: int, seat: int) -> int:
    """A reproducible seed per turn, so a replayed task makes the same choice."""
    digest = hashlib.sha256(f"{game_id}:{seq}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def choose_action(
    strategy: str, params: Mapping[str, Any], state: Any, seat: int, rng_seed: int
) -> int:
    """A legal action for ``seat`` in ``state`` (the engine's GameState; not mutated)."""
    return strategies.choose_action(strategy, dict(params), state, seat, rng_seed)


# The house-strong bot's parameters: its search stops after 10 ms of CPU time per decision
# (bench/bots_house.py measures it over whole games in duplicate against house-heuristic).
HOUSE_STRONG_PARAMS: dict[str, Any] = {"samples": 1000, "time_budget": 0.01}
