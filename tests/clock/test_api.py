"""The clock's API and page: notifications, preferences, vacation; time-control options."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from clock.models import GameClock, Notification, Vacation
from games.models import Game
from tests.factories import PlayerFactory
from tests.games.conftest import client_for

pytestmark = pytest.mark.django_db


def note(player: Any, title: str = "hello", **kw: Any) -> Notification:
    return Notification.objects.create(player=player, kind="reminder", title=title, **kw)


def test_notifications_are_listed_newest_first_and_only_your_own() -> None:
    me, other = PlayerFactory(), PlayerFactory()
    note(me, "first")
    note(me, "second")
    note(other, "not yours")
    body = client_for(me.user).get("/api/v1/notifications/").json()
    assert [n["title"] for n in body["results"]] == ["second", "first"]
    assert all(n["read"] is False for n in body["results"])


def test_marking_read_the_given_ids_or_all_and_never_anothers() -> None:
    me, other = PlayerFactory(), PlayerFactory()
    a, b = note(me, "a"), note(me, "b")
    theirs = note(other, "theirs")
    api = client_for(me.user)
    r = api.post("/api/v1/notifications/read/", {"ids": [a.pk, theirs.pk]}, format="json")
    assert r.status_code == 200 and r.json() == {"marked": 1}
    unread = api.get("/api/v1/notifications/?unread=true").json()["results"]
    assert [n["id"] for n in unread] == [b.pk]
    theirs.refresh_from_db()
    assert theirs.read_at is None
    assert api.post("/api/v1/notifications/read/", {}, format="json").json() == {"marked": 1}


def test_bad_mark_read_input_gets_the_one_error_shape() -> None:
    me = PlayerFactory()
    note(me)
    r = client_for(me.user).post("/api/v1/notifications/read/", {"ids": ["x"]}, format="json")
    assert r.status_code == 400
    assert set(r.json()) == {"code", "message", "extra"}
    assert Notification.objects.filter(read_at__isnull=True).count() == 1


def test_preferences_default_on_and_each_can_be_turned_off() -> None:
    me = PlayerFactory()
    api = client_for(me.user)
    assert api.get("/api/v1/notifications/preferences/").json() == {
        "reminder_email": True,
        "reminder_inapp": True,
        "digest_email": True,
        "digest_inapp": True,
        "invitation_email": True,
        "invitation_inapp": True,
        "turn_push": True,
        "over_push": True,
        "invitation_push": True,
        "claim_push": True,
        "round_push": True,
        "reminder_push": True,
        "quiet_from": None,
        "quiet_until": None,
        "time_zone": "UTC",
    }
    r = api.patch("/api/v1/notifications/preferences/", {"digest_email": False}, format="json")
    assert r.status_code == 200 and r.json()["digest_email"] is False
    assert api.get("/api/v1/notifications/preferences/").json()["digest_email"] is False
    bad = api.patch("/api/v1/notifications/preferences/", {"digest_email": "maybe"}, format="json")
    assert bad.status_code == 400 and bad.json()["code"]
    quiet = {"quiet_from": "22:00", "quiet_until": "07:30", "time_zone": "Europe/Vilnius"}
    r = api.patch("/api/v1/notifications/preferences/", quiet, format="json")
    assert r.status_code == 200, r.content
    assert r.json()["quiet_from"] == "22:00:00" and r.json()["time_zone"] == "Europe/Vilnius"
    nowhere = {"time_zone": "Mars/Olympus_Mons"}
    bad = api.patch("/api/v1/notifications/preferences/", nowhere, format="json")
    assert bad.status_code == 400 and bad.json()["code"]


def test_vacation_endpoints_report_and_refuse_clearly() -> None:
    me = PlayerFactory()
    api = client_for(me.user)
    body = api.get("/api/v1/vacation/").json()
    assert body == {
        "days_played": 0,
        "earned": 0,
        "used": 0,
        "available": 0,
        "on_vacation": False,
        "started_at": None,
        "ends_at": None,
    }
    r = api.post("/api/v1/vacation/start/")
    assert r.status_code == 400 and r.json()["code"] == "no_vacation_days"
    r = api.post("/api/v1/vacation/stop/")
    assert r.status_code == 409 and r.json()["code"] == "not_on_vacation"
    assert not Vacation.objects.exists()


def test_vacation_start_and_stop_through_the_api(monkeypatch: pytest.MonkeyPatch) -> None:
    from clock import vacation

    me = PlayerFactory()
    monkeypatch.setattr(vacation, "days_played", lambda player: 24)  # three days earned
    api = client_for(me.user)
    started = api.post("/api/v1/vacation/start/").json()
    assert started["on_vacation"] is True and started["available"] == 3
    again = api.post("/api/v1/vacation/start/")
    assert again.status_code == 409 and again.json()["code"] == "already_on_vacation"
    stopped = api.post("/api/v1/vacation/stop/").json()
    assert stopped["on_vacation"] is False and stopped["used"] == 1 and stopped["available"] == 2


def test_the_api_needs_a_login() -> None:
    for url in (
        "/api/v1/notifications/",
        "/api/v1/vacation/",
        "/api/v1/notifications/preferences/",
    ):
        r = Client().get(url)
        assert r.status_code in (401, 403) and "code" in r.json()


@pytest.mark.parametrize(
    "tc, field",
    [
        ({"days_per_move": 0}, "days_per_move"),
        ({"days_per_move": 15}, "days_per_move"),
        ({"days_per_move": 3, "reserve_days": 31}, "reserve_days"),
        ({"reserve_days": 2}, "days_per_move"),
    ],
)
def test_a_bad_time_control_is_refused_at_creation_and_writes_nothing(tc: dict, field: str) -> None:
    players = [PlayerFactory() for _ in range(4)]
    seats = [{"kind": "me"}] + [{"kind": "player", "name": p.name} for p in players[1:]]
    r = client_for(players[0].user).post(
        "/api/v1/games/", {"seats": seats, "options": {"time_control": tc}}, format="json"
    )
    assert r.status_code == 400, r.content
    assert set(r.json()) == {"code", "message", "extra"}
    assert field in str(r.json())
    assert not Game.objects.exists()


def test_the_service_checks_the_time_control_too() -> None:
    from backalley_site.errors import DomainError
    from games.services import game_create

    players = [PlayerFactory() for _ in range(4)]
    with pytest.raises(DomainError) as err:
        game_create(
            creator=players[0],
            seats=players,
            options={"time_control": {"days_per_move": 3, "bank": 2}},
        )
    assert err.value.code == "bad_game_setup"
    assert not Game.objects.exists() and not GameClock.objects.exists()


def test_the_notifications_page_lists_yours_and_marks_them_read() -> None:
    me, other = PlayerFactory(), PlayerFactory()
    note(me, "Your move in game g_abc: time is running out")
    note(other, "someone else's")
    site = Client()
    assert site.get("/notifications/").status_code == 302  # to the login page
    site.force_login(me.user)
    page = site.get("/notifications/")
    html = page.content.decode()
    assert page.status_code == 200
    assert "Your move in game g_abc" in html and "someone else" not in html
    assert 'class="reminder unread"' in html
    assert site.post("/notifications/read/").status_code == 302
    assert not Notification.objects.filter(player=me, read_at__isnull=True).exists()
    assert Notification.objects.filter(player=other, read_at__isnull=True).exists()


def test_the_notifications_page_links_the_game() -> None:
    from tests.clock.helpers import timed_game

    game = timed_game(days=2)
    me = game.seats.get(position=0).player
    note(me, "about a game", game=game)
    site = Client()
    site.force_login(me.user)
    html = site.get("/notifications/").content.decode()
    assert f'href="/games/{game.public_id}/"' in html


def test_the_admin_pages_of_the_clock_open() -> None:
    from clock.services import clock_sync
    from tests.clock.helpers import timed_game
    from tests.factories import UserFactory

    game = timed_game(days=2)
    clock_sync(game_id=game.pk)  # on_commit hooks do not run inside this test's transaction
    admin = UserFactory(is_staff=True, is_superuser=True)
    site = Client()
    site.force_login(admin)
    clock = GameClock.objects.get(game=game)
    for url in (
        "/admin/clock/gameclock/",
        f"/admin/clock/gameclock/{clock.pk}/change/",
        "/admin/clock/notification/",
        "/admin/clock/vacation/",
    ):
        assert site.get(url).status_code == 200, url


def test_the_page_saves_reminder_preferences() -> None:
    from clock.models import NotificationPreference

    me = PlayerFactory()
    site = Client()
    site.force_login(me.user)
    html = site.get("/notifications/").content.decode()
    assert html.count('type="checkbox"') == 4 and html.count("checked") == 4
    r = site.post("/notifications/preferences/", {"reminder_inapp": "on", "digest_email": "on"})
    assert r.status_code == 302
    prefs = NotificationPreference.objects.get(player=me)
    assert (prefs.reminder_email, prefs.reminder_inapp, prefs.digest_email, prefs.digest_inapp) == (
        False,
        True,
        True,
        False,
    )
    assert "preferences are saved" in site.get("/notifications/").content.decode()


def test_the_page_starts_and_ends_a_vacation_or_says_why_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from clock import vacation

    me = PlayerFactory()
    site = Client()
    site.force_login(me.user)
    html = site.get("/notifications/").content.decode()
    assert "0 vacation days available" in html and "disabled" in html
    site.post("/notifications/vacation/", {"action": "start"})
    assert "You have no vacation days" in site.get("/notifications/").content.decode()
    assert not Vacation.objects.exists()
    monkeypatch.setattr(vacation, "days_played", lambda player: 16)
    site.post("/notifications/vacation/", {"action": "start"})
    html = site.get("/notifications/").content.decode()
    assert "Enjoy your vacation" in html and "End my vacation" in html
    site.post("/notifications/vacation/", {"action": "stop"})
    assert "Welcome back" in site.get("/notifications/").content.decode()
    assert Vacation.objects.get(player=me).ended_at is not None
