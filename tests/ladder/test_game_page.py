"""The game page: each deal's scores and the record for the replay; spectators see no hands."""

from __future__ import annotations

import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from backalley_engine.cards import card_str, mask_to_cards
from games import statecache
from ladder import hooks
from ladder.models import RatedGame
from tests.ladder.helpers import played_game, players

pytestmark = pytest.mark.django_db


def embedded_record(html: str) -> dict:
    found = re.search(
        r'<script id="game-record" type="application/json">(.*?)</script>', html, re.S
    )
    assert found, "the page embeds the record"
    return json.loads(found.group(1))


def test_finished_game_page_shows_deal_scores_and_the_whole_record(client, monkeypatch) -> None:
    monkeypatch.setattr(hooks, "enqueue_rating", lambda game_id: None)
    game = played_game(players(4), seed=3)
    html = client.get(f"/ladder/games/{game.public_id}/").content.decode()
    record = embedded_record(html)
    assert record["seed"] == game.seed and record["result"]["totals"] == [
        game.total_0,
        game.total_1,
    ]
    assert all(all(h is not None for h in d["hands"]) for d in record["deals"])
    deals_table = html.split('id="deals"')[1].split("</table>")[0]
    assert deals_table.count("<tr") == len(record["deals"]) + 1
    last = record["deals"][-1]["totals"]
    assert f"{last[0]} – {last[1]}" in deals_table
    assert 'id="replay-next"' in html and 'id="result"' in html


def test_game_in_progress_shows_only_the_spectator_view(client, monkeypatch) -> None:
    four = players(4)
    game = played_game(four, seed=4, moves=30)
    html = client.get(f"/ladder/games/{game.public_id}/").content.decode()
    record = embedded_record(html)
    assert record["seed"] is None and record["result"] is None
    assert all(h is None for d in record["deals"] for h in d["hands"])
    assert game.seed not in html
    assert 'id="live"' in html and "spectator" in html
    # No card still in a hand appears anywhere on the page.
    state = statecache.replay(game)
    assert state.move_count == 30
    live = state.all_deals()[-1].state
    hidden = {card_str(c) for mask in live.hands for c in mask_to_cards(mask)}
    assert hidden
    page = re.sub(r"<script>.*?</script>", "", html, flags=re.S)  # the replay code itself
    shown = set(re.findall(r'"([2-9TJQKA][SHDC]|BB|LB)"', page))
    played = {c for d in record["deals"] for t in d["tricks"] for c in t["cards"]}
    played |= {d["upcard"] for d in record["deals"]}
    assert not (shown - played) & hidden


def test_unknown_game_is_404(client) -> None:
    assert client.get("/ladder/games/g_nope/").status_code == 404


def test_game_page_query_count_does_not_grow_with_the_ladder(client, monkeypatch) -> None:
    monkeypatch.setattr(hooks, "enqueue_rating", lambda game_id: None)
    pool = players(6)
    game = played_game(pool[:4], seed=5)
    counts = []
    for extra in (0, 1):
        if extra:
            played_game(pool[2:], seed=6)
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(f"/ladder/games/{game.public_id}/").status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1]


def test_finishing_a_rated_game_enqueues_its_rating_after_commit(
    monkeypatch, django_capture_on_commit_callbacks
) -> None:
    sent: list[tuple] = []
    from ladder import tasks

    monkeypatch.setattr(
        tasks.rate_game, "apply_async", lambda args, task_id: sent.append((args, task_id))
    )
    with django_capture_on_commit_callbacks(execute=True):
        game = played_game(players(4), seed=8)
    assert sent == [([game.pk], f"rate-game:{game.pk}")]
    assert tasks.rate_game.name.startswith("ladder.tasks.")  # routed to "ratings" in settings
    assert not RatedGame.objects.exists()  # the worker does the rating, not the request
