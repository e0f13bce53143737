"""Playing one bot turn: re-read the game, decide, submit through the games service.

Called by the Celery task with ids only. Every step is safe to repeat: a turn already
played (the game's move count moved on) is left alone, and the move is submitted with an
idempotency key derived from (game, seq), so a redelivered task can never apply it twice.
"""

from __future__ import annotations

import logging
import random
from datetime import timedelta
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.utils import timezone

from backalley_engine.actions import action_str
from backalley_site import metrics
from bots import brain, selectors, services, webhook
from bots.models import Bot, BotKind, BotStatus, FaultKind
from games import claims, statecache
from games.errors import GameOver, IdempotencyKeyReused, NotYourTurn, StaleState
from games.models import Game, SubmittedBy
from games.services import move_submit

logger = logging.getLogger(__name__)


def idempotency_key(game_id: int, seq: int) -> str:
    return f"bot-turn:{game_id}:{seq}"


def turn_payload(game: Game, seat: int, state: Any, deadline_s: float) -> dict[str, Any]:
    """What a webhook bot is sent: only what its seat may see (the engine's seat view)."""
    deadline = timezone.now() + timedelta(seconds=deadline_s)
    return {
        "type": "turn",
        "game": game.public_id,
        "seat": seat,
        "seq": game.move_count,
        "view": state.view(seat),
        "legal_actions": [action_str(a) for a in state.legal_actions()],
        "deadline": deadline.isoformat(),
        "deadline_ms": int(deadline_s * 1000),
    }


def _webhook_action(bot: Bot, game: Game, seat: int, state: Any) -> int | None:
    """The webhook's legal answer, or None after recording the fault.

    Whatever the webhook answers, and whatever fails while we read it or log it, this
    returns: the turn then ends with the house move, so no answer can stall a game.
    """
    try:
        timeout_s = webhook.turn_timeout_s()
        payload = turn_payload(game, seat, state, timeout_s)
        reply = webhook.post_signed(
            bot.webhook_url, services.bot_signing_secrets(bot), payload, timeout_s=timeout_s
        )
        action = webhook.parse_answer(reply.body, state.legal_actions())
    except SoftTimeLimitExceeded:
        raise
    except webhook.WebhookFault as fault:
        metrics.WEBHOOK_FAILURES.labels(kind=fault.kind).inc()
        logger.info(
            "bot %s fault %s at %s#%s", bot.player.name, fault.kind, game.pk, game.move_count
        )
        _record_fault(bot, game, fault.kind, fault.detail)
        return None
    except Exception:
        metrics.WEBHOOK_FAILURES.labels(kind=FaultKind.MALFORMED).inc()
        logger.exception("webhook turn of bot %s failed at %s#%s", bot.pk, game.pk, game.move_count)
        _record_fault(bot, game, FaultKind.MALFORMED, "The answer could not be read.")
        return None
    try:
        services.fault_streak_reset(bot_id=bot.pk)
    except SoftTimeLimitExceeded:
        raise
    except Exception:
        logger.exception("could not reset the fault streak of bot %s", bot.pk)
    return action


def _record_fault(bot: Bot, game: Game, kind: str, detail: str) -> None:
    """Best effort: a fault log that cannot be written must not keep the turn from ending."""
    try:
        services.fault_record(
            bot_id=bot.pk, kind=kind, detail=detail, game_id=game.pk, seq=game.move_count
        )
    except SoftTimeLimitExceeded:
        raise
    except Exception:
        logger.exception("could not record a %s fault of bot %s at %s", kind, bot.pk, game.pk)


def _house_action(game: Game, seat: int, state: Any, seed: int) -> int:
    try:
        action: int = brain.choose_action(brain.HOUSE_STRATEGY, {}, state.clone(), seat, seed)
        return action
    except SoftTimeLimitExceeded:
        raise
    except Exception:
        logger.exception("house strategy failed at %s#%s", game.pk, game.move_count)
        fallback: int = random.Random(seed).choice(state.legal_actions())
        return fallback


def decide(bot: Bot, game: Game, seat: int, state: Any) -> tuple[int, str]:
    """The action for the bot's seat and who is credited (``bot`` or ``system``)."""
    seed = brain.turn_seed(game.pk, game.move_count, seat)
    if bot.kind == BotKind.HOSTED:
        try:
            return brain.choose_action(bot.strategy, bot.params, state.clone(), seat, seed), "bot"
        except SoftTimeLimitExceeded:
            raise
        except Exception:
            # A strategy bug must not stall the game: a random legal action is played for it.
            logger.exception("strategy %r failed at %s#%s", bot.strategy, game.pk, game.move_count)
            fallback: int = random.Random(seed).choice(state.legal_actions())
        return fallback, "system"
    if bot.status == BotStatus.ACTIVE:
        action = _webhook_action(bot, game, seat, state)
        if action is not None:
            return action, "bot"
    # A fault, or a suspended/disabled webhook bot: the house strategy plays so the game goes on.
    return _house_action(game, seat, state, seed), "system"


def play_turn(*, game_id: int, expected_seq: int) -> str:
    """Play the bot seat to act at ``expected_seq``; returns what happened (for logs and tests)."""
    found = selectors.worker_bot_to_act(game_id)
    if found is None:
        return "not_a_bot_turn"  # finished, aborted, unknown, or a person/API bot to act
    game, bot = found
    if game.move_count != expected_seq:
        return "already_played"
    seat = game.to_act
    assert seat is not None
    state = statecache.state_for(game)
    if state.move_count != expected_seq or state.seat_to_act != seat:
        return "already_played"
    if state.claim >= 0:
        # A claim waits for this bot's answer: the house rule answers it (docs/bots.md),
        # for webhook bots too (their protocol has no claims).
        try:
            return claims.bot_answer(
                game_id=game.pk, seat=seat, bot=bot.player, expected_seq=expected_seq
            )
        except (StaleState, NotYourTurn, GameOver, IdempotencyKeyReused):
            return "already_played"
    action, credited = decide(bot, game, seat, state)
    try:
        result = move_submit(
            game_id=game.pk,
            seats=[seat],
            action=action,
            expected_seq=expected_seq,
            idempotency_key=idempotency_key(game.pk, expected_seq),
            submitted_by=SubmittedBy.BOT if credited == "bot" else SubmittedBy.SYSTEM,
            actor=bot.player if credited == "bot" else None,
        )
    except (StaleState, NotYourTurn, GameOver, IdempotencyKeyReused):
        # Someone (a redelivered copy of this task) played this turn meanwhile.
        return "already_played"
    given = game.last_move_at or game.started_at  # when the turn came to the bot
    if given is not None and not result.replayed:  # a replay was counted by the first copy
        waited = (timezone.now() - given).total_seconds()
        metrics.BOT_TURN_LATENCY.labels(kind=bot.kind).observe(max(waited, 0.0))
    return "played" if credited == "bot" else "substituted"
