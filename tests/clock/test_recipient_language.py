"""Notices and e-mails are written in the recipient's language, not the sender's."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import translation

from clock.models import Notification
from clock.reminders import send_daily_digests, send_due_reminders
from games.invitations import game_create_inviting
from games.models import Invitation
from tests.clock.helpers import DAY, T0, timed_game, to_act_player
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_reminder_mail_and_notice_are_in_the_players_language() -> None:
    with time_machine.travel(T0, tick=False) as traveller:
        game = timed_game(days=5, reserve=2)
        player = to_act_player(game.pk)
        player.language = "sv"
        player.save(update_fields=["language"])
        mail.outbox.clear()
        traveller.move_to(T0 + 4 * DAY)
        with translation.override("en"):  # the worker's own language plays no part
            assert send_due_reminders() == 1
            assert translation.get_language() == "en"
    sent = mail.outbox[0]
    assert sent.subject == f"Ditt drag i parti {game.public_id}: tiden håller på att ta slut"
    assert sent.body.startswith(f"Det är din tur i parti {game.public_id}")
    assert "din reserv räcker till" in sent.body and "tiden" not in sent.body.split(".")[-1]
    note = Notification.objects.get(player=player)
    assert note.title == sent.subject and note.body == sent.body


def test_the_daily_digest_speaks_each_players_own_language() -> None:
    with time_machine.travel(T0, tick=False) as traveller:
        game = timed_game(days=5)
        player = to_act_player(game.pk)
        player.language = "lt"
        player.save(update_fields=["language"])
        mail.outbox.clear()
        traveller.shift(timedelta(hours=1))
        assert send_daily_digests() == 1
    digest = Notification.objects.get(player=player, kind="digest")
    assert digest.title == "Jūsų laukia 1 partija"
    assert digest.body.startswith("Jūsų eilė šiose partijose:")
    assert [m.subject for m in mail.outbox] == ["Jūsų laukia 1 partija"]


def test_an_invitation_notice_is_in_the_invitees_language_not_the_inviters() -> None:
    creator = PlayerFactory(name="Nils", language="sv")
    invitee = PlayerFactory(name="Kiran", language="gu")
    with translation.override("sv"):
        game = game_create_inviting(creator=creator, seats=[creator, invitee, None, None])
    assert Invitation.objects.filter(game=game, player=invitee).exists()
    note = Notification.objects.get(player=invitee, kind="invitation")
    assert note.title == f"Nils તમને રમત {game.public_id} માટે આમંત્રે છે"
    assert "રેટિંગવાળી રમત" in note.body and "POST /api/v1/invitations/" in note.body
    assert not Notification.objects.filter(player=creator).exists()


def test_a_player_who_never_chose_a_language_is_written_to_in_english() -> None:
    creator = PlayerFactory(name="Rasa", language="lt")
    invitee = PlayerFactory(name="Sam")
    with translation.override("lt"):
        game = game_create_inviting(creator=creator, seats=[creator, invitee, None, None])
    note = Notification.objects.get(player=invitee, kind="invitation")
    assert note.title == f"Rasa invites you to game {game.public_id}"
