"""Reads for accounts."""

from __future__ import annotations

from django.utils.translation import gettext as _

from accounts.models import Player
from backalley_site.errors import NotFoundError


def player_get_by_name(name: str) -> Player:
    """The player called ``name`` (ignoring case); raises ``not_found``."""
    try:
        return Player.objects.get(name__iexact=name.strip())
    except Player.DoesNotExist:
        raise NotFoundError(
            message=_("No player is called %(name)s.") % {"name": repr(name)}, extra={"name": name}
        ) from None
