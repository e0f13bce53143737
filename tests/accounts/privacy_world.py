"""A person with something of theirs in every app, for the export and deletion tests.

Zelda has a rated finished game, a running untimed game in which it is her turn, a running
timed game with her API bot and her hosted bot, a waiting game she created, an
invitation to her and one from her (so another player's notice, and its e-mail, quotes her
name), an e-mail to her still waiting to be sent, a keyed
move (its stored answer names the seats), tokens, a webhook bot in a waiting game, a bot
that never played, a tournament she organises and one she entered, her notices and
preferences, a failed login and a session. Every distinctive string of hers is in TRACES.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.test import Client
from django.utils import timezone

from accounts.models import Player
from bots.models import Bot, BotKind
from clock.models import Notification, NotificationKind, OutgoingMail
from clock.reminders import preferences_for
from games import invitations
from games.models import Game, GameStatus
from games.services import game_create
from tests.bots.helpers import hosted_bot, webhook_bot
from tests.clock.helpers import play
from tests.factories import PASSWORD, ApiTokenFactory, BotPlayerFactory, PlayerFactory, UserFactory
from tournaments import services as tournaments

NAME = "Zelda-Quux7"
USERNAME = "zeldaquux"
EMAIL = "zelda.quux@example.org"
HOOK_URL = "https://zelda-hooks.example.org/turn"
BOT_NAMES = ("ZeldaHosted", "ZeldaHook", "ZeldaApi", "ZeldaNever")
TOKEN_NAMES = ("zelda laptop", "zelda api runner")
TRACES = (NAME, USERNAME, EMAIL, "zelda-hooks", *BOT_NAMES, *TOKEN_NAMES)


@dataclass
class World:
    zelda: Player
    others: list[Player]
    finished: Game | None
    untimed: Game  # running, Zelda to act
    timed: Game  # running, with her API bot
    waiting_mine: Game
    tokens: dict[str, Any] = field(default_factory=dict)
    bots: dict[str, Bot] = field(default_factory=dict)


def play_to_end(game: Game) -> Game:
    while Game.objects.get(pk=game.pk).status == GameStatus.ACTIVE:
        play(game.pk)
    return Game.objects.get(pk=game.pk)


def build(*, finished: bool = True) -> World:
    user = UserFactory(username=USERNAME, email=EMAIL)
    zelda = PlayerFactory(name=NAME, user=user, language="sv")
    others = [PlayerFactory() for _ in range(6)]
    bots = {
        "hosted": hosted_bot(BOT_NAMES[0], owner=user),
        "hook": webhook_bot(BOT_NAMES[1], HOOK_URL, owner=user)[0],
    }
    api = BotPlayerFactory(name=BOT_NAMES[2], owner=user)
    bots["api"] = Bot.objects.create(player=api, kind=BotKind.API)
    never = BotPlayerFactory(name=BOT_NAMES[3], owner=user)
    bots["never"] = Bot.objects.create(player=never, kind=BotKind.API)
    tokens = {
        "read": ApiTokenFactory(user=user, name=TOKEN_NAMES[0], scopes=["read", "play"]),
        "bot": ApiTokenFactory(user=user, name=TOKEN_NAMES[1], scopes=["bot"], bot=api),
    }

    done = None
    if finished:
        done = game_create(
            creator=zelda, seats=[zelda, others[0], others[1], others[2]], options={"rated": True}
        )
        done = play_to_end(done)
    untimed = game_create(
        creator=others[2], seats=[others[2], zelda, others[3], others[4]], options={"rated": False}
    )
    while Game.objects.get(pk=untimed.pk).to_act != 1:
        play(untimed.pk)
    # Zelda's keyed move (its answer, naming the seats, is kept for replays), then back to her.
    play(untimed.pk, idempotency_key="zelda-key-1")
    while Game.objects.get(pk=untimed.pk).to_act != 1:
        play(untimed.pk)
    timed = game_create(
        creator=others[5],
        seats=[others[5], api, bots["hosted"].player, zelda],
        options={"rated": False, "time_control": {"days_per_move": 3, "reserve_days": 0}},
    )
    waiting_mine = invitations.game_create_inviting(
        creator=zelda, seats=[zelda, others[1], None, None]
    )
    invitations.game_create_inviting(creator=others[2], seats=[others[2], zelda, None, None])
    game_create(
        creator=others[3],
        seats=[others[3], bots["hook"].player, None, None],
        options={"rated": False},
    )

    Notification.objects.create(
        player=zelda, kind=NotificationKind.REMINDER, title=f"{NAME}: your move", body="…"
    )
    # A mail its server has not taken yet (tried again in an hour).
    OutgoingMail.objects.create(
        player=zelda,
        kind=NotificationKind.DIGEST,
        address=EMAIL,
        subject=f"{NAME}, 1 game waiting on you",
        body="It is your turn in: …",
        attempts=1,
        last_error="SMTPServerDisconnected",
        next_attempt_at=timezone.now() + timedelta(hours=1),
    )
    prefs = preferences_for(zelda)
    prefs.digest_email = False
    prefs.save()
    cup = tournaments.tournament_create(
        organiser=zelda, name=f"{NAME}'s cup", description=f"Run by {NAME}."
    )
    other_cup = tournaments.tournament_create(organiser=others[2], name="Open pairs")
    tournaments.entrant_register(
        tournament_id=other_cup.pk, player=zelda, partner=others[0], by=user
    )
    assert cup.pk

    client = Client()
    client.post("/accounts/login/", {"username": USERNAME, "password": "wrong-password"})  # axes
    client.force_login(user)
    LogEntry.objects.create(
        user=others[0].user,
        content_type=ContentType.objects.get_for_model(Player),
        object_id=str(zelda.pk),
        object_repr=NAME,
        action_flag=CHANGE,
        change_message=f"Renamed {USERNAME}",
    )
    assert PASSWORD
    return World(zelda, others, done, untimed, timed, waiting_mine, tokens, bots)


def traces_left() -> list[str]:
    """Every (table, column value) in the whole database that still holds one of TRACES."""
    from django.db import connection

    found: list[str] = []
    needles = [t.lower() for t in TRACES]
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names():
            cursor.execute(f'SELECT * FROM "{table}"')  # noqa: S608 - our own table names
            columns = [c[0] for c in cursor.description]
            for row in cursor.fetchall():
                for column, value in zip(columns, row, strict=True):
                    if value is None:
                        continue
                    if isinstance(value, bytes | memoryview):
                        text = bytes(value).decode("latin-1")
                    else:
                        text = str(value)
                    low = text.lower()
                    for needle in needles:
                        if needle in low:
                            found.append(f"{table}.{column}: {text[:120]}")
    return found
