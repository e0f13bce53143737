"""What listening apps add to a game's views, without the games app importing them.

The clock, tournaments and other apps sit above ``games``: they may import it, never the
other way round. When one of them has something to show with a game (the running deadline,
the tournament round a game belongs to), it registers a *part* in its ``AppConfig.ready()``::

    from games import extensions
    extensions.register_game_part("clock", clock_part)

A part is a function of the game row that returns JSON-ready data (or ``None`` when it has
nothing to say about that game). The games presenters put every registered part into the
game's payload under its name, so the API and the pages show it without knowing its owner.
Game options owned by another app (the time control) register their cleaner the same way
(and the named values a form offers for them, the time-control presets, and the words a
page shows for a game's value),
and what an app shows on a game's record page (the ladder's rating changes) is a *page
part*: computed only for that page, never on the move path.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from games.models import Game

GamePart = Callable[["Game"], Any]
OptionCleaner = Callable[[Any], Any]
# (key, label, the option's value): the named choices a form offers for an option.
OptionChoices = Callable[[], list[tuple[str, Any, Any]]]
# A stored option's value in words, in the active language ("12 hours per move"; None:
# not a value it knows).
OptionText = Callable[[Any], str | None]

_parts: dict[str, GamePart] = {}
_options: dict[str, OptionCleaner] = {}
_page_parts: dict[str, GamePart] = {}
_choices: dict[str, OptionChoices] = {}
_texts: dict[str, OptionText] = {}


def register_game_part(name: str, part: GamePart) -> GamePart:
    """Show ``part(game)`` under ``name`` in every game payload (idempotent by name)."""
    _parts[name] = part
    return part


def game_parts(game: Game) -> dict[str, Any]:
    """Every registered part for ``game``, by name."""
    return {name: part(game) for name, part in _parts.items()}


def game_part(name: str, game: Game) -> Any:
    """The one part ``name`` for ``game`` (None when no app registered it)."""
    part = _parts.get(name)
    return part(game) if part is not None else None


def register_option(name: str, cleaner: OptionCleaner) -> OptionCleaner:
    """Let games accept option ``name``; ``cleaner`` validates it (raising the app's
    typed error) and returns the value to store."""
    _options[name] = cleaner
    return cleaner


def option_cleaners() -> dict[str, OptionCleaner]:
    return dict(_options)


def register_option_choices(name: str, choices: OptionChoices) -> OptionChoices:
    """Offer named values of option ``name`` on the new-game form (the clock's presets):
    ``choices()`` returns ``(key, label, value)`` triples, in the order shown."""
    _choices[name] = choices
    return choices


def option_choices(name: str) -> list[tuple[str, Any, Any]]:
    """The named values offered for option ``name`` (none when no app offers any)."""
    choices = _choices.get(name)
    return choices() if choices is not None else []


def register_option_text(name: str, text: OptionText) -> OptionText:
    """Say a game's stored value of option ``name`` in words on its pages (the clock's
    "12 hours per move + 3 days reserve"): the owner of the option knows its forms."""
    _texts[name] = text
    return text


def option_text(name: str, value: Any) -> str | None:
    """Option ``name``'s stored ``value`` in words (None when no app says it)."""
    text = _texts.get(name)
    return text(value) if text is not None else None


def register_page_part(name: str, part: GamePart) -> GamePart:
    """Give ``part(game)`` to the game's record page under ``name`` (idempotent by name)."""
    _page_parts[name] = part
    return part


def page_parts(game: Game) -> dict[str, Any]:
    return {name: part(game) for name, part in _page_parts.items()}
