"""The language of each account: chosen on the site, used for what is sent to it.

The site's languages are ``settings.LANGUAGES``; a player's own is ``Player.language``
(empty until chosen). E-mails and in-app notices are written in the recipient's language,
never in the language of whoever's request caused them::

    with in_language_of(player):
        title = gettext("Your move")
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.utils import translation

from accounts.models import Player


def supported(code: str | None) -> str | None:
    """``code`` if the site speaks it (``"sv"``; a regional ``"sv-se"`` gives ``"sv"``)."""
    if not code:
        return None
    try:
        found = translation.get_supported_language_variant(code)
    except LookupError:
        return None
    return found if found in dict(settings.LANGUAGES) else None


def language_of(player: Player | None) -> str:
    """The language to write to ``player`` in: their own, else the site's default."""
    own = supported(player.language) if player is not None else None
    return own or settings.LANGUAGE_CODE


@contextmanager
def in_language_of(player: Player | None) -> Iterator[str]:
    """Translate in ``player``'s language inside the block (and restore after it)."""
    code = language_of(player)
    with translation.override(code):
        yield code


def player_set_language(*, player: Player, language: str) -> Player:
    """Remember ``language`` as the player's own (a supported code, else nothing changes)."""
    code = supported(language)
    if code is not None and player.language != code:
        player.language = code
        player.save(update_fields=["language"])
    return player
