"""Every operation of the API schema, with every kind of credential, against one table of
who may call it; and, for what a credential may read, what it is shown.

A refused call is a 401 ``not_authenticated`` (no credential) or a 403 ``insufficient_scope``;
an allowed call is anything else (a 400 for the empty body, a 404, a 409 ... are the
operation's own answers once the scope check let it through). Each call runs in a savepoint
that is rolled back, so one call's effect (a deleted bot, a started vacation) never changes
what the next one sees. An operation missing from the table fails the test: a new endpoint
must say who may call it.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import transaction
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from bots.models import Bot, BotKind
from games import invitations, services
from tests.factories import ApiTokenFactory, BotPlayerFactory, PlayerFactory, auth_header

pytestmark = pytest.mark.django_db

KINDS = ("none", "read", "play", "bot", "one_bot", "session")
ALL = set(KINDS)
LOGGED_IN = ALL - {"none"}  # READ: any token or the session
PLAY = {"play", "session"}  # acting as the person
SEAT = {"play", "bot", "one_bot", "session"}  # acting for a seat, yours or your bot's
BOT_OWNER = {"bot", "session"}  # managing bots: never a one-bot token
OWN = LOGGED_IN - {"one_bot"}  # reading the person's own business: never a one-bot token
SESSION = {"session"}

# (method, path) → the kinds allowed, for the fixture below (the invitation is to the
# person, so answering it needs "play"; taking a seat and creating a game seat "me").
TABLE: dict[tuple[str, str], set[str]] = {
    ("POST", "/api/v1/auth/signup/"): ALL,
    ("GET", "/api/v1/me/"): LOGGED_IN,
    ("PATCH", "/api/v1/me/"): PLAY,
    ("GET", "/api/v1/me/export/"): OWN,
    ("POST", "/api/v1/me/delete/"): PLAY,
    ("GET", "/api/v1/tokens/"): SESSION,
    ("POST", "/api/v1/tokens/"): SESSION,
    ("DELETE", "/api/v1/tokens/{token_id}/"): SESSION,
    ("GET", "/api/v1/bots/"): BOT_OWNER,
    ("POST", "/api/v1/bots/"): BOT_OWNER,
    ("GET", "/api/v1/bots/{name}/"): BOT_OWNER,
    ("PATCH", "/api/v1/bots/{name}/"): BOT_OWNER,
    ("DELETE", "/api/v1/bots/{name}/"): BOT_OWNER,
    ("GET", "/api/v1/bots/{name}/faults/"): BOT_OWNER,
    ("POST", "/api/v1/bots/{name}/rotate-secret/"): BOT_OWNER,
    ("GET", "/api/v1/bots/strategies/"): LOGGED_IN,
    ("GET", "/api/v1/bots/{name}/arena/"): BOT_OWNER,
    ("PATCH", "/api/v1/bots/{name}/arena/"): BOT_OWNER,
    ("GET", "/api/v1/arena/"): ALL,
    ("GET", "/api/v1/arena/bots/{name}/"): ALL,
    ("POST", "/api/v1/games/"): PLAY,
    ("GET", "/api/v1/games/open/"): LOGGED_IN,
    ("GET", "/api/v1/games/mine/"): LOGGED_IN,
    ("GET", "/api/v1/games/{public_id}/"): LOGGED_IN,
    ("POST", "/api/v1/games/{public_id}/abort/"): PLAY,
    ("POST", "/api/v1/games/{public_id}/invitations/"): PLAY,
    ("GET", "/api/v1/games/{public_id}/events/"): LOGGED_IN,
    ("GET", "/api/v1/games/{public_id}/events/stream/"): LOGGED_IN,
    ("GET", "/api/v1/games/{public_id}/legal/"): LOGGED_IN,
    ("POST", "/api/v1/games/{public_id}/presence/"): SEAT,
    ("POST", "/api/v1/games/{public_id}/moves/"): SEAT,
    ("GET", "/api/v1/games/{public_id}/premove/"): SEAT,
    ("PUT", "/api/v1/games/{public_id}/premove/"): SEAT,
    ("DELETE", "/api/v1/games/{public_id}/premove/"): SEAT,
    ("POST", "/api/v1/games/{public_id}/claim/"): SEAT,
    ("POST", "/api/v1/games/{public_id}/claim/accept/"): SEAT,
    ("POST", "/api/v1/games/{public_id}/claim/refuse/"): SEAT,
    ("GET", "/api/v1/games/{public_id}/record/"): LOGGED_IN,
    ("GET", "/api/v1/players/{name}/games/export/"): ALL,
    ("POST", "/api/v1/games/{public_id}/fork/"): PLAY,
    ("GET", "/api/v1/dumps/"): ALL,
    ("GET", "/api/v1/dumps/{name}"): ALL,
    ("POST", "/api/v1/games/{public_id}/seats/"): PLAY,
    ("DELETE", "/api/v1/games/{public_id}/seats/{position}/"): SEAT,
    ("GET", "/api/v1/invitations/"): LOGGED_IN,
    ("POST", "/api/v1/invitations/{invitation_id}/accept/"): PLAY,
    ("POST", "/api/v1/invitations/{invitation_id}/decline/"): PLAY,
    ("GET", "/api/v1/ladder/standings/"): ALL,
    ("GET", "/api/v1/ladder/pairs/"): ALL,
    ("GET", "/api/v1/ladder/players/{name}/"): ALL,
    ("GET", "/api/v1/ladder/players/{name}/games/"): ALL,
    ("GET", "/api/v1/ladder/players/{name}/history/"): ALL,
    ("GET", "/api/v1/notifications/"): OWN,
    ("POST", "/api/v1/notifications/read/"): PLAY,
    ("GET", "/api/v1/notifications/preferences/"): OWN,
    ("PATCH", "/api/v1/notifications/preferences/"): PLAY,
    ("GET", "/api/v1/tournaments/"): ALL,
    ("POST", "/api/v1/tournaments/"): PLAY,
    ("GET", "/api/v1/tournaments/{id}/"): ALL,
    ("POST", "/api/v1/tournaments/{id}/register/"): PLAY,
    ("POST", "/api/v1/tournaments/{id}/withdraw/"): PLAY,
    ("POST", "/api/v1/tournaments/{id}/entrants/{entrant_id}/confirm/"): PLAY,
    ("POST", "/api/v1/tournaments/{id}/start/"): PLAY,
    ("POST", "/api/v1/tournaments/{id}/cancel/"): PLAY,
    ("GET", "/api/v1/tournaments/{id}/rounds/"): ALL,
    ("GET", "/api/v1/tournaments/{id}/standings/"): ALL,
    ("GET", "/api/v1/daylong/"): ALL,
    ("GET", "/api/v1/daylong/{id}/"): ALL,
    ("POST", "/api/v1/daylong/{id}/enter/"): PLAY,
    ("POST", "/api/v1/daylong/{id}/play/"): PLAY,
    ("GET", "/api/v1/daylong/{id}/standings/"): ALL,
    ("GET", "/api/v1/daylong/{id}/breakdown/"): LOGGED_IN,
    ("GET", "/api/v1/daylong/{id}/tables/"): ALL,
    ("GET", "/api/v1/time-controls/"): ALL,
    ("GET", "/api/v1/vacation/"): OWN,
    ("POST", "/api/v1/vacation/start/"): PLAY,
    ("POST", "/api/v1/vacation/stop/"): PLAY,
    ("GET", "/api/v1/push/vapid-key/"): ALL,
    ("GET", "/api/v1/push/subscriptions/"): PLAY,
    ("POST", "/api/v1/push/subscriptions/"): PLAY,
    ("DELETE", "/api/v1/push/subscriptions/{subscription_id}/"): PLAY,
}

BODIES: dict[tuple[str, str], Any] = {
    ("POST", "/api/v1/games/"): {"seats": [{"kind": "me"}] + [{"kind": "open"}] * 3},
    ("POST", "/api/v1/games/{public_id}/moves/"): {"action": {"bid": 1}, "expected_seq": 0},
}


def _operations() -> list[tuple[str, str]]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return sorted(
        (method.upper(), path)
        for path, item in schema["paths"].items()
        for method in item
        if method in ("get", "post", "put", "patch", "delete")
    )


def test_the_table_names_every_operation_of_the_schema() -> None:
    assert set(_operations()) == set(TABLE)


def test_every_operation_allows_and_refuses_as_the_table_says() -> None:
    owner, friend = PlayerFactory(), PlayerFactory()
    bot = BotPlayerFactory(owner=owner.user)
    Bot.objects.create(player=bot, kind=BotKind.API)
    game = services.game_create(
        creator=owner, seats=[owner, bot, None, None], options={"rated": False}
    )
    invited = invitations.game_create_inviting(creator=friend, seats=[friend, owner, None, None])
    invitation = invited.invitations.get()
    spare = ApiTokenFactory(user=owner.user, scopes=["read"])
    params = {
        "public_id": game.public_id,
        "position": "0",
        "invitation_id": str(invitation.pk),
        "token_id": str(spare.pk),
        "id": "1",
        "entrant_id": "1",
        "subscription_id": "1",
    }
    tokens = {
        "read": ApiTokenFactory(user=owner.user, scopes=["read"]),
        "play": ApiTokenFactory(user=owner.user, scopes=["play"]),
        "bot": ApiTokenFactory(user=owner.user, scopes=["bot"]),
        "one_bot": ApiTokenFactory(user=owner.user, scopes=["bot"], bot=bot),
    }
    session = APIClient()
    session.force_login(owner.user)

    wrong: list[str] = []
    for method, path in _operations():
        name = bot.name if path.startswith("/api/v1/bots/") else owner.name
        url = re.sub(r"\{(\w+)\}", lambda m: params.get(m.group(1), name), path)  # noqa: B023
        body = BODIES.get((method, path), {})
        for kind in KINDS:
            client, headers = (session, {}) if kind == "session" else (APIClient(), {})
            if kind in tokens:
                headers = auth_header(tokens[kind])
            with transaction.atomic():
                call = getattr(client, method.lower())
                if method in ("POST", "PATCH"):
                    r = call(url, body, format="json", **headers)
                else:
                    r = call(url, **headers)
                transaction.set_rollback(True)
            answer = r.json() if r.get("Content-Type") == "application/json" else None
            code = answer.get("code") if isinstance(answer, dict) else None
            # 401 for no credential (the event stream answers it as text/event-stream).
            refused = (r.status_code == 401 and code in ("not_authenticated", None)) or (
                r.status_code == 403 and code == "insufficient_scope"
            )
            expected = kind not in TABLE[(method, path)]
            if refused != expected:
                wrong.append(f"{method} {path} as {kind}: {r.status_code} {code}")
            if r.status_code >= 500:
                wrong.append(f"{method} {path} as {kind}: server error {r.status_code}")
    assert wrong == []


def test_a_read_token_cannot_spend_vacation_or_change_preferences() -> None:
    """The reproduction of finding 2, spelled out."""
    me = PlayerFactory()
    read = ApiTokenFactory(user=me.user, scopes=["read"])
    for method, url in (
        ("post", "/api/v1/vacation/start/"),
        ("post", "/api/v1/vacation/stop/"),
        ("patch", "/api/v1/notifications/preferences/"),
    ):
        r = getattr(APIClient(), method)(url, {}, format="json", **auth_header(read))
        assert (r.status_code, r.json()["code"]) == (403, "insufficient_scope"), url
    owner = PlayerFactory()
    bot = BotPlayerFactory(owner=owner.user)
    game = services.game_create(
        creator=owner, seats=[owner, bot, None, None], options={"rated": False}
    )
    for token in (
        ApiTokenFactory(user=owner.user, scopes=["bot"]),
        ApiTokenFactory(user=owner.user, scopes=["bot", "play"], bot=bot),
    ):
        r = APIClient().post(f"/api/v1/games/{game.public_id}/abort/", **auth_header(token))
        assert (r.status_code, r.json()["code"]) == (403, "insufficient_scope")
    game.refresh_from_db()
    assert game.status == "waiting"
    bot_only = ApiTokenFactory(user=owner.user, scopes=["bot"])
    r = APIClient().get("/api/v1/bots/strategies/", **auth_header(bot_only))
    assert r.status_code == 200 and {s["name"] for s in r.json()} >= {"random"}


# --- What each credential is shown --------------------------------------------------------
# (path, what to read from the answer) → kind → what it must be. A token made for one bot
# sees that bot's business only: its games, its invitations, itself as "me"; never its
# owner's notices, preferences, vacation or data (refused above).
FULL = ("read", "play", "bot", "session")


def _reads(w: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    both_games = {w["game_owner"], w["game_bot"]}
    both_invites = {w["invite_owner"], w["invite_bot"]}
    return {
        ("/api/v1/me/", "player"): {**dict.fromkeys(FULL, w["owner"]), "one_bot": w["bot"]},
        ("/api/v1/me/", "username"): {**dict.fromkeys(FULL, w["username"]), "one_bot": None},
        ("/api/v1/games/mine/", "games"): {
            **dict.fromkeys(FULL, both_games),
            "one_bot": {w["game_bot"]},
        },
        ("/api/v1/invitations/", "invited_to"): {
            **dict.fromkeys(FULL, both_invites),
            "one_bot": {w["invite_bot"]},
        },
        ("/api/v1/notifications/", "titles"): dict.fromkeys(FULL, {"for the owner"}),
        (f"/api/v1/games/{w['game_owner']}/", "your_seat"): {
            "read": 0, "play": 0, "bot": None, "one_bot": None, "session": 0,
        },
        (f"/api/v1/games/{w['game_bot']}/", "your_seat"): {
            "read": None, "play": None, "bot": 0, "one_bot": 0, "session": 0,
        },
    }  # fmt: skip


def _shown(what: str, body: Any) -> Any:
    if what == "player":
        return body["player"]["name"]
    if what in ("username", "your_seat"):
        return body[what]
    if what == "games":
        return {g["id"] for g in body["results"]}
    if what == "invited_to":
        return {i["game"] for i in body["results"]}
    if what == "titles":
        return {n["title"] for n in body["results"]}
    raise AssertionError(what)


def test_every_credential_is_shown_only_what_is_its_business() -> None:
    from clock.models import Notification, NotificationKind

    owner = PlayerFactory()
    bot = BotPlayerFactory(owner=owner.user)
    Bot.objects.create(player=bot, kind=BotKind.API)
    strangers = [PlayerFactory() for _ in range(8)]
    game_owner = services.game_create(
        creator=owner, seats=[owner, *strangers[:3]], options={"rated": False}
    )
    game_bot = services.game_create(
        creator=strangers[3], seats=[bot, *strangers[3:6]], options={"rated": False}
    )
    invite_owner = invitations.game_create_inviting(
        creator=strangers[6], seats=[strangers[6], owner, None, None]
    )
    invite_bot = invitations.game_create_inviting(
        creator=strangers[7], seats=[strangers[7], bot, None, None]
    )
    Notification.objects.create(player=owner, kind=NotificationKind.REMINDER, title="for the owner")
    Notification.objects.create(player=strangers[0], kind=NotificationKind.REMINDER, title="not")
    world = {
        "owner": owner.name,
        "bot": bot.name,
        "username": owner.user.get_username(),
        "game_owner": game_owner.public_id,
        "game_bot": game_bot.public_id,
        "invite_owner": invite_owner.public_id,
        "invite_bot": invite_bot.public_id,
    }
    tokens = {
        "read": ApiTokenFactory(user=owner.user, scopes=["read"]),
        "play": ApiTokenFactory(user=owner.user, scopes=["play"]),
        "bot": ApiTokenFactory(user=owner.user, scopes=["bot"]),
        "one_bot": ApiTokenFactory(user=owner.user, scopes=["bot"], bot=bot),
    }
    session = APIClient()
    session.force_login(owner.user)
    wrong: list[str] = []
    for (path, what), expected in _reads(world).items():
        for kind, want in expected.items():
            client = session if kind == "session" else APIClient()
            headers = {} if kind == "session" else auth_header(tokens[kind])
            r = client.get(path, **headers)
            if r.status_code != 200:
                wrong.append(f"{path} as {kind}: {r.status_code}")
                continue
            shown = _shown(what, r.json())
            if shown != want:
                wrong.append(f"{path} {what} as {kind}: {shown!r}, not {want!r}")
    assert wrong == []


def test_a_token_made_for_one_bot_reads_none_of_its_owners_notices() -> None:
    """The reproduction: a bot's token read its owner's notifications (answered 200)."""
    from clock.models import Notification, NotificationKind

    owner = PlayerFactory()
    bot = BotPlayerFactory(owner=owner.user)
    Notification.objects.create(player=owner, kind=NotificationKind.REMINDER, title="private")
    token = ApiTokenFactory(user=owner.user, scopes=["bot", "read"], bot=bot)
    for url in (
        "/api/v1/notifications/",
        "/api/v1/notifications/preferences/",
        "/api/v1/vacation/",
        "/api/v1/me/export/",
    ):
        r = APIClient().get(url, **auth_header(token))
        assert (r.status_code, r.json()["code"]) == (403, "insufficient_scope"), url
        assert "private" not in r.content.decode()
