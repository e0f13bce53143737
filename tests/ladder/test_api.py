"""The ladder API: standings with filters and ranks, a player's rating, history, games, pairs."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ladder.recompute import ladder_recompute
from tests.ladder.helpers import finished_game, players

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    """Six people and two bots; the first four play 20 games together (established)."""
    people = players(6)
    bots = players(2, bots=2)
    core = people[:4]
    for i in range(20):
        finished_game(core, winner=i % 2 if i % 5 else None, minute=i)
    finished_game([people[4], bots[0], people[5], bots[1]], winner=1, minute=100)
    ladder_recompute()
    return people, bots


def test_standings_leave_out_provisional_players_by_default(client, league) -> None:
    people, bots = league
    body = client.get("/api/v1/ladder/standings/").json()
    assert body["count"] == 4
    names = [row["player"]["name"] for row in body["results"]]
    assert set(names) == {p.name for p in people[:4]}
    assert [row["rank"] for row in body["results"]] == [1, 2, 3, 4]
    ratings = [float(row["rating"]) for row in body["results"]]
    assert ratings == sorted(ratings, reverse=True)
    assert all(row["games"] == 20 and not row["provisional"] for row in body["results"])


def test_standings_filter_by_kind_and_provisional(client, league) -> None:
    people, bots = league
    body = client.get("/api/v1/ladder/standings/?kind=bots&provisional=true").json()
    assert {r["player"]["name"] for r in body["results"]} == {b.name for b in bots}
    assert all(r["player"]["is_bot"] and r["provisional"] for r in body["results"])
    assert body["results"][0]["rating"] == "1520.0000"
    people_only = client.get("/api/v1/ladder/standings/?kind=people&provisional=true").json()
    assert people_only["count"] == 6
    few = client.get("/api/v1/ladder/standings/?provisional=true&min_games=2").json()
    assert few["count"] == 4


def test_standings_paginate_with_ranks_across_pages(client, league) -> None:
    body = client.get("/api/v1/ladder/standings/?provisional=true&page_size=3&page=2").json()
    assert body["count"] == 8
    assert [r["rank"] for r in body["results"]] == [4, 5, 6]


def test_bad_filters_get_the_one_error_shape(client, league) -> None:
    response = client.get("/api/v1/ladder/standings/?kind=robots")
    assert response.status_code == 400
    body = response.json()
    assert set(body) == {"code", "message", "extra"}
    response = client.get("/api/v1/ladder/standings/?min_games=-1")
    assert response.status_code == 400


def test_player_rating_history_and_games(client, league) -> None:
    people, _ = league
    name = people[0].name
    card = client.get(f"/api/v1/ladder/players/{name.upper()}/").json()
    assert card["player"] == {"name": name, "is_bot": False}
    assert card["games"] == 20 and card["provisional"] is False and card["rank"] >= 1
    assert card["wins"] + card["draws"] + card["losses"] == 20
    history = client.get(f"/api/v1/ladder/players/{name}/history/").json()
    assert history["count"] == 20
    rows = history["results"]
    assert rows[0]["before"] == "1500.0000" and rows[0]["k"] == 40
    assert all(a["after"] == b["before"] for a, b in zip(rows, rows[1:], strict=False))
    assert rows[-1]["after"] == card["rating"]
    games = client.get(f"/api/v1/ladder/players/{name}/games/?limit=5").json()
    assert len(games) == 5
    assert games[0]["partner"] == people[2].name
    assert games[0]["result"] in {"W", "D", "L"} and games[0]["delta"] is not None


def test_a_bad_limit_is_refused(client, league) -> None:
    name = league[0][0].name
    for bad in ("0", "101", "ten", "-3"):
        response = client.get(f"/api/v1/ladder/players/{name}/games/?limit={bad}")
        assert response.status_code == 400
        assert response.json()["code"] == "bad_limit"


def test_unknown_player_is_not_found(client, league) -> None:
    response = client.get("/api/v1/ladder/players/nobody-here/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_pair_standings(client, league) -> None:
    body = client.get("/api/v1/ladder/pairs/").json()
    assert body["count"] == 2
    assert {r["games"] for r in body["results"]} == {20}
    everyone = client.get("/api/v1/ladder/pairs/?provisional=true").json()
    assert everyone["count"] == 4


def test_the_schema_documents_the_ladder(client) -> None:
    schema = client.get("/api/schema/").content.decode()
    assert "/api/v1/ladder/standings/" in schema
    assert "/api/v1/ladder/players/{name}/history/" in schema


URLS = [
    "/api/v1/ladder/standings/?provisional=true",
    "/api/v1/ladder/pairs/?provisional=true",
    "/api/v1/ladder/players/{name}/",
    "/api/v1/ladder/players/{name}/history/",
    "/api/v1/ladder/players/{name}/games/",
]


def test_api_query_counts_do_not_grow_with_the_data(client) -> None:
    counts: dict[str, list[int]] = {url: [] for url in URLS}
    pool = players(12, bots=3)
    hero = pool[0]
    played = 0
    for target in (21, 45):  # the hero is established at both sizes
        while played < target:
            start = (played * 3) % 9
            finished_game([hero, *pool[1 + start : 4 + start]], winner=played % 2, minute=played)
            played += 1
        ladder_recompute()
        for url in URLS:
            with CaptureQueriesContext(connection) as ctx:
                response = client.get(url.format(name=hero.name))
            assert response.status_code == 200, url
            counts[url].append(len(ctx.captured_queries))
    for url, (small, large) in counts.items():
        assert small == large, (url, small, large)
