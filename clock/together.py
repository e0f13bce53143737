"""The notice "everyone else is at your table": when every other seat of a running game is
there now (its person's table page or stream, games.live.presence; a bot is always there)
and one person's seat is not, that person is told in the app that the table waits for
them, at most once per game an hour (docs/clock.md). Heard from ``presence.seat_shown``,
which the table page's "shown" ping sends; the notice holds no card, only who is there.
"""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

from django.core.cache import cache
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.languages import in_language_of
from clock.models import Notification, NotificationKind
from clock.reminders import deliver
from games.live import presence
from games.models import Game, Seat

ONCE_EVERY_S = 3600


def everyone_else_here(
    sender: Any, *, game: Game, seats: list[Seat], here: list[bool], **_kwargs: Any
) -> None:
    away = [s for s in seats if not s.player.is_bot and not here[s.position]]
    if len(seats) != 4 or len(away) != 1 or not away[0].player.user_id:
        return
    player = away[0].player
    # A cheap gate before the database: this is heard on every ping of every page.
    if not cache.add(f"clock:together:{game.pk}:{player.pk}", 1, ONCE_EVERY_S):
        return
    since = timezone.now() - timedelta(seconds=ONCE_EVERY_S)
    told = Notification.objects.filter(
        player=player, kind=NotificationKind.TOGETHER, game=game, created_at__gte=since
    )
    if told.exists():
        return
    with in_language_of(player):
        title = _("Everyone is at your table in game %(game)s") % {"game": game.public_id}
        body = _(
            "The other players of game %(game)s are at the table now: a move of yours would "
            "be answered at once."
        ) % {"game": game.public_id}
    hour = int(time.time() // ONCE_EVERY_S)
    deliver(
        player,
        NotificationKind.TOGETHER,
        f"{game.pk}:{hour}",
        title,
        body,
        game=game,
        inapp=True,
        email=False,
    )


def install() -> None:
    presence.seat_shown.connect(everyone_else_here, dispatch_uid="clock.together")
