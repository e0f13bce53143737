"""The tournaments API: create, list with filters, register/confirm/withdraw, start,
rounds with links to their games, standings, errors in the one shape, the schema."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.models import Game
from tests.factories import PlayerFactory
from tests.tournaments.helpers import end_game
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _client(player) -> APIClient:  # type: ignore[no-untyped-def]
    c = APIClient()
    c.force_login(player.user)
    return c


def test_a_pairs_event_through_the_api() -> None:
    organiser = PlayerFactory()
    api = _client(organiser)
    made = api.post(
        "/api/v1/tournaments/",
        {"name": "Club Swiss", "rounds": 1, "time_control": {"days_per_move": 2}},
        format="json",
    )
    assert made.status_code == 201, made.json()
    tid = made.json()["id"]
    assert made.json()["time_control"] == {"days_per_move": 2, "reserve_days": 0}

    people = [PlayerFactory() for _ in range(4)]
    for a, b in (people[0:2], people[2:4]):
        r = _client(a).post(
            f"/api/v1/tournaments/{tid}/register/", {"partner": b.name}, format="json"
        )
        assert r.status_code == 201 and r.json()["status"] == "pending"
        c = _client(b).post(
            f"/api/v1/tournaments/{tid}/entrants/{r.json()['id']}/confirm/", {}, format="json"
        )
        assert c.status_code == 200 and c.json()["status"] == "active"

    again = _client(people[0]).post(
        f"/api/v1/tournaments/{tid}/register/", {"partner": PlayerFactory().name}, format="json"
    )
    assert again.status_code == 409 and again.json()["code"] == "already_registered"
    assert set(again.json()) == {"code", "message", "extra"}

    refused = _client(people[0]).post(f"/api/v1/tournaments/{tid}/start/", format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "not_organiser"
    started = api.post(f"/api/v1/tournaments/{tid}/start/", format="json")
    assert started.status_code == 200 and started.json()["status"] == "running"

    listed = APIClient().get("/api/v1/tournaments/?status=running&format=swiss").json()
    assert [t["id"] for t in listed["results"]] == [tid]
    assert APIClient().get("/api/v1/tournaments/?status=finished").json()["results"] == []

    rounds = APIClient().get(f"/api/v1/tournaments/{tid}/rounds/").json()
    (table,) = rounds[0]["tables"]
    assert table["game_url"] == f"/api/v1/games/{table['game']}/"
    assert rounds[0]["seed"] is None
    end_game(Game.objects.get(public_id=table["game"]), totals=(100, 60))

    standings = APIClient().get(f"/api/v1/tournaments/{tid}/standings/").json()
    assert standings["final"] is True
    assert [line["points"] for line in standings["lines"]] == ["1.0", "0.0"]
    assert APIClient().get(f"/api/v1/tournaments/{tid}/").json()["status"] == "finished"


def test_errors_keep_the_one_shape() -> None:
    assert APIClient().get("/api/v1/tournaments/999999/").json()["code"] == "tournament_not_found"
    api = _client(PlayerFactory())
    bad = api.post(
        "/api/v1/tournaments/",
        {"name": "RR", "format": "round_robin", "entry": "individual"},
        format="json",
    )
    assert bad.status_code == 400 and bad.json()["code"] == "bad_tournament"
    anon = APIClient().post("/api/v1/tournaments/", {"name": "Nope"}, format="json")
    assert anon.status_code in (401, 403)


def test_the_schema_lists_the_tournament_endpoints() -> None:
    schema = APIClient().get("/api/schema/?format=json").json()
    paths = set(schema["paths"])
    for p in (
        "/api/v1/tournaments/",
        "/api/v1/tournaments/{id}/",
        "/api/v1/tournaments/{id}/register/",
        "/api/v1/tournaments/{id}/rounds/",
        "/api/v1/tournaments/{id}/standings/",
    ):
        assert p in paths, p


def test_a_duplicate_rounds_seed_waits_for_its_last_table() -> None:
    """docs/rules.md §8: the first table to finish does not publish the seed the other is
    still playing, on the rounds list, the event's page or the game itself."""
    from tests.tournaments.helpers import event, pairs
    from tournaments import services

    t = event(scoring="duplicate", rounds=1)
    pairs(t, 4)
    services.tournament_start(tournament_id=t.pk, by=t.organiser)
    rounds = APIClient().get(f"/api/v1/tournaments/{t.pk}/rounds/").json()
    first, second = (Game.objects.get(public_id=tb["game"]) for tb in rounds[0]["tables"])
    assert first.seed == second.seed and first.deal_set_id == second.deal_set_id
    watcher = _client(PlayerFactory())

    end_game(first, totals=(100, 60))
    rounds = APIClient().get(f"/api/v1/tournaments/{t.pk}/rounds/").json()
    assert rounds[0]["seed"] is None
    for text in (
        APIClient().get(f"/api/v1/tournaments/{t.pk}/rounds/").content.decode(),
        APIClient().get(f"/tournaments/{t.pk}/").content.decode(),
        watcher.get(f"/api/v1/games/{first.public_id}/").content.decode(),
        APIClient().get(f"/games/{first.public_id}/record/").content.decode(),
    ):
        assert first.seed not in text
    # The other table plays on: anyone but its players is told there is no such game.
    assert watcher.get(f"/api/v1/games/{first.public_id}/").json()["code"] == "game_not_found"

    end_game(second, totals=(80, 90))
    rounds = APIClient().get(f"/api/v1/tournaments/{t.pk}/rounds/").json()
    assert rounds[0]["seed"] == first.seed
    assert watcher.get(f"/api/v1/games/{first.public_id}/").json()["seed"] == first.seed


@pytest.mark.parametrize(
    ("asked", "stored"),
    [
        (
            {"hours_per_move": 12, "bank_seconds": 259200},
            {"minutes_per_move": 720, "bank_seconds": 259200},
        ),
        ({"preset": "live"}, {"minutes_per_move": 2, "bank_seconds": 600}),
    ],
)
def test_an_event_takes_every_time_control_a_game_takes(
    asked: dict[str, int | str], stored: dict[str, int]
) -> None:
    api = _client(PlayerFactory())
    made = api.post(
        "/api/v1/tournaments/", {"name": "Hours", "rounds": 1, "time_control": asked}, format="json"
    )
    assert made.status_code == 201, made.json()
    assert made.json()["time_control"] == stored
    page = api.get(f"/tournaments/{made.json()['id']}/").content.decode()
    assert "per move" in page


@pytest.mark.parametrize("bad", [{"hours_per_move": 0}, ["days", 2], "fast", {"days_per_move": 99}])
def test_a_time_control_no_game_takes_is_refused_and_makes_no_event(bad: object) -> None:
    api = _client(PlayerFactory())
    r = api.post(
        "/api/v1/tournaments/", {"name": "Bad", "rounds": 1, "time_control": bad}, format="json"
    )
    assert r.status_code == 400, r.content
    assert r.json()["code"] and r.json()["message"]
    assert not Tournament.objects.filter(name="Bad").exists()
