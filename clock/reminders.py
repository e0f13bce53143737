"""Reminders: a nudge when 80% of a move's time is used, and a daily digest of the games
waiting on each player — in the app and by e-mail, each kind switchable by the player.

Exactly once: each reminder first inserts its ``ReminderSent`` row (unique per player,
kind and key) in the transaction that writes the notification; a second run, or a racing
one, finds the row and sends nothing. The e-mail is an outgoing-mail row written in that
same transaction (``clock.mails``) and sent by a worker after it commits, so a rolled-back
reminder never mails, and a mail server failing at that moment delays the mail (tried
again with backoff) rather than losing it.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from datetime import datetime

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.languages import in_language_of
from accounts.models import Player
from clock import mails, signals
from clock.models import (
    GameClock,
    Notification,
    NotificationKind,
    NotificationPreference,
    ReminderSent,
    Vacation,
)
from clock.timecontrol import DIGEST_MIN_PERIOD
from games.models import Game, GameStatus, Seat

logger = logging.getLogger(__name__)


def preferences_for(player: Player) -> NotificationPreference:
    prefs, _ = NotificationPreference.objects.get_or_create(player=player)
    return prefs


def _iso(value: datetime | None) -> str:
    """A deadline for a notice: year-month-day and the time, which every language reads
    the same (a notice is kept and mailed, so it names no weekday to go stale)."""
    if value is None:
        return _("no deadline")
    return _("%(when)s UTC") % {"when": value.strftime("%Y-%m-%d %H:%M")}


def _announce(notice: dict[str, object]) -> None:
    """Tell the listeners of a delivered notice; one that fails is logged, never raised into
    the delivery (the notice is made: its in-app row and e-mail stand)."""
    for receiver, outcome in signals.notice_delivered.send_robust(sender=deliver, **notice):
        if isinstance(outcome, Exception):
            logger.error("notice %s: listener %r failed: %r", notice["key"], receiver, outcome)


def deliver(
    player: Player,
    kind: str,
    key: str,
    title: str,
    body: str,
    *,
    game: Game | None,
    inapp: bool,
    email: bool,
) -> bool:
    """Record the reminder once; False when it was already sent (nothing is sent again).

    Once it commits, ``clock.signals.notice_delivered`` tells the apps above (the push app)
    of it, whatever the in-app and e-mail choices: they keep preferences of their own."""
    with transaction.atomic():
        _, created = ReminderSent.objects.get_or_create(player=player, kind=kind, key=key)
        if not created:
            return False
        notice = {
            "player_id": player.pk,
            "kind": kind,
            "key": key,
            "title": title,
            "body": body,
            "game_id": game.pk if game is not None else None,
        }
        transaction.on_commit(lambda: _announce(notice))
        if inapp:
            Notification.objects.create(player=player, kind=kind, game=game, title=title, body=body)
        address = player.user.email if player.user_id and player.user else ""
        if email and address:
            mails.mail_queue(player=player, kind=kind, address=address, subject=title, body=body)
    return True


def send_due_reminders(*, now: datetime | None = None, game_id: int | None = None) -> int:
    """Remind each player whose running move has used 80% of its time (in ``game_id`` only,
    when given: the turn's own reminder task); returns how many."""
    now = now or timezone.now()
    clocks = (
        GameClock.objects.all() if game_id is None else GameClock.objects.filter(game_id=game_id)
    )
    due = (
        clocks.filter(
            game__status=GameStatus.ACTIVE,
            paused_at__isnull=True,
            remind_at__lte=now,
            expires_at__gt=now,
            turn_seq=F("game__move_count"),
        )
        .filter(Q(reminded_seq__isnull=True) | Q(reminded_seq__lt=F("turn_seq")))
        .select_related("game")
        .order_by("remind_at")
    )
    sent = 0
    for clock in list(due):
        if clock.turn_seat is None:
            continue
        seat = (
            Seat.objects.select_related("player__user")
            .filter(game_id=clock.game_id, position=clock.turn_seat)
            .first()
        )
        if seat is not None and not seat.player.is_bot and seat.abandoned_at is None:
            prefs = preferences_for(seat.player)
            game = clock.game
            # In the player's own language (the beat's worker has none of its own).
            with in_language_of(seat.player):
                words = {
                    "game": game.public_id,
                    "seat": clock.turn_seat,
                    "deadline": _iso(clock.deadline),
                    "reserve": _iso(clock.expires_at),
                }
                title = _("Your move in game %(game)s: time is running out") % words
                if clock.expires_at != clock.deadline:
                    body = (
                        _(
                            "It is your turn in game %(game)s (seat %(seat)s). Your time for this "
                            "move runs out at %(deadline)s; your reserve lasts until %(reserve)s. "
                            "After that the house bot moves for you."
                        )
                        % words
                    )
                else:
                    body = (
                        _(
                            "It is your turn in game %(game)s (seat %(seat)s). Your time for this "
                            "move runs out at %(deadline)s. After that the house bot moves for you."
                        )
                        % words
                    )
            if deliver(
                seat.player,
                NotificationKind.REMINDER,
                f"{clock.game_id}:{clock.turn_seq}",
                title,
                body,
                game=game,
                inapp=prefs.reminder_inapp,
                email=prefs.reminder_email,
            ):
                sent += 1
        # Only narrows the next query; the ReminderSent row is what makes it exactly once.
        GameClock.objects.filter(pk=clock.pk, turn_seq=clock.turn_seq).update(
            reminded_seq=clock.turn_seq
        )
    return sent


def send_daily_digests(*, now: datetime | None = None) -> int:
    """One digest per person per UTC day listing the games waiting on them (players on
    vacation get none); returns how many were sent."""
    now = now or timezone.now()
    day = now.date().isoformat()
    waiting = (
        Seat.objects.filter(
            game__status=GameStatus.ACTIVE,
            position=F("game__to_act"),
            player__is_bot=False,
            abandoned_at__isnull=True,
        )
        # A game of short moves is played at the table: a morning's list would be stale.
        .exclude(game__clock__seconds_per_move__lt=DIGEST_MIN_PERIOD.total_seconds())
        .select_related("game", "game__clock", "player__user")
        .order_by("player_id", "game_id")
    )
    away = set(
        Vacation.objects.filter(ended_at__isnull=True, started_at__lte=now).values_list(
            "player_id", flat=True
        )
    )
    by_player: dict[int, list[Seat]] = defaultdict(list)
    for seat in waiting:
        if seat.player_id not in away:
            by_player[seat.player_id].append(seat)
    sent = 0
    for seats in by_player.values():
        player = seats[0].player
        prefs = preferences_for(player)
        if not (prefs.digest_email or prefs.digest_inapp):
            continue
        lines = []
        with in_language_of(player):
            for seat in seats:
                clock = getattr(seat.game, "clock", None)
                deadline = (
                    clock.deadline
                    if clock is not None and clock.turn_seq == seat.game.move_count
                    else None
                )
                lines.append(
                    _("- game %(game)s, seat %(seat)s: due %(deadline)s")
                    % {
                        "game": seat.game.public_id,
                        "seat": seat.position,
                        "deadline": _iso(deadline),
                    }
                )
            n = len(seats)
            title = ngettext(
                "%(count)s game waiting on you", "%(count)s games waiting on you", n
            ) % {"count": n}
            body = _("It is your turn in:") + "\n" + "\n".join(lines)
        if deliver(
            player,
            NotificationKind.DIGEST,
            day,
            title,
            body,
            game=None,
            inapp=prefs.digest_inapp,
            email=prefs.digest_email,
        ):
            sent += 1
    return sent
