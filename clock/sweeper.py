"""The sweeper: the house bot moves for seats past their deadline.

Each due game is handled in its own transaction that locks the game row with
``SKIP LOCKED`` (a game being moved, or handled by another sweeper, is left for the next
tick), re-checks that the turn is still due, and submits the substitute move through
``games.services.move_submit`` with ``submitted_by="system"`` and the idempotency key
``clock:<game>:<seq>``: a second sweep, or two beat ticks racing, can never make two moves.

After ``TIMEOUTS_TO_ABANDON`` timeouts in a row the player has abandoned the game: the
seat is marked (``games.Seat.abandoned_at``, read by the ladder) and every later turn of
that seat is due at once, played by the house bot. A deleted account's seats are marked so
too (``clock.personal_data``), in untimed games as well: each of their turns is enqueued as
it comes (:func:`abandoned_play`), and the sweep finds any whose task was lost.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.languages import in_language_of
from bots.brain import turn_seed
from clock import substitute, timecontrol
from clock.models import GameClock, Notification, NotificationKind, SeatClock
from clock.vacation import vacations_expire
from games import claims, statecache
from games.errors import GameOver, IdempotencyKeyReused, NotYourTurn, StaleState
from games.models import Game, GameStatus, Seat, SubmittedBy
from games.services import move_submit

logger = logging.getLogger(__name__)

BATCH = 200


def idempotency_key(game_id: int, seq: int) -> str:
    return f"clock:{game_id}:{seq}"


@dataclass
class SweepReport:
    vacations_ended: int = 0
    moved: list[tuple[int, int]] = field(default_factory=list)  # (game id, seq) substituted
    abandoned: list[tuple[int, int]] = field(default_factory=list)  # (game id, seat)
    skipped: int = 0


@dataclass(frozen=True)
class Played:
    outcome: str  # "moved", "abandoned" (moved; the third timeout), "lapsed" (a claim), "busy", "not_due"
    seq: int | None = None  # the substituted move's seq
    seat: int | None = None


def timeout_play(
    *, game_id: int, now: datetime | None = None, wait: bool = False, seq: int | None = None
) -> Played:
    """Make the house bot's move for the seat to act if its time is up (or it abandoned).

    ``wait=False`` skips a game whose row another transaction holds (it is due again at
    the next tick). ``seq``, when given, is the turn meant (a turn's own task): any other
    is left alone.
    """
    now = now or timezone.now()
    with transaction.atomic():
        locked = Game.objects.select_for_update(skip_locked=not wait).filter(pk=game_id)
        game = locked.first()
        if game is None:
            return Played("busy")
        clock = GameClock.objects.select_for_update().filter(game=game).first()
        if (
            clock is None
            or game.status != GameStatus.ACTIVE
            or clock.turn_seq != game.move_count
            or (seq is not None and seq != game.move_count)
            or clock.turn_seat is None
            or clock.turn_seat != game.to_act
            or clock.paused_at is not None
            or clock.expires_at is None
            or clock.expires_at > now
        ):
            return Played("not_due")
        seat_no = clock.turn_seat
        state = statecache.state_for(game)
        if state.claim >= 0:
            # The answer to a claim did not come in time: the claim lapses and play goes on
            # (docs/rules.md §10). Not a timeout of the seat: it owed no move.
            lapsed = claims.claim_lapse(game_id=game.pk)
            return Played("lapsed", lapsed.move.seq, seat_no)
        seat = Seat.objects.select_for_update().get(game=game, position=seat_no)
        seat_clock = SeatClock.objects.select_for_update().get(game_clock=clock, position=seat_no)
        action = substitute.house_action(
            state, seat_no, turn_seed(game.pk, game.move_count, seat_no)
        )
        seq = game.move_count
        try:
            move_submit(
                game_id=game.pk,
                seats=[seat_no],
                action=action,
                expected_seq=seq,
                idempotency_key=idempotency_key(game.pk, seq),
                submitted_by=SubmittedBy.SYSTEM,
            )
        except (StaleState, NotYourTurn, GameOver, IdempotencyKeyReused):
            return Played("not_due")  # cannot happen under the lock; kept as a guard
        if seat.abandoned_at is not None:
            return Played("moved", seq + 1, seat_no)  # an abandoned seat: not a timeout
        seat_clock.consecutive_timeouts = F("consecutive_timeouts") + 1
        seat_clock.timeouts = F("timeouts") + 1
        seat_clock.reserve_left = timedelta(0)  # the deadline came after the bank ran out
        seat_clock.save(update_fields=["consecutive_timeouts", "timeouts", "reserve_left"])
        seat_clock.refresh_from_db(fields=["consecutive_timeouts"])
        gone = seat_clock.consecutive_timeouts >= timecontrol.TIMEOUTS_TO_ABANDON
        if gone:
            seat.abandoned_at = now
            seat.save(update_fields=["abandoned_at"])
        _tell(seat, game, seq + 1, gone)
        return Played("abandoned" if gone else "moved", seq + 1, seat_no)


def abandoned_play(*, game_id: int, seq: int) -> Played:
    """The house bot's move for the abandoned seat to act at ``seq``, in a game with a clock
    or without one (a deleted account's seat in an untimed game); nothing if the turn
    moved on or the seat to act is not abandoned. Keyed ``clock:<game>:<seq>`` like every
    substitute move, so a second call can never move twice."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.status != GameStatus.ACTIVE or game.move_count != seq:
            return Played("not_due")
        seat_no = game.to_act
        if (
            seat_no is None
            or not Seat.objects.filter(
                game=game, position=seat_no, abandoned_at__isnull=False
            ).exists()
        ):
            return Played("not_due")
        state = statecache.state_for(game)
        action = substitute.house_action(state, seat_no, turn_seed(game.pk, seq, seat_no))
        try:
            move_submit(
                game_id=game.pk,
                seats=[seat_no],
                action=action,
                expected_seq=seq,
                idempotency_key=idempotency_key(game.pk, seq),
                submitted_by=SubmittedBy.SYSTEM,
            )
        except (StaleState, NotYourTurn, GameOver, IdempotencyKeyReused):
            return Played("not_due")  # cannot happen under the lock; kept as a guard
        return Played("moved", seq + 1, seat_no)


def due_abandoned_untimed() -> list[tuple[int, int]]:
    """Untimed games whose seat to act is abandoned: (game id, seq). Each such turn is
    enqueued when it comes (the move's event says so); this finds any whose task was lost."""
    return list(
        Seat.objects.filter(
            abandoned_at__isnull=False,
            game__status=GameStatus.ACTIVE,
            position=F("game__to_act"),
            game__clock__isnull=True,
        )
        .order_by("game_id")
        .values_list("game_id", "game__move_count")[:BATCH]
    )


def _tell(seat: Seat, game: Game, seq: int, gone: bool) -> None:
    if seat.player.is_bot:
        return
    # In the player's own language, whoever's process noticed the timeout.
    with in_language_of(seat.player):
        if gone:
            title = _("Game %(game)s: the house bot has taken your seat") % {"game": game.public_id}
            body = _(
                "You ran out of time %(times)s times in a row, so the house bot plays your "
                "seat to the end of the game; it counts as a loss for you."
            ) % {"times": timecontrol.TIMEOUTS_TO_ABANDON}
        else:
            title = _("Game %(game)s: your time ran out") % {"game": game.public_id}
            body = _("The house bot made move %(seq)s for you.") % {"seq": seq}
    Notification.objects.create(
        player=seat.player, kind=NotificationKind.TIMEOUT, game=game, title=title, body=body
    )


def due_games(now: datetime) -> list[int]:
    """Games whose running clock has expired (vacations excluded), oldest deadline first."""
    return list(
        GameClock.objects.filter(
            game__status=GameStatus.ACTIVE,
            paused_at__isnull=True,
            expires_at__lte=now,
            turn_seq=F("game__move_count"),
        )
        .order_by("expires_at")
        .values_list("game_id", flat=True)[:BATCH]
    )


def sweep(*, now: datetime | None = None) -> SweepReport:
    now = now or timezone.now()
    report = SweepReport(vacations_ended=vacations_expire(now=now))
    for game_id in due_games(now):
        try:
            played = timeout_play(game_id=game_id, now=now)
        except Exception:  # one broken game must not keep the others waiting
            logger.exception("clock: the substitute move for game %s failed", game_id)
            report.skipped += 1
            continue
        if played.seq is None or played.seat is None:
            report.skipped += 1
            continue
        report.moved.append((game_id, played.seq))
        if played.outcome == "abandoned":
            report.abandoned.append((game_id, played.seat))
    for game_id, seq in due_abandoned_untimed():
        try:
            played = abandoned_play(game_id=game_id, seq=seq)
        except Exception:
            logger.exception("clock: the substitute move for game %s failed", game_id)
            report.skipped += 1
            continue
        if played.seq is not None:
            report.moved.append((game_id, played.seq))
    return report
