"""Reminders at 80% of a move's time and the daily digest, by e-mail and in the app."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.core import mail

from clock.models import Notification, NotificationPreference
from clock.reminders import send_daily_digests, send_due_reminders
from tests.clock.helpers import DAY, T0, play, timed_game, to_act_player

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_reminder_comes_once_when_80_percent_of_the_time_is_used() -> None:
    with time_machine.travel(T0, tick=False) as traveller:
        game = timed_game(days=5, reserve=2)
        player = to_act_player(game.pk)
        mail.outbox.clear()
        traveller.move_to(T0 + 4 * DAY - timedelta(minutes=1))  # 79.98%: not yet
        assert send_due_reminders() == 0
        traveller.move_to(T0 + 4 * DAY)
        assert send_due_reminders() == 1
        assert send_due_reminders() == 0  # a second run sends nothing
    assert len(mail.outbox) == 1
    sent = mail.outbox[0]
    assert sent.to == [player.user.email]
    assert game.public_id in sent.subject
    assert (T0 + 5 * DAY).strftime("%Y-%m-%d %H:%M") in sent.body  # the deadline
    assert (T0 + 7 * DAY).strftime("%Y-%m-%d %H:%M") in sent.body  # with the reserve
    note = Notification.objects.get(player=player)
    assert note.kind == "reminder" and note.game_id == game.pk and note.read_at is None


def test_each_move_gets_its_own_reminder() -> None:
    with time_machine.travel(T0, tick=False) as traveller:
        game = timed_game(days=1)
        first = to_act_player(game.pk)
        traveller.shift(timedelta(hours=20))
        assert send_due_reminders() == 1
        play(game.pk)
        second = to_act_player(game.pk)
        traveller.shift(timedelta(hours=19))
        assert send_due_reminders() == 0  # 19 of 24 hours: under 80%
        traveller.shift(timedelta(hours=1))
        assert send_due_reminders() == 1
    assert [n.player_id for n in Notification.objects.order_by("id")] == [first.pk, second.pk]


def test_a_player_can_turn_each_kind_and_channel_off() -> None:
    with time_machine.travel(T0, tick=False) as traveller:
        game = timed_game(days=1)
        player = to_act_player(game.pk)
        NotificationPreference.objects.create(
            player=player, reminder_email=False, reminder_inapp=True, digest_inapp=False
        )
        mail.outbox.clear()
        traveller.shift(timedelta(hours=20))
        assert send_due_reminders() == 1
        assert mail.outbox == []  # no e-mail reminder
        assert Notification.objects.filter(player=player, kind="reminder").count() == 1
        assert send_daily_digests() == 1
    assert [m.to for m in mail.outbox] == [[player.user.email]]  # the digest by e-mail only
    assert not Notification.objects.filter(player=player, kind="digest").exists()


def test_no_reminder_for_a_move_answered_in_time() -> None:
    with time_machine.travel(T0, tick=False) as traveller:
        game = timed_game(days=1)
        traveller.shift(timedelta(hours=10))
        play(game.pk)  # answered early: the next seat's clock starts afresh
        traveller.shift(timedelta(hours=12))
        assert send_due_reminders() == 0


def test_the_daily_digest_lists_the_games_waiting_on_you_once_a_day() -> None:
    from tests.factories import PlayerFactory

    people = [PlayerFactory() for _ in range(5)]
    with time_machine.travel(T0, tick=False):
        g1 = timed_game(days=3, players=people[:4])
        waiting_on = to_act_player(g1.pk)
        others = [p for p in people if p.pk != waiting_on.pk][:3]
        g2 = timed_game(days=3, players=[waiting_on, *others])  # waiting_on sits at seat 0
        while to_act_player(g2.pk).pk != waiting_on.pk:
            play(g2.pk)
        mail.outbox.clear()
        assert send_daily_digests() == 1  # one digest for the one person both games wait on
    digest = Notification.objects.get(player=waiting_on, kind="digest")
    assert digest.title == "2 games waiting on you"
    assert g1.public_id in digest.body and g2.public_id in digest.body
    assert any(m.to == [waiting_on.user.email] for m in mail.outbox)
    with time_machine.travel(T0 + timedelta(hours=3), tick=False):
        assert send_daily_digests() == 0  # the same day: nothing again
    with time_machine.travel(T0 + DAY, tick=False):
        assert send_daily_digests() == 1  # the next day: a new digest
    assert Notification.objects.filter(player=waiting_on, kind="digest").count() == 2
