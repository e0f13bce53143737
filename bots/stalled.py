"""The backstop for a bot turn whose task was lost.

Every bot turn is a task enqueued from the outbox, and the outbox counts an event as
delivered once the task is on the broker. A worker killed at the instant it takes a task
off Redis (the transport moves it to its unacknowledged set in a second step) can lose
that task with nothing left to bring it back, and the game would wait for ever on its
bot. So the beat asks, once a minute, for the turn of every active game whose seat to act
is a hosted or webhook bot and that has not moved for ``BOTS_STALLED_AFTER_S``: the task
plays only the turn it names (the expected seq, under the game's row lock), so a turn
asked twice is played once.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import Exists, OuterRef
from django.db.models.functions import Coalesce
from django.utils import timezone

from bots.models import BotKind
from games.models import Game, GameStatus, Seat

BATCH = 200


def stalled_after_s() -> float:
    return float(getattr(settings, "BOTS_STALLED_AFTER_S", 120.0))


def stalled_turns(*, limit: int = BATCH) -> list[tuple[int, int]]:
    """``(game id, move count)`` of the bot turns that have waited too long, oldest first."""
    since = timezone.now() - timedelta(seconds=stalled_after_s())
    bot_to_act = Seat.objects.filter(
        game_id=OuterRef("pk"),
        position=OuterRef("to_act"),
        player__bot__kind__in=[BotKind.HOSTED, BotKind.WEBHOOK],
    )
    waiting = (
        Game.objects.filter(status=GameStatus.ACTIVE, to_act__isnull=False)
        .annotate(moved_at=Coalesce("last_move_at", "started_at"))
        .filter(moved_at__lt=since)
        .filter(Exists(bot_to_act))
        .order_by("moved_at")
    )
    return list(waiting.values_list("pk", "move_count")[:limit])
