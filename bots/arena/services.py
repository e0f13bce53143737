"""Writes for the arena: an owner's settings, a matchmaker tick, and each finished game.

Lock order, everywhere: a pair row, then arena entries in bot-id order. Counters move with
``F()`` under those locks. Every function is safe to call twice for the same event (a
redelivered task): what was already counted is recognised and left alone.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count, F, Q, Value
from django.db.models.functions import Greatest
from django.utils import timezone
from django.utils.translation import gettext as _

from backalley_site.errors import DomainError
from bots.arena import bench, matchmaker
from bots.arena.models import ArenaEntry, ArenaPair, PairStatus
from bots.models import Bot, BotFault, BotStatus
from games.errors import BadGameSetup
from games.models import Game, GameStatus, Move
from games.services import deal_set_create, game_create

log = logging.getLogger(__name__)


class ArenaSettingsError(DomainError):
    code = "bad_arena_settings"
    http_status = 400


def _setting(name: str, default: Any) -> Any:
    return getattr(settings, name, default)


# --- the owner's settings ------------------------------------------------------------------


def _even_in(name: str, value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ArenaSettingsError(
            message=_("%(name)s is a whole number from %(lo)s to %(hi)s.")
            % {"name": name, "lo": lo, "hi": hi},
            extra={name: value},
        )
    if value % 2:
        raise ArenaSettingsError(
            message=_("%(name)s is an even number: arena games come in duplicate pairs.")
            % {"name": name},
            extra={name: value},
        )
    return value


def arena_settings_update(
    *,
    bot: Bot,
    opted_in: bool | None = None,
    max_concurrent: int | None = None,
    max_per_day: int | None = None,
) -> ArenaEntry:
    """Opt a bot in or out and set its limits. Opting out stops new games; the games already
    running are played to the end."""
    changes: dict[str, Any] = {}
    if max_concurrent is not None:
        changes["max_concurrent"] = _even_in("max_concurrent", max_concurrent, 2, 64)
    if max_per_day is not None:
        changes["max_per_day"] = _even_in("max_per_day", max_per_day, 2, 1000)
    if opted_in is not None:
        if opted_in and bot.status != BotStatus.ACTIVE:
            raise ArenaSettingsError(
                "bot_not_active",
                _("Only an active bot can enter the arena; %(name)s is %(status)s.")
                % {"name": bot.player.name, "status": bot.status},
                extra={"status": bot.status},
            )
        changes["opted_in"] = opted_in
    with transaction.atomic():
        entry, _unused = ArenaEntry.objects.select_for_update().get_or_create(bot=bot)
        if changes.get("opted_in") and not entry.opted_in:
            changes["opted_in_at"] = timezone.now()
        for field, value in changes.items():
            setattr(entry, field, value)
        entry.save()
    return entry


def arena_leave(*, bot_id: int) -> None:
    """Take a bot out of the arena (its owner disabled or removed it)."""
    ArenaEntry.objects.filter(bot_id=bot_id, opted_in=True).update(opted_in=False)


# --- a tick of the matchmaker -------------------------------------------------------------


def eligible_entries(now: datetime) -> Any:
    """Entries that may start a pair now: opted in, active, not benched, two games of room
    under both limits."""
    today = now.date()
    return (
        ArenaEntry.objects.filter(opted_in=True, bot__status=BotStatus.ACTIVE)
        .filter(Q(benched_until__isnull=True) | Q(benched_until__lte=now))
        .filter(in_flight__lte=F("max_concurrent") - 2)
        .filter(Q(day__isnull=True) | Q(day__lt=today) | Q(games_today__lte=F("max_per_day") - 2))
    )


def _controller(player_id: int, owner_id: int | None, is_house: bool) -> int:
    """The account that sees a bot's hands: its owner (house bots stand alone)."""
    return -player_id if is_house or owner_id is None else owner_id


def candidates(now: datetime) -> list[matchmaker.Candidate]:
    """The bots that may start a pair now, with their ladder rating (1500 before any game)."""
    rows = eligible_entries(now).values_list(
        "bot_id",
        "bot__player_id",
        "bot__player__owner_id",
        "bot__player__is_house",
        "bot__player__ladder__rating",
    )
    return [
        matchmaker.Candidate(
            bot_id, _controller(player_id, owner_id, is_house), float(rating or 1500)
        )
        for bot_id, player_id, owner_id, is_house, rating in rows
    ]


@dataclass(frozen=True)
class TickPlan:
    """What one tick decided: the tables to start (four bot ids each) and what it benched."""

    eligible: int
    tables: list[tuple[int, int, int, int]]
    benched: list[int]
    substituted: int


@dataclass(frozen=True)
class TickResult:
    eligible: int
    pairs: list[int]
    benched: list[int]
    substituted: int


def arena_plan(*, now: datetime | None = None, rng: random.Random | None = None) -> TickPlan:
    """Bench faulty bots, play the turns API bots let run out, and choose the next tables.

    This is the beat tick's own work; starting each table's pair (two games) is a task of
    its own, so a tick stays cheap however many bots are opted in.
    """
    now = now or timezone.now()
    rng = rng or random.Random(secrets.randbits(64))
    benched = bench.arena_bench_faulty(now=now)
    substituted = bench.arena_api_timeouts(now=now)
    room = (
        int(_setting("ARENA_MAX_PAIRS_IN_FLIGHT", 16))
        - ArenaPair.objects.filter(status=PairStatus.PLAYING).count()
    )
    limit = min(int(_setting("ARENA_PAIRS_PER_TICK", 8)), max(room, 0))
    cands = candidates(now) if limit > 0 else []
    tables = matchmaker.choose_tables(
        cands, rng, jitter=float(_setting("ARENA_JITTER", matchmaker.DEFAULT_JITTER)), limit=limit
    )
    return TickPlan(len(cands), tables, benched, substituted)


def arena_tick(*, now: datetime | None = None, rng: random.Random | None = None) -> TickResult:
    """A whole tick in this process: plan it, then start every chosen pair."""
    plan = arena_plan(now=now, rng=rng)
    pairs = []
    for table in plan.tables:
        pair = pair_start(bot_ids=table, now=now)
        if pair is not None:
            pairs.append(pair.pk)
    return TickResult(plan.eligible, pairs, plan.benched, plan.substituted)


def pair_start(*, bot_ids: Sequence[int], now: datetime | None = None) -> ArenaPair | None:
    """Start a duplicate pair for four bots (A = bot_ids[0], [2]; B = [1], [3]).

    The entries are locked and checked again (a concurrent tick may have used their room);
    None when one of them may no longer play.
    """
    now = now or timezone.now()
    today = now.date()
    ids = list(bot_ids)
    if len(set(ids)) != 4:
        raise ValueError("a pair needs four different bots")
    with transaction.atomic():
        locked = list(
            eligible_entries(now).select_for_update().filter(bot_id__in=ids).order_by("bot_id")
        )
        if len(locked) != 4:
            return None
        bots = {b.pk: b for b in Bot.objects.select_related("player").filter(pk__in=ids)}
        p = [bots[i].player for i in ids]
        options = {"rated": True}
        try:
            with transaction.atomic():
                # One deal set: the pair's seed stays secret until both games are over.
                deals = deal_set_create(kind="arena_pair")
                seed = deals.seed
                game_a = game_create(creator=p[0], seats=p, options=options, deal_set=deals)
                game_b = game_create(
                    creator=p[1], seats=[p[1], p[0], p[3], p[2]], options=options, deal_set=deals
                )
        except BadGameSetup as exc:
            log.warning("arena: could not seat bots %s: %s", ids, exc)
            return None
        pair = ArenaPair.objects.create(
            seed=seed,
            game_a=game_a,
            game_b=game_b,
            bot_0_id=ids[0],
            bot_1_id=ids[1],
            bot_2_id=ids[2],
            bot_3_id=ids[3],
        )
        for entry in locked:
            if entry.day != today:
                entry.day = today
                entry.games_today = 0
            entry.games_today += 2
            entry.in_flight += 2
            entry.save(update_fields=["day", "games_today", "in_flight", "updated_at"])
    return pair


# --- a finished game ----------------------------------------------------------------------


def duplicate_score(game_a_totals: tuple[int, int], game_b_totals: tuple[int, int]) -> float:
    """Partnership A's duplicate margin per game (A sits at team 0 in game a, team 1 in b).

    >>> duplicate_score((120, 80), (90, 100))  # (120 - 90 on side 0 + 100 - 80 on side 1) / 2
    25.0
    """
    side_0 = game_a_totals[0] - game_b_totals[0]  # A and B on the same cards, seats 0/2
    side_1 = game_b_totals[1] - game_a_totals[1]  # and on seats 1/3
    return (side_0 + side_1) / 2


def arena_game_finished(*, game_id: int) -> str:
    """Count a finished arena game for its four bots; score the pair when both are done.

    Returns what happened: ``not_arena``, ``not_finished``, ``already_counted``, ``counted``
    or ``scored``.
    """
    with transaction.atomic():
        pair = (
            ArenaPair.objects.select_for_update()
            .filter(Q(game_a_id=game_id) | Q(game_b_id=game_id))
            .first()
        )
        if pair is None:
            return "not_arena"
        is_a = pair.game_a_id == game_id
        if pair.done_a if is_a else pair.done_b:
            return "already_counted"
        game = Game.objects.get(pk=game_id)
        if game.status != GameStatus.FINISHED:
            return "not_finished"
        # Positions of the four bots in this game.
        b = pair.bot_ids
        order = b if is_a else (b[1], b[0], b[3], b[2])
        turns = dict(
            Move.objects.filter(game_id=game_id)
            .values("seat")
            .annotate(n=Count("id"))
            .values_list("seat", "n")
        )
        faults = dict(
            BotFault.objects.filter(game_id=game_id, bot_id__in=order)
            .values("bot_id")
            .annotate(n=Count("id"))
            .values_list("bot_id", "n")
        )
        entries = list(
            ArenaEntry.objects.select_for_update().filter(bot_id__in=order).order_by("bot_id")
        )
        for entry in entries:
            pos = order.index(entry.bot_id)
            ArenaEntry.objects.filter(pk=entry.pk).update(
                in_flight=Greatest(F("in_flight") - 1, Value(0)),
                games=F("games") + 1,
                turns=F("turns") + turns.get(pos, 0),
                faults=F("faults") + faults.get(entry.bot_id, 0),
            )
        if is_a:
            pair.done_a = True
        else:
            pair.done_b = True
        fields = ["done_a", "done_b"]
        result = "counted"
        if pair.done_a and pair.done_b:
            rows: dict[int, tuple[int, int]] = {}
            for pk, t0, t1 in Game.objects.filter(
                pk__in=[pair.game_a_id, pair.game_b_id]
            ).values_list("pk", "total_0", "total_1"):
                assert t0 is not None and t1 is not None  # both games are finished
                rows[pk] = (t0, t1)
            score = duplicate_score(rows[pair.game_a_id], rows[pair.game_b_id])
            pair.score_a = score
            pair.status = PairStatus.FINISHED
            pair.finished_at = timezone.now()
            fields += ["score_a", "status", "finished_at"]
            for entry in entries:
                s = score if entry.bot_id in (pair.bot_0_id, pair.bot_2_id) else -score
                ArenaEntry.objects.filter(pk=entry.pk).update(
                    pairs=F("pairs") + 1,
                    score_sum=F("score_sum") + s,
                    score_sumsq=F("score_sumsq") + s * s,
                )
            result = "scored"
        pair.save(update_fields=fields)
    return result
