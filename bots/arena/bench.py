"""Keeping faulty bots out of the arena for a while, and playing the turns API bots let lapse.

A bot is *benched* when, since the later of one fault window ago and its last return from
the bench, at least ``ARENA_BENCH_MIN_FAULTS`` of its turns faulted and they are at least
``ARENA_BENCH_RATE`` of its turns. It plays no new arena game for ``ARENA_BENCH_COOLDOWN_S``
and is then re-admitted by itself; the faults from before its return no longer count.

Hosted and webhook bots are played by the workers (a webhook's fault is logged there and the
house strategy plays its move). An API bot plays its own seats; in an arena game, a turn it
leaves open for ``ARENA_API_TURN_S`` seconds is played by the house strategy and logged as a
``timeout`` fault, so one silent bot cannot stall the arena.
"""

from __future__ import annotations

import logging
from collections import Counter
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Count, F, Q
from django.db.models.functions import Coalesce, Greatest

from bots import brain, services
from bots.arena.models import ArenaEntry
from bots.models import BotFault, BotKind, FaultKind
from games import statecache
from games.errors import GameOver, IdempotencyKeyReused, NotYourTurn, StaleState
from games.models import Game, GameStatus, Move, SubmittedBy
from games.services import move_submit

log = logging.getLogger(__name__)


def _s(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


def arena_bench_faulty(*, now: datetime) -> list[int]:
    """Bench the opted-in bots that faulted too often; returns their bot ids."""
    window_start = now - timedelta(seconds=_s("ARENA_FAULT_WINDOW_S", 3600))
    min_faults = int(_s("ARENA_BENCH_MIN_FAULTS", 5))
    # Only bots with enough recent faults are looked at: a few rows, whatever the arena's size.
    suspects = (
        ArenaEntry.objects.filter(opted_in=True)
        .filter(Q(benched_until__isnull=True) | Q(benched_until__lte=now))
        .annotate(since=Greatest(Coalesce("benched_until", window_start), window_start))
        .annotate(recent=Count("bot__faults", filter=Q(bot__faults__created_at__gte=F("since"))))
        .filter(recent__gte=min_faults)
        .select_related("bot__player")
    )
    benched = []
    for entry in suspects:
        faults = list(
            BotFault.objects.filter(bot_id=entry.bot_id, created_at__gte=entry.since).values_list(
                "kind", flat=True
            )
        )
        played = Move.objects.filter(actor_id=entry.bot.player_id, created_at__gte=entry.since)
        turns = len(faults) + played.count()
        if len(faults) < _s("ARENA_BENCH_RATE", 0.2) * turns:
            continue
        kinds = ", ".join(f"{k} ×{n}" for k, n in Counter(faults).most_common())
        reason = f"{len(faults)} of its last {turns} turns faulted ({kinds})"
        if arena_bench(bot_id=entry.bot_id, now=now, reason=reason):
            benched.append(entry.bot_id)
    return benched


def arena_bench(*, bot_id: int, now: datetime, reason: str) -> bool:
    """Bench one bot for the cool-down (False if it is already on the bench)."""
    until = now + timedelta(seconds=_s("ARENA_BENCH_COOLDOWN_S", 3600))
    changed = (
        ArenaEntry.objects.filter(bot_id=bot_id)
        .filter(Q(benched_until__isnull=True) | Q(benched_until__lte=now))
        .update(
            benched_at=now,
            benched_until=until,
            bench_reason=reason[:200],
            benches=F("benches") + 1,
        )
    )
    if changed:
        log.info("arena: bot %s benched until %s: %s", bot_id, until, reason)
    return bool(changed)


def lapsed_api_turns(*, now: datetime) -> list[tuple[int, int, int]]:
    """(game id, seq, bot id) of arena games whose API bot to act let its time run out."""
    cutoff = now - timedelta(seconds=_s("ARENA_API_TURN_S", 60))
    return list(
        Game.objects.filter(status=GameStatus.ACTIVE)
        .filter(Q(arena_as_a__isnull=False) | Q(arena_as_b__isnull=False))
        .filter(seats__position=F("to_act"), seats__player__bot__kind=BotKind.API)
        .filter(Q(last_move_at__lt=cutoff) | Q(last_move_at__isnull=True, started_at__lt=cutoff))
        .values_list("pk", "move_count", "seats__player__bot__id")[:500]
    )


def arena_api_timeouts(*, now: datetime) -> int:
    """Play each lapsed API-bot turn with the house strategy and log a timeout fault."""
    played = 0
    for game_id, seq, bot_id in lapsed_api_turns(now=now):
        game = Game.objects.get(pk=game_id)
        if game.move_count != seq or game.to_act is None:
            continue
        state = statecache.state_for(game)
        seat = game.to_act
        action = brain.choose_action(
            brain.HOUSE_STRATEGY, {}, state.clone(), seat, brain.turn_seed(game_id, seq, seat)
        )
        try:
            with transaction.atomic():
                move_submit(
                    game_id=game_id,
                    seats=[seat],
                    action=action,
                    expected_seq=seq,
                    idempotency_key=f"arena-timeout:{game_id}:{seq}",
                    submitted_by=SubmittedBy.SYSTEM,
                )
        except (StaleState, NotYourTurn, GameOver, IdempotencyKeyReused):
            continue  # the bot moved at the last moment
        services.fault_record(
            bot_id=bot_id,
            kind=FaultKind.TIMEOUT,
            detail=f"No move within {_s('ARENA_API_TURN_S', 60):g} s in an arena game.",
            game_id=game_id,
            seq=seq,
        )
        played += 1
    return played
