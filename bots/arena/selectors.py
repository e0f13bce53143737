"""Reads for the arena: the leaderboard and one bot's arena card.

Each read is a fixed number of queries, whatever the size of the arena.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import F, Q, QuerySet
from django.db.models.functions import Lower
from django.utils.translation import gettext as _

from backalley_site.errors import NotFoundError
from bots.arena.models import ArenaEntry, ArenaPair
from bots.house import house_description
from bots.models import Bot, BotFault
from ladder import rating as ladder_rating

FAULT_LOG = 50


def leaderboard() -> QuerySet[ArenaEntry]:
    """Bots that are in the arena or have played in it: best ladder rating first."""
    return (
        ArenaEntry.objects.filter(Q(opted_in=True) | Q(games__gt=0))
        .select_related("bot__player__owner", "bot__player__ladder")
        .annotate(rating=F("bot__player__ladder__rating"))
        .order_by(F("rating").desc(nulls_last=True), "-pairs", "bot_id")
    )


def bot_by_name(name: str) -> Bot:
    """Any bot by name (any case): arena cards are public."""
    try:
        return (
            Bot.objects.select_related("player__owner", "player__ladder", "arena")
            .alias(lower_name=Lower("player__name"))
            .get(lower_name=name.lower())
        )
    except Bot.DoesNotExist:
        raise NotFoundError(
            message=_("No bot is called %(name)s.") % {"name": repr(name)}, extra={"name": name}
        ) from None


def entry_of(bot: Bot) -> ArenaEntry | None:
    try:
        return bot.arena
    except ArenaEntry.DoesNotExist:
        return None


@dataclass(frozen=True)
class Standing:
    """What the leaderboard and a bot's card show about its arena play."""

    name: str
    owner: str
    kind: str
    description: str
    rating: Decimal
    provisional: bool
    rated_games: int
    opted_in: bool
    benched_until: Any
    bench_reason: str
    games: int
    pairs: int
    score: float | None
    score_low: float | None  # None while the interval is unbounded (under two pairs)
    score_high: float | None
    fault_rate: float | None


def _finite(x: float) -> float | None:
    return round(x, 2) if math.isfinite(x) else None


def standing(bot: Bot, entry: ArenaEntry | None) -> Standing:
    row = getattr(bot.player, "ladder", None)
    dup = entry.duplicate_score if entry is not None else None
    return Standing(
        name=bot.player.name,
        owner=bot.player.owner.get_username() if bot.player.owner else "",
        kind=bot.kind,
        # The club's own bots describe themselves in the reader's language.
        description=house_description(bot.description) if bot.player.is_house else bot.description,
        rating=row.rating if row is not None else ladder_rating.START,
        provisional=row.provisional if row is not None else True,
        rated_games=row.games if row is not None else 0,
        opted_in=bool(entry and entry.opted_in),
        benched_until=entry.benched_until if entry is not None else None,
        bench_reason=entry.bench_reason if entry is not None else "",
        games=entry.games if entry is not None else 0,
        pairs=entry.pairs if entry is not None else 0,
        score=round(dup[0], 2) if dup else None,
        score_low=_finite(dup[1]) if dup else None,
        score_high=_finite(dup[2]) if dup else None,
        fault_rate=entry.fault_rate if entry is not None else None,
    )


def standings(entries: list[ArenaEntry]) -> list[Standing]:
    return [standing(e.bot, e) for e in entries]


def recent_pairs(bot: Bot, limit: int = 10) -> list[ArenaPair]:
    """The bot's latest arena pairs, newest first, with both games."""
    b = bot.pk
    return list(
        ArenaPair.objects.filter(Q(bot_0=b) | Q(bot_1=b) | Q(bot_2=b) | Q(bot_3=b))
        .select_related("game_a", "game_b")
        .order_by("-created_at", "-id")[:limit]
    )


def fault_log(bot: Bot, limit: int = FAULT_LOG) -> list[BotFault]:
    return list(
        BotFault.objects.filter(bot=bot)
        .select_related("game")
        .order_by("-created_at", "-id")[:limit]
    )
