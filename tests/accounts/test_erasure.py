"""Deleting an account (accounts.privacy): nothing of the person is left in any table, their
finished games still validate and everyone's ratings stay as they were, and their running
games go on with the house bot in their seats."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core import mail
from django.core.management import call_command

from accounts import personal_data
from accounts.models import ApiToken, Player
from accounts.privacy import WrongPassword, account_delete
from backalley_engine.records import validate_record
from bots.models import Bot, BotStatus
from clock.models import OutgoingMail
from games import selectors
from games.models import Game, GameStatus, Move, Seat, SubmittedBy
from ladder.models import PlayerRating
from tests.accounts.privacy_world import NAME, TRACES, build, traces_left
from tests.clock.helpers import play
from tests.factories import PASSWORD
from tournaments.models import EntrantStatus, Status, Tournament

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _setup(settings: Any) -> Iterator[None]:
    """Fast passwords; tasks enqueued on commit (the house bot's moves) run in the test."""
    from backalley_site.celery import app

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before


def test_a_deleted_account_leaves_nothing_of_the_person_in_any_table() -> None:
    world = build()
    before = traces_left()
    assert len(before) >= 15, before  # the scan sees what there is to see
    assert mail.outbox  # her invitation was mailed to whom she invited
    ratings = {r.player_id: r.rating for r in PlayerRating.objects.all()}
    user = world.zelda.user
    assert user is not None

    erasure = account_delete(user=user, password=PASSWORD)

    assert traces_left() == [], before
    zelda = Player.objects.get(pk=world.zelda.pk)
    assert zelda.name == erasure.pseudonym and zelda.name.startswith("gone-")
    assert zelda.erased_at is not None and zelda.retired_at is not None
    account = get_user_model().objects.get(pk=user.pk)
    assert (account.email, account.is_active, account.has_usable_password()) == ("", False, False)
    assert not ApiToken.objects.filter(user=user).exists()
    assert not [
        s for s in Session.objects.all() if s.get_decoded().get("_auth_user_id") == str(user.pk)
    ]
    # Bots: the one that never played is gone, the others are retired under pseudonyms.
    kept = Bot.objects.filter(player__owner=user)
    assert kept.count() == 3 and all(b.status == BotStatus.DISABLED for b in kept)
    assert all(b.player.retired_at is not None for b in kept)
    # Waiting games she created are called off; tournaments she ran (not started) cancelled.
    assert Game.objects.get(pk=world.waiting_mine.pk).status == GameStatus.ABORTED
    assert set(Tournament.objects.filter(organiser=zelda).values_list("status", flat=True)) == {
        Status.CANCELLED
    }
    from tournaments.models import Entrant

    assert {e.status for e in Entrant.objects.filter(player_a=zelda)} == {EntrantStatus.WITHDRAWN}

    # Her finished game stays, validates, and nobody's rating moved.
    assert world.finished is not None
    finished = Game.objects.get(pk=world.finished.pk)
    seats = selectors.game_seats(game=finished)
    assert NAME not in str(selectors.game_record(game=finished, seats=seats, seat=None))
    assert validate_record(selectors.game_record(game=finished, seats=seats, seat=None)) == []
    assert {r.player_id: r.rating for r in PlayerRating.objects.all()} == ratings
    out = io.StringIO()
    call_command("verify_games", stdout=out)
    assert out.getvalue().strip().endswith(": 0 with problems"), out.getvalue()

    # The log line names the pseudonym and what was erased, never the old name.
    assert erasure.erased["tokens"] == 2 and erasure.erased["seats_handed_to_house"] >= 2
    # Her e-mails, the one sent (an invitation to her) and the one waiting, are gone; the
    # mail another person was sent of her invitation names the pseudonym.
    assert not OutgoingMail.objects.filter(player=zelda).exists()
    assert erasure.erased["mails"] >= 2 and erasure.erased["others_mails_rewritten"] >= 1
    assert OutgoingMail.objects.filter(body__contains=erasure.pseudonym).exists()


def test_running_games_go_on_with_the_house_bot_in_the_deleted_seats() -> None:
    world = build(finished=False)
    user = world.zelda.user
    assert user is not None
    assert Game.objects.get(pk=world.untimed.pk).to_act == 1  # her turn, untimed
    before = Move.objects.filter(game=world.untimed).count()

    account_delete(user=user, password=PASSWORD)

    # Her turn was played by the house bot as soon as the deletion committed (and, when the
    # next seat's card is forced, that card played itself after it).
    untimed = Game.objects.get(pk=world.untimed.pk)
    assert untimed.move_count >= before + 1
    assert Move.objects.get(game=untimed, seq=before + 1).seat == 1
    assert Move.objects.get(game=untimed, seq=before + 1).submitted_by == SubmittedBy.SYSTEM
    assert Seat.objects.get(game=untimed, position=1).abandoned_at is not None
    # The others play on; each of her turns is the house bot's, at once.
    for _ in range(120):
        assert Game.objects.get(pk=untimed.pk).to_act != 1, "her turn was left waiting"
        play(untimed.pk)
    hers = Move.objects.filter(game=untimed, seat=1, seq__gt=before)
    assert hers.count() >= 30
    assert set(hers.values_list("submitted_by", flat=True)) == {SubmittedBy.SYSTEM}
    # In the timed game her seat and her API bot's seat are the house bot's too; her hosted
    # bot plays on by its strategy.
    timed = world.timed
    abandoned = set(
        Seat.objects.filter(game=timed, abandoned_at__isnull=False).values_list(
            "position", flat=True
        )
    )
    assert abandoned == {1, 3}
    for _ in range(40):
        game = Game.objects.get(pk=timed.pk)
        assert game.to_act not in abandoned, "a deleted seat's turn was left waiting"
        play(timed.pk)


def test_a_wrong_password_deletes_nothing() -> None:
    world = build(finished=False)
    user = world.zelda.user
    assert user is not None
    with pytest.raises(WrongPassword):
        account_delete(user=user, password="not-it")
    assert Player.objects.get(pk=world.zelda.pk).name == NAME
    assert any(NAME in t or "zelda" in t.lower() for t in traces_left())


def test_every_app_that_keeps_something_of_a_person_registers_an_eraser() -> None:
    names = {name for name, _ in personal_data.erasers()}
    assert {"account", "games", "bots", "clock", "tournaments", "push"} <= names
    assert {name for name, _ in personal_data.exporters()} >= names | {"ladder"}
    assert [name for name, _ in personal_data.erasers()][-1] == "account"
    assert TRACES
