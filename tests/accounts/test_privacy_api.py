"""A person's data through the API and the site: the archive (all of theirs, no card they
could not see, never a secret), and the account's deletion (confirmed by password,
throttled, logged)."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import Player
from games import selectors
from games.models import Game
from tests.accounts.privacy_world import EMAIL, HOOK_URL, NAME, USERNAME, World, build
from tests.factories import PASSWORD, auth_header

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _setup(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()  # the throttles' counters


@pytest.fixture
def world() -> World:
    return build(finished=False)


def test_the_archive_holds_their_data_and_no_card_they_could_not_see(world: World) -> None:
    token = world.tokens["read"]
    r = APIClient().get("/api/v1/me/export/", **auth_header(token))
    assert r.status_code == 200, r.content
    assert r["Content-Disposition"].startswith(f'attachment; filename="backalley-{NAME}-')
    assert r["Cache-Control"] == "no-store"
    archive = r.json()
    assert (archive["format"], archive["version"]) == ("backalley-export", 1)
    account = archive["account"]
    assert (account["username"], account["email"], account["player"]["name"]) == (
        USERNAME,
        EMAIL,
        NAME,
    )
    assert account["player"]["language"] == "sv"
    assert {t["name"] for t in account["tokens"]} == {"zelda laptop", "zelda api runner"}
    body = json.dumps(archive)
    for t in world.tokens.values():
        assert t.secret not in body and t.key_hash not in body  # never a secret, nor its hash
    games = {g["id"]: g for g in archive["games"]["games"]}
    assert {world.untimed.public_id, world.timed.public_id, world.waiting_mine.public_id} <= set(
        games
    )
    # A running game: its record as her seat sees it, from her seat only; no seed yet.
    untimed = Game.objects.get(pk=world.untimed.pk)
    mine = games[untimed.public_id]
    assert mine["your_seats"] == [1] and mine["seed"] is None
    seats = selectors.game_seats(game=untimed)
    assert mine["records"] == {"1": selectors.game_record(game=untimed, seats=seats, seat=1)}
    assert untimed.seed not in body
    for seat in (0, 2, 3):
        other = json.dumps(selectors.game_record(game=untimed, seats=seats, seat=seat))
        assert other not in body
    # Her bots (the webhook's address is hers to see; its secret is never stored), her notices
    # and preferences, her tournaments, her invitations.
    bots = {b["name"]: b for b in archive["bots"]["bots"]}
    assert set(bots) == {"ZeldaHosted", "ZeldaHook", "ZeldaApi", "ZeldaNever"}
    assert bots["ZeldaHook"]["webhook_url"] == HOOK_URL
    assert archive["clock"]["preferences"]["digest_email"] is False
    assert any(n["title"].startswith(NAME) for n in archive["clock"]["notifications"])
    waiting = [m for m in archive["clock"]["mails"] if m["sent_at"] is None]
    assert {m["to"] for m in waiting} == {EMAIL} and any(
        m["subject"].startswith(NAME) for m in waiting
    )
    assert archive["tournaments"]["organised"][0]["name"] == f"{NAME}'s cup"
    assert archive["tournaments"]["entries"][0]["status"] == "pending"  # her partner to confirm
    assert len(archive["games"]["invitations"]) >= 2
    assert archive["ladder"] == {"rating": None, "changes": []}


def test_the_archive_is_the_persons_alone(world: World) -> None:
    r = APIClient().get("/api/v1/me/export/", **auth_header(world.tokens["bot"]))
    assert (r.status_code, r.json()["code"]) == (403, "insufficient_scope")
    r = APIClient().get("/api/v1/me/export/")
    assert (r.status_code, r.json()["code"]) == (401, "not_authenticated")
    other = Client()
    other.force_login(world.others[0].user)
    theirs = json.loads(other.get("/accounts/data/export/").content)
    assert theirs["account"]["player"]["name"] == world.others[0].name
    assert NAME not in json.dumps(theirs["account"])


def test_the_archive_downloads_are_throttled(world: World, settings: Any) -> None:
    settings.ACCOUNTS_EXPORT_RATE = "2/hour"
    token = world.tokens["read"]
    codes = [
        APIClient().get("/api/v1/me/export/", **auth_header(token)).status_code for _ in range(3)
    ]
    assert codes == [200, 200, 429]


def test_deleting_needs_the_password_is_throttled_and_then_stops_every_credential(
    world: World, settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    settings.ACCOUNTS_DELETE_RATE = "3/hour"
    token = world.tokens["read"]  # read and play
    api = APIClient()
    url = "/api/v1/me/delete/"
    r = api.post(url, {"password": "guess"}, format="json", **auth_header(token))
    assert (r.status_code, r.json()["code"]) == (403, "wrong_password")
    r = api.post(url, {}, format="json", **auth_header(token))
    assert (r.status_code, r.json()["code"]) == (400, "invalid")
    with caplog.at_level(logging.INFO, logger="backalley.privacy"):
        r = api.post(url, {"password": PASSWORD}, format="json", **auth_header(token))
    assert r.status_code == 200, r.content
    pseudonym = r.json()["pseudonym"]
    assert r.json() == {"deleted": True, "pseudonym": pseudonym}
    assert Player.objects.get(pk=world.zelda.pk).name == pseudonym
    (line,) = [rec.getMessage() for rec in caplog.records if rec.name == "backalley.privacy"]
    assert pseudonym in line and NAME not in line and USERNAME not in line
    # Her token is gone; her password no longer signs in.
    assert api.get("/api/v1/me/", **auth_header(token)).status_code == 401
    login = Client().post("/accounts/login/", {"username": USERNAME, "password": PASSWORD})
    assert login.status_code == 200  # the form again, with its error: no sign-in
    r = api.post(url, {"password": PASSWORD}, format="json", **auth_header(token))
    assert r.status_code == 401


def test_deleting_is_throttled_per_account(world: World, settings: Any) -> None:
    settings.ACCOUNTS_DELETE_RATE = "2/hour"
    token = world.tokens["read"]
    codes = [
        APIClient()
        .post("/api/v1/me/delete/", {"password": "guess"}, format="json", **auth_header(token))
        .status_code
        for _ in range(3)
    ]
    assert codes == [403, 403, 429]
    assert Player.objects.get(pk=world.zelda.pk).name == NAME


def test_only_the_person_may_delete_the_account(world: World) -> None:
    from tests.factories import ApiTokenFactory

    read_only = ApiTokenFactory(user=world.zelda.user, scopes=["read"])
    for token in (read_only, world.tokens["bot"]):
        r = APIClient().post(
            "/api/v1/me/delete/", {"password": PASSWORD}, format="json", **auth_header(token)
        )
        assert (r.status_code, r.json()["code"]) == (403, "insufficient_scope")
    assert Player.objects.get(pk=world.zelda.pk).name == NAME


def test_the_data_page_downloads_the_archive_and_deletes_the_account(world: World) -> None:
    client = Client()
    client.force_login(world.zelda.user)
    page = client.get("/accounts/data/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'href="/accounts/data/export/"' in html and 'action="/accounts/data/delete/"' in html
    assert 'href="/privacy/"' in html
    download = client.get("/accounts/data/export/")
    assert download["Content-Disposition"].startswith("attachment;")
    assert json.loads(download.content)["account"]["email"] == EMAIL
    # A wrong password, or no tick, deletes nothing.
    r = client.post("/accounts/data/delete/", {"password": "guess", "understood": "on"})
    assert r.status_code == 400 and "errorlist" in r.content.decode()
    r = client.post("/accounts/data/delete/", {"password": PASSWORD})
    assert r.status_code == 400
    assert Player.objects.get(pk=world.zelda.pk).name == NAME
    r = client.post("/accounts/data/delete/", {"password": PASSWORD, "understood": "on"})
    assert r.status_code == 302 and r["Location"] == "/"
    assert Player.objects.get(pk=world.zelda.pk).erased_at is not None
    home = client.get("/")
    assert "Your account has been deleted." in home.content.decode()
    assert client.get("/accounts/data/").status_code == 302  # signed out: to the login page


def test_the_privacy_page_says_what_is_kept_and_is_linked_from_every_page() -> None:
    r = Client().get("/privacy/")
    assert r.status_code == 200
    html = r.content.decode()
    for words in ("What we keep, and why", "Deleting your account", "Backups"):
        assert words in html
    assert 'href="/privacy/"' in Client().get("/").content.decode()
