"""The time controls offered by name: on the new-game form, and to clients at
``GET /api/v1/time-controls/`` (``{"time_control": {"preset": "fast"}}`` chooses one).

A preset is only a name for a time per move and a bank: a game stores the times
(``clock.timecontrol``), so changing a preset later changes no game already made.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy, ngettext

MINUTE = 60
HOUR = 60 * MINUTE
DAY = 24 * HOUR


@dataclass(frozen=True, slots=True)
class Preset:
    name: str  # a stable identifier
    label: str | Promise  # what a person reads
    seconds_per_move: int
    bank_seconds: int

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "label": str(self.label),
            "seconds_per_move": self.seconds_per_move,
            "bank_seconds": self.bank_seconds,
            "time_control": {"preset": self.name},
        }


PRESETS: tuple[Preset, ...] = (
    Preset(
        "live", gettext_lazy("Live: 2 minutes a move + 10 minutes bank"), 2 * MINUTE, 10 * MINUTE
    ),
    Preset(
        "fast",
        gettext_lazy("Fast correspondence: 12 hours a move + 3 days bank"),
        12 * HOUR,
        3 * DAY,
    ),
    Preset("daily", gettext_lazy("Daily: 1 day a move + 2 days bank"), DAY, 2 * DAY),
    Preset("slow", gettext_lazy("Slow: 3 days a move"), 3 * DAY, 0),
)


def preset_named(name: Any) -> Preset | None:
    """The preset called ``name`` (None for any other value)."""
    return next((p for p in PRESETS if p.name == name), None)


# The whole-day controls the form offered before the presets (3 days is "slow").
DAY_CHOICES = (1, 2, 7)


def form_choices() -> list[tuple[str, Any, Any]]:
    """The new-game form's time controls: the presets, then whole days per move (called
    for each form, in the language of its request)."""
    choices: list[tuple[str, Any, Any]] = [(p.name, p.label, {"preset": p.name}) for p in PRESETS]
    for days in DAY_CHOICES:
        label = ngettext("%(count)s day per move", "%(count)s days per move", days) % {
            "count": days
        }
        choices.append((f"{days}d", label, {"days_per_move": days}))
    return choices
