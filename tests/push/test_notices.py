"""The clock's notices (invitations and their answers, claims, reminders) reach the
person's devices too, as the person's push switches and quiet hours allow."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from typing import Any

import pytest
import time_machine

from clock.models import Notification, NotificationKind, NotificationPreference
from clock.reminders import deliver, send_due_reminders
from games.invitations import game_create_inviting
from games.models import Game
from games.services import game_create
from push import preferences, tasks
from tests.clock.helpers import DAY, T0, timed_game, to_act_player
from tests.factories import PlayerFactory
from tests.push.helpers import FakePushService, subscribe

pytestmark = pytest.mark.django_db(transaction=True)


def _prefs(player: Any, **values: Any) -> None:
    NotificationPreference.objects.update_or_create(player=player, defaults=values)


def test_an_invitation_is_pushed_in_the_invitee_s_words_and_opens_my_games(
    push_service: FakePushService,
) -> None:
    creator = PlayerFactory(name="Nils")
    invitee = PlayerFactory(name="Kiran", language="sv")
    phone = push_service.browser("kiran")
    subscribe(invitee, phone)
    game = game_create_inviting(creator=creator, seats=[creator, invitee, None, None])
    note = Notification.objects.get(player=invitee, kind="invitation")
    (payload,) = push_service.delivered(phone)
    assert payload["title"] == note.title and note.title.startswith("Nils bjuder in dig")
    assert payload["url"] == "/games/"
    assert payload["tag"] == f"invitation-{game.public_id}"
    assert len(payload["body"]) <= 300


def test_a_claim_notice_is_pushed_once_and_opens_the_table(push_service: FakePushService) -> None:
    people = [PlayerFactory() for _ in range(4)]
    game = Game.objects.get(
        pk=game_create(creator=people[0], seats=people, options={"rated": False}).pk
    )
    phone = push_service.browser("claim")
    subscribe(people[1], phone)
    for _ in range(2):  # a second delivery of the same notice sends nothing
        deliver(
            people[1],
            NotificationKind.CLAIM,
            f"claim:{game.pk}:9",
            "Anna claims 3 of the remaining 4 tricks",
            "The claim waits for your answer.",
            game=game,
            inapp=True,
            email=False,
        )
    claims = [p for p in push_service.delivered(phone) if p["tag"].startswith("claim-")]
    assert claims == [
        {
            "title": "Anna claims 3 of the remaining 4 tricks",
            "body": "The claim waits for your answer.",
            "url": f"/games/{game.public_id}/",
            "tag": f"claim-{game.public_id}",
        }
    ]


def test_the_clock_s_reminder_is_pushed(push_service: FakePushService) -> None:
    with time_machine.travel(T0, tick=False) as traveller:
        game = timed_game(days=5, reserve=2)
        player = to_act_player(game.pk)
        phone = push_service.browser("late")
        subscribe(player, phone)
        traveller.move_to(T0 + 4 * DAY)
        assert send_due_reminders() == 1
    reminders = [p for p in push_service.delivered(phone) if p["tag"].startswith("reminder-")]
    assert len(reminders) == 1
    assert reminders[0]["title"] == f"Your move in game {game.public_id}: time is running out"


def test_a_kind_switched_off_is_not_pushed_while_the_others_are(
    push_service: FakePushService,
) -> None:
    creator = PlayerFactory()
    invitee = PlayerFactory()
    _prefs(invitee, invitation_push=False)
    phone = push_service.browser("no-invitations")
    subscribe(invitee, phone)
    game_create_inviting(creator=creator, seats=[creator, invitee, None, None])
    assert Notification.objects.filter(player=invitee, kind="invitation").exists()  # in the app
    assert push_service.to(phone) == []
    # Their turn is still pushed; with turn_push off, not.
    people = [invitee] + [PlayerFactory() for _ in range(3)]
    game = Game.objects.get(
        pk=game_create(creator=people[1], seats=people, options={"rated": False}).pk
    )
    assert game.to_act is not None
    if game.to_act == 0:
        assert len(push_service.delivered(phone)) == 1
    _prefs(invitee, turn_push=False)
    before = len(push_service.received)
    tasks.push_turn.apply(kwargs={"game_id": game.pk, "seq": 0, "until": 0.0, "look": 0})
    assert len(push_service.received) == before


def test_quiet_hours_hold_a_push_until_they_end_in_the_person_s_time_zone(
    push_service: FakePushService, monkeypatch: pytest.MonkeyPatch
) -> None:
    held: list[tuple[datetime, str]] = []
    monkeypatch.setattr(
        tasks, "_hold", lambda task, end, task_id, kwargs: held.append((end, task_id))
    )
    people = [PlayerFactory() for _ in range(4)]
    for p in people:  # 22:00 to 07:00 in Stockholm (UTC+1 in December)
        _prefs(p, quiet_from=time(22, 0), quiet_until=time(7, 0), time_zone="Europe/Stockholm")
    phones = [push_service.browser(f"quiet-{i}") for i in range(4)]
    for person, phone in zip(people, phones, strict=True):
        subscribe(person, phone)
    night = datetime(2026, 12, 2, 22, 30, tzinfo=UTC)  # 23:30 in Stockholm
    with time_machine.travel(night, tick=False):
        game = Game.objects.get(
            pk=game_create(creator=people[0], seats=people, options={"rated": False}).pk
        )
        assert push_service.received == []
        assert held == [(datetime(2026, 12, 3, 6, 0, tzinfo=UTC), f"push-turn:{game.pk}:0:1")]
    with time_machine.travel(night + timedelta(hours=7, minutes=31), tick=False):  # 07:01 there
        tasks.push_turn.apply(kwargs={"game_id": game.pk, "seq": 0, "until": 0.0, "look": 1})
    assert len(push_service.delivered(phones[game.to_act or 0])) == 1


def test_a_wish_reads_the_switch_and_the_quiet_hours() -> None:
    person = PlayerFactory()
    assert preferences.wish(player_id=person.pk, kind="turn").now  # no row: all on
    assert not preferences.wish(player_id=person.pk, kind="digest").wanted  # never pushed
    _prefs(person, over_push=False, quiet_from=time(13, 0), quiet_until=time(14, 0))
    assert not preferences.wish(player_id=person.pk, kind="over").wanted
    lunch = datetime(2026, 12, 2, 13, 15, tzinfo=UTC)
    wish = preferences.wish(player_id=person.pk, kind="turn", now=lunch)
    assert wish.wanted and wish.held_until == datetime(2026, 12, 2, 14, 0, tzinfo=UTC)
    assert preferences.wish(player_id=person.pk, kind="turn", now=lunch + DAY / 8).now
