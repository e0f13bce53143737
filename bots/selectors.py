"""Reads for bots."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from django.db.models import F, QuerySet
from django.utils.translation import gettext as _

from backalley_site.errors import NotFoundError
from bots.models import Bot, BotFault, BotKind
from games.models import Game, GameStatus, Seat


def bots_of(owner: Any) -> QuerySet[Bot]:
    """The owner's bots (a retired one, deleted after it played, is no longer theirs to see)."""
    return (
        Bot.objects.filter(player__owner=owner, player__retired_at__isnull=True)
        .select_related("player")
        .order_by("id")
    )


def bot_of(owner: Any, name: str) -> Bot:
    """The caller's bot called ``name``; another owner's bot is simply not found."""
    try:
        return bots_of(owner).get(player__name__iexact=name)
    except Bot.DoesNotExist:
        raise NotFoundError(
            message=_("You have no bot called %(name)s.") % {"name": repr(name)},
            extra={"name": name},
        ) from None


def faults_of(bot: Bot) -> QuerySet[BotFault]:
    return BotFault.objects.filter(bot=bot).select_related("game").order_by("-created_at", "-id")


def worker_bot_to_act(game_id: int) -> tuple[Game, Bot] | None:
    """The active game and its hosted or webhook bot to act, in one query; else None."""
    seat = (
        Seat.objects.filter(
            game_id=game_id,
            game__status=GameStatus.ACTIVE,
            position=F("game__to_act"),
            player__bot__kind__in=[BotKind.HOSTED, BotKind.WEBHOOK],
        )
        .select_related("game", "player__bot")
        .first()
    )
    if seat is None:
        return None
    bot = seat.player.bot
    bot.player = seat.player
    return seat.game, bot


# Seats never change once a game has started, so which positions are worker-played bots is
# fixed per game: remembered per process, it saves a query on every committed move.
_POSITIONS_CACHE_SIZE = 4096
_positions: OrderedDict[tuple[int, str], frozenset[int]] = OrderedDict()
_positions_lock = threading.Lock()


def worker_bot_positions(game_id: int, public_id: str) -> frozenset[int]:
    """Positions of a started game held by hosted or webhook bots.

    Keyed by the id and the random public id too, so a reused row id (say a test database
    rolled back) can never be served another game's seats.
    """
    key = (game_id, public_id)
    with _positions_lock:
        if key in _positions:
            _positions.move_to_end(key)
            return _positions[key]
    found = frozenset(
        Seat.objects.filter(
            game_id=game_id, player__bot__kind__in=[BotKind.HOSTED, BotKind.WEBHOOK]
        ).values_list("position", flat=True)
    )
    with _positions_lock:
        _positions[key] = found
        if len(_positions) > _POSITIONS_CACHE_SIZE:
            _positions.popitem(last=False)
    return found
