"""The ladder's pages render the standings, a player and a game, with bounded queries."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ladder.recompute import ladder_recompute
from tests.ladder.helpers import finished_game, players

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    four = players(3) + players(1, bots=1)
    for i in range(22):
        finished_game(four, winner=[0, 1, None][i % 3] if i % 4 else 0, minute=i)
    ladder_recompute()
    return four


def test_ladder_page_lists_ranked_players_with_badges(client, table) -> None:
    html = client.get("/ladder/").content.decode()
    for p in table:
        assert f">{p.name}</a>" in html
    assert '<span class="bot">bot</span>' in html
    assert html.count("<tr>") == 5  # header + four players
    assert "?" not in re.sub(r"<[^>]+>", "", html.split('id="standings"')[1].split("</table>")[0])


def test_provisional_players_show_with_a_question_mark_by_default_and_my_row_is_marked(
    client,
) -> None:
    four = players(4)
    finished_game(four, winner=0)
    ladder_recompute()
    assert "No rated players here yet" in client.get("/ladder/?provisional=0").content.decode()
    html = client.get("/ladder/").content.decode()
    assert html.count('class="prov"') == 4
    assert ">1520<" in html and ">1480<" in html
    assert 'class="mine"' not in html  # nobody signed in
    if four[1].user is not None:
        client.force_login(four[1].user)
        html = client.get("/ladder/").content.decode()
        assert html.count('class="mine"') == 1
        row = html.split('class="mine"')[1].split("</tr>")[0]
        assert four[1].name in row and "(you)" in row


def test_player_page_has_the_chart_and_recent_games(client, table) -> None:
    hero = table[0]
    html = client.get(f"/ladder/players/{hero.name}/").content.decode()
    assert 'id="rating-chart"' in html and "<polyline" in html
    points = re.search(r'points="([^"]+)"', html).group(1).split()
    assert len(points) == 22
    assert html.count("/record/") == 20  # the latest 20 games, linked to their record page
    assert client.get("/ladder/players/not-a-player/").status_code == 404


def test_pairs_page(client, table) -> None:
    html = client.get("/ladder/pairs/").content.decode()
    body = html.split('id="pair-standings"')[1].split("</table>")[0]
    assert body.count("<tr>") == 3  # header + the two partnerships
    assert table[0].name in html


def test_page_query_counts_do_not_grow_with_the_data(client) -> None:
    pool = players(10, bots=2)
    hero = pool[0]
    urls = [
        "/ladder/?provisional=1",
        "/ladder/pairs/?provisional=1",
        f"/ladder/players/{hero.name}/",
    ]
    counts: dict[str, list[int]] = {u: [] for u in urls}
    played = 0
    for target in (21, 42):
        while played < target:
            start = (played * 3) % 6
            finished_game([hero, *pool[1 + start : 4 + start]], winner=played % 2, minute=played)
            played += 1
        ladder_recompute()
        for url in urls:
            with CaptureQueriesContext(connection) as ctx:
                assert client.get(url).status_code == 200
            counts[url].append(len(ctx.captured_queries))
    for url, (small, large) in counts.items():
        assert small == large, (url, small, large)


def test_a_player_without_rated_games_has_a_page(client) -> None:
    (newcomer,) = players(1)
    html = client.get(f"/ladder/players/{newcomer.name}/").content.decode()
    assert "0 rated games" in html and "no rated games yet" in html
    assert 'class="prov"' in html  # 1500?


def test_a_game_still_waiting_for_players_has_a_page(client) -> None:
    from games import services as game_services

    four = players(4)
    game = game_services.game_create(creator=four[0], seats=[four[0], None, four[2], None])
    html = client.get(f"/ladder/games/{game.public_id}/").content.decode()
    assert "has not started yet" in html
    assert game.seed not in html
