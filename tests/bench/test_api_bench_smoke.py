"""The in-process parts of bench/api.py: its policy, its game preparation and its baseline."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from backalley_engine.state import GameState
from bench import api_prep
from games.models import Game, Move


def test_policy_plays_a_whole_game_of_legal_moves() -> None:
    # 25 scored deals are 100 bids and 724 cards; voided deals only add to that.
    assert api_prep.game_length("ab" * 32) >= 824
    state = GameState.new("cd" * 32)
    for _ in range(60):
        assert api_prep.policy(state) in state.legal_actions()
        state.apply(api_prep.policy(state))


def test_only_a_bench_database_is_ever_dropped() -> None:
    with pytest.raises(SystemExit, match="refusing"):
        api_prep.recreate_database("postgres://postgres@127.0.0.1:5432/ba_main")


@pytest.mark.django_db
def test_games_are_advanced_through_the_move_service() -> None:
    table = api_prep.make_game(api_prep.make_players(4))
    api_prep.advance(table, 30)
    game = Game.objects.get(pk=table.pk)
    assert game.move_count == table.state.move_count == 30
    seqs = list(Move.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, 31))


@pytest.mark.django_db
@pytest.mark.urls("bench.api_urls")
def test_the_baseline_ping_needs_a_token_and_does_nothing_else() -> None:
    _, token = api_prep.make_players(1)[0]
    client = APIClient()
    assert client.get(api_prep.PING_PATH).status_code == 401
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    response = client.get(api_prep.PING_PATH)
    assert response.status_code == 200 and response.json()["ok"] is True
