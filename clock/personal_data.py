"""The clock's part of a person's data (accounts.personal_data, docs/privacy.md).

**Export**: the person's notifications, their notice preferences, their vacations and
vacation balance, and the e-mails kept for them (waiting to be sent, or sent in the last
``MAIL_KEEP_DAYS``).

**Erase**:

- **Running games are handed to the house bot**: each seat of the person, and of their bots
  that the worker does not play (API bots; a webhook bot's address is gone), in a game under
  way is abandoned (``games.Seat.abandoned_at``), as after three timeouts: the house bot
  plays it to the end, at once on each of its turns (``clock.sweeper.abandoned_play``), in
  untimed games too; the game is rated with the leaver as a loss (docs/ratings.md). A seat
  whose turn it is now is played as soon as the deletion commits. A hosted bot plays on.
- A vacation under way is ended; the person's notifications, preferences, vacations and
  reminder records are deleted, and so are their e-mails, sent or still waiting (each
  holds their address): a waiting one is never sent.
- Other people's notices and e-mails that quote the person's (or their bots') name are
  rewritten with the pseudonym: the notice stays theirs, the name does not.
"""

from __future__ import annotations

import re
from typing import Any

from django.db import transaction
from django.db.models import Q

from accounts import personal_data
from bots.models import BotKind
from clock import vacation
from clock.models import (
    PREFERENCE_FIELDS,
    Notification,
    NotificationPreference,
    OutgoingMail,
    ReminderSent,
    Vacation,
)
from clock.tasks import play_abandoned_seat
from games.models import GameStatus, Seat
from games.selectors import players_controlled_by


def _iso(value: Any) -> str | None:
    return value.isoformat() if value else None


def _plain(value: Any) -> Any:
    return value.isoformat() if hasattr(value, "isoformat") else value


def export_clock(subject: personal_data.Subject) -> dict[str, Any]:
    player = subject.player
    prefs = NotificationPreference.objects.filter(player=player).first()
    balance = vacation.balance(player)
    return {
        "notifications": [
            {
                "kind": n.kind,
                "game": n.game.public_id if n.game else None,
                "title": n.title,
                "body": n.body,
                "created_at": _iso(n.created_at),
                "read_at": _iso(n.read_at),
            }
            for n in Notification.objects.filter(player=player).select_related("game")
        ],
        "preferences": None
        if prefs is None
        else {name: _plain(getattr(prefs, name)) for name in PREFERENCE_FIELDS},
        "vacations": [
            {
                "started_at": _iso(v.started_at),
                "planned_end": _iso(v.planned_end),
                "ended_at": _iso(v.ended_at),
                "days_charged": v.days_charged,
            }
            for v in Vacation.objects.filter(player=player).order_by("started_at")
        ],
        "mails": [
            {
                "kind": m.kind,
                "to": m.address,
                "subject": m.subject,
                "body": m.body,
                "created_at": _iso(m.created_at),
                "sent_at": _iso(m.sent_at),
                "attempts": m.attempts,
            }
            for m in OutgoingMail.objects.filter(player=player).order_by("created_at", "pk")
        ],
        "vacation_balance": {
            "days_played": balance.days_played,
            "earned": balance.earned,
            "used": balance.used,
            "available": balance.available,
        },
    }


def _departing_seats(erasure: personal_data.Erasure) -> list[Seat]:
    """Seats under way that nobody will play any more: the person's and their bots' that
    the worker does not play by a strategy of its own."""
    players = players_controlled_by(user=erasure.user).exclude(
        is_bot=True, bot__kind=BotKind.HOSTED
    )
    return list(
        Seat.objects.select_for_update()
        .filter(player__in=players, game__status=GameStatus.ACTIVE, abandoned_at__isnull=True)
        .select_related("game")
        .order_by("game_id", "position")
    )


def _hand_to_the_house(erasure: personal_data.Erasure) -> None:
    seats = _departing_seats(erasure)
    Seat.objects.filter(pk__in=[s.pk for s in seats]).update(abandoned_at=erasure.at)
    erasure.count("seats_handed_to_house", len(seats))
    for seat in seats:
        game = seat.game
        if game.to_act == seat.position:
            game_id, seq = game.pk, game.move_count
            transaction.on_commit(
                lambda game_id=game_id, seq=seq: play_abandoned_seat.apply_async(  # type: ignore[misc]
                    args=(game_id, seq), task_id=f"clock-abandoned:{game_id}:{seq}"
                ),
                robust=True,  # the relay-less fallback is the sweep (every minute)
            )


def _rewrite(text: str, names: dict[str, str]) -> str:
    for old, new in names.items():
        if old:
            text = re.sub(rf"(?<![\w-]){re.escape(old)}(?![\w-])", new, text, flags=re.IGNORECASE)
    return text


def erase_clock(erasure: personal_data.Erasure) -> None:
    player = erasure.player
    _hand_to_the_house(erasure)
    if vacation.current_vacation(player) is not None:
        vacation.vacation_stop(player=player, now=erasure.at)
    erasure.count("notifications", Notification.objects.filter(player=player).delete()[0])
    NotificationPreference.objects.filter(player=player).delete()
    Vacation.objects.filter(player=player).delete()
    ReminderSent.objects.filter(player=player).delete()
    erasure.count("mails", OutgoingMail.objects.filter(player=player).delete()[0])
    names = erasure.names()
    quoting = Q()
    quoting_mail = Q()
    for old in names:
        quoting |= Q(title__icontains=old) | Q(body__icontains=old)
        quoting_mail |= Q(subject__icontains=old) | Q(body__icontains=old)
    rewritten = 0
    for notice in Notification.objects.filter(quoting):
        title, body = _rewrite(notice.title, names), _rewrite(notice.body, names)
        if (title, body) != (notice.title, notice.body):
            Notification.objects.filter(pk=notice.pk).update(title=title, body=body)
            rewritten += 1
    erasure.count("others_notices_rewritten", rewritten)
    rewritten = 0
    for mail in OutgoingMail.objects.filter(quoting_mail):
        subject, body = _rewrite(mail.subject, names), _rewrite(mail.body, names)
        if (subject, body) != (mail.subject, mail.body):
            OutgoingMail.objects.filter(pk=mail.pk).update(subject=subject, body=body)
            rewritten += 1
    erasure.count("others_mails_rewritten", rewritten)


def install() -> None:
    personal_data.register("clock", export=export_clock, erase=erase_clock, order=60)
