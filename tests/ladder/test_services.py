"""Rating finished games: exactly once, in finishing order, equal to a full recompute."""

from __future__ import annotations

import random
from decimal import Decimal as D

import pytest

from games.models import GameStatus, Seat
from ladder.models import (
    LadderState,
    PairRating,
    PairRatingChange,
    PlayerRating,
    RatedGame,
    RatingChange,
)
from ladder.recompute import ladder_recompute
from ladder.services import ladder_rate_game
from ladder.tasks import rate_game
from tests.ladder.helpers import finished_game, players

pytestmark = pytest.mark.django_db


def snapshot() -> dict[str, list[tuple]]:
    """Everything the ladder stores, as comparable plain values."""
    change = ["game_id", "seq", "before", "after", "delta", "k", "expected", "result"]
    standing = ["rating", "games", "wins", "draws", "losses", "recent", "trend"]
    return {
        "players": list(PlayerRating.objects.order_by("pk").values_list("pk", *standing)),
        "pairs": list(PairRating.objects.order_by("pk").values_list("pk", *standing)),
        "changes": list(
            RatingChange.objects.order_by("seq", "seat").values_list("player_id", "seat", *change)
        ),
        "pair_changes": list(
            PairRatingChange.objects.order_by("seq", "side").values_list("team_id", "side", *change)
        ),
        "markers": list(RatedGame.objects.order_by("seq").values_list("game_id", "seq")),
    }


def test_a_win_between_newcomers_moves_everyone_twenty() -> None:
    a, b, c, d = players(4)
    game = finished_game([a, b, c, d], winner=0)
    assert ladder_rate_game(game_id=game.pk) == 1
    ratings = dict(PlayerRating.objects.values_list("player_id", "rating"))
    assert ratings == {a.pk: D(1520), b.pk: D(1480), c.pk: D(1520), d.pk: D(1480)}
    row = PlayerRating.objects.get(pk=a.pk)
    assert (row.games, row.wins, row.losses, row.provisional, row.trend) == (1, 1, 0, True, 20)
    assert sorted(PairRating.objects.values_list("rating", flat=True)) == [D(1480), D(1520)]
    change = RatingChange.objects.get(game=game, player=b)
    assert (change.before, change.after, change.delta, change.k) == (D(1500), D(1480), -20, 40)
    assert (change.expected, change.result, change.outcome) == (D("0.5"), 0, "L")


def test_the_task_run_twice_changes_nothing_the_second_time() -> None:
    game = finished_game(players(4), winner=None)
    assert rate_game.apply(args=[game.pk]).get() == 1
    first = snapshot()
    assert rate_game.apply(args=[game.pk]).get() == 0
    assert snapshot() == first
    assert RatingChange.objects.count() == 4 and PairRatingChange.objects.count() == 2


def test_unrated_and_unfinished_games_are_not_rated() -> None:
    four = players(4)
    unrated = finished_game(four, winner=0, rated=False)
    active = finished_game(four, winner=None, status=GameStatus.ACTIVE)
    assert ladder_rate_game(game_id=unrated.pk) == 0
    assert ladder_rate_game(game_id=active.pk) == 0
    assert ladder_rate_game(game_id=999_999) == 0
    assert not PlayerRating.objects.exists() and not RatedGame.objects.exists()


def test_an_earlier_waiting_game_is_rated_first() -> None:
    a, b, c, d = players(4)
    first = finished_game([a, b, c, d], winner=0, minute=1)
    second = finished_game([a, b, c, d], winner=1, minute=2)
    assert ladder_rate_game(game_id=second.pk) == 2
    order = list(RatedGame.objects.order_by("seq").values_list("game_id", flat=True))
    assert order == [first.pk, second.pk]
    assert ladder_rate_game(game_id=first.pk) == 0


def test_games_finished_at_the_same_instant_go_by_id() -> None:
    a, b, c, d = players(4)
    low = finished_game([a, b, c, d], winner=0, minute=5)
    high = finished_game([a, b, c, d], winner=1, minute=5)
    ladder_rate_game(game_id=high.pk)
    assert list(RatedGame.objects.order_by("seq").values_list("game_id", flat=True)) == [
        low.pk,
        high.pk,
    ]


def test_a_late_commit_is_slotted_into_finishing_order() -> None:
    # The later game was rated before the earlier one reached the ladder: the later one is
    # unwound and rated again, so the ladder equals a recompute in finishing order.
    four = players(6)
    later = finished_game(four[:4], winner=0, minute=10)
    other = finished_game(four[2:], winner=1, minute=11)
    ladder_rate_game(game_id=later.pk)
    ladder_rate_game(game_id=other.pk)
    earlier = finished_game([four[0], four[4], four[1], four[5]], winner=None, minute=5)
    assert ladder_rate_game(game_id=earlier.pk) == 3
    incremental = snapshot()
    assert [m[0] for m in incremental["markers"]] == [earlier.pk, later.pk, other.pk]
    ladder_recompute()
    assert snapshot() == incremental


def test_unwinding_drops_a_player_whose_only_game_moved() -> None:
    a, b, c, d, e = players(5)
    later = finished_game([a, b, c, e], winner=0, minute=10)
    ladder_rate_game(game_id=later.pk)
    earlier = finished_game([a, b, c, d], winner=1, minute=1)
    ladder_rate_game(game_id=earlier.pk)
    incremental = snapshot()
    ladder_recompute()
    assert snapshot() == incremental


def test_an_abandoned_seat_is_rated_as_a_loss_the_others_on_the_real_result() -> None:
    a, b, c, d = players(4)
    game = finished_game([a, b, c, d], winner=1)
    Seat.objects.filter(game=game, position=3).update(abandoned_at=game.finished_at)
    ladder_rate_game(game_id=game.pk)
    ratings = dict(PlayerRating.objects.values_list("player_id", "rating"))
    assert ratings == {a.pk: D(1480), b.pk: D(1520), c.pk: D(1480), d.pk: D(1480)}
    left = PlayerRating.objects.get(pk=d.pk)
    assert (left.wins, left.losses) == (0, 1)
    assert RatingChange.objects.get(game=game, player=d).outcome == "L"
    # The leaver's partnership is rated as a loss too; the opponents on the real result.
    assert [c.result for c in PairRatingChange.objects.order_by("side")] == [0, 0]


def random_games(seed: int, n_players: int, n_games: int) -> list:
    rng = random.Random(seed)
    pool = players(n_players, bots=2)
    games = []
    for _ in range(n_games):
        seated = rng.sample(pool, 4)
        winner = rng.choice([0, 1, 0, 1, None])
        # Some games share a finishing minute, and they are created out of order.
        game = finished_game(seated, winner, minute=rng.randrange(n_games // 2))
        if rng.random() < 0.1:  # now and then a player abandons
            Seat.objects.filter(game=game, position=rng.randrange(4)).update(
                abandoned_at=game.finished_at
            )
        games.append(game)
    return games


def test_recompute_equals_incremental_to_the_last_digit() -> None:
    games = random_games(seed=7, n_players=9, n_games=80)
    assert Seat.objects.filter(abandoned_at__isnull=False).exists()
    rng = random.Random(1)
    rng.shuffle(games)  # the tasks arrive in any order
    for game in games:
        ladder_rate_game(game_id=game.pk)
    incremental = snapshot()
    assert len(incremental["markers"]) == 80
    assert any(p[2] >= 20 for p in incremental["players"])  # some left provisional K
    assert LadderState.objects.get().last_seq == 80
    ladder_recompute()
    assert snapshot() == incremental
    ladder_recompute()
    assert snapshot() == incremental
