"""Who may do what in the play API, by API-token scope.

* reading a game needs any of ``read``, ``play`` or ``bot``;
* acting for your own seat needs ``play``; acting for one of your bots' seats needs ``bot``;
* a token made for one bot acts (and looks) only through that bot's seats.

Site sessions hold every scope (see ``accounts.permissions``).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework.request import Request

from accounts.models import Player
from accounts.permissions import PLAY_OR_BOT, READ, Requires, request_scopes, request_token
from accounts.services import player_for_user
from backalley_site.errors import DomainError
from games.errors import UnknownPlayer
from games.models import Seat

# For views that keep ``permission_classes`` (the event feed); others declare ``scopes``.
CanRead = Requires(READ)
CanPlay = Requires(PLAY_OR_BOT)


def controlled_seats(request: Request, seats: list[Seat], *, acting: bool) -> list[int]:
    """The positions this request may act for (``acting``) or look through."""
    user = request.user
    if not getattr(user, "is_authenticated", False):
        return []
    token = request_token(request)
    if token is not None and token.bot_id is not None:
        return sorted(s.position for s in seats if s.player_id == token.bot_id)
    held = request_scopes(request)
    own = "play" in held or (not acting and "read" in held)
    bots = "bot" in held
    out = []
    for seat in seats:
        p = seat.player
        if (own and p.user_id == user.pk) or (bots and p.is_bot and p.owner_id == user.pk):
            out.append(seat.position)
    return sorted(out)


def require_self(request: Request) -> None:
    """Acting as the person (creating a game with "me", taking a seat) needs ``play``."""
    token = request_token(request)
    if "play" not in request_scopes(request) or (token is not None and token.bot_id is not None):
        raise DomainError(
            "insufficient_scope",
            _("Acting as yourself needs a token with the 'play' scope."),
            http_status=403,
        )


def require_bot(request: Request, bot_id: int) -> None:
    """Acting for one of your bots needs ``bot`` (and, on a bot's token, that very bot)."""
    token = request_token(request)
    ok = "bot" in request_scopes(request) and (
        token is None or token.bot_id is None or token.bot_id == bot_id
    )
    if not ok:
        raise DomainError(
            "insufficient_scope",
            _("Acting for this bot needs its token with the 'bot' scope."),
            http_status=403,
        )


def player_named(name: str) -> Player:
    """The player of that name (any case), or ``unknown_player``."""
    player = Player.objects.filter(name__iexact=name).first()
    if player is None:
        raise UnknownPlayer(
            message=_("No player named %(name)s.") % {"name": repr(name)}, extra={"name": name}
        )
    return player


def require_yours(request: Request, player: Player, refused: type[DomainError]) -> None:
    """``player`` is the caller or one of the caller's bots, else ``refused`` (each app
    names the refusal in its own words: an entry, a player)."""
    user = request.user
    if player.user_id != user.pk and not (player.is_bot and player.owner_id == user.pk):
        raise refused(
            message=_("%(name)s is neither you nor one of your bots.") % {"name": player.name}
        )


def acting_player(request: Request, name: str | None, refused: type[DomainError]) -> Player:
    """Who acts in an event: the caller's own player (``play`` scope), or one of their bots
    when named (``bot`` scope, or that bot's own token)."""
    if not name:
        require_self(request)
        return player_for_user(request.user)
    player = player_named(name)
    require_yours(request, player, refused)
    if player.is_bot:
        require_bot(request, player.pk)
    else:
        require_self(request)
    return player
