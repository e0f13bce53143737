"""A seat abandoned after three timeouts: the house bot plays it to the end, the other three
are rated on the real result and the leaver as a loss (docs/ratings.md)."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
import time_machine

from clock.selectors import abandoned_players
from clock.sweeper import sweep
from games.models import Game, GameStatus, Move, Seat, SubmittedBy
from ladder.models import RatingChange
from ladder.services import ladder_rate_game
from tests.clock.helpers import DAY, T0, play, timed_game

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_an_abandoned_seat_is_played_to_the_end_and_the_leaver_rated_as_a_loss() -> None:
    with time_machine.travel(T0, tick=False) as traveller:
        game = timed_game(days=1, rated=True)
        leaver = game.to_act
        assert leaver is not None
        for _ in range(3):  # three timeouts in a row; the others answer in time
            while Game.objects.get(pk=game.pk).to_act != leaver:
                play(game.pk)
            traveller.shift(DAY + timedelta(minutes=1))
            sweep()
        assert Seat.objects.get(game=game, position=leaver).abandoned_at is not None
        # The three people play on through the services; the house bot answers for the
        # abandoned seat as soon as its turn comes.
        for _ in range(2000):
            game.refresh_from_db()
            if game.status != GameStatus.ACTIVE:
                break
            assert game.to_act != leaver, "an abandoned seat's turn was left waiting"
            play(game.pk)
            traveller.shift(timedelta(minutes=1))
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    leaver_player = Seat.objects.get(game=game, position=leaver).player
    assert abandoned_players(game) == [leaver_player.pk]
    by_leaver = Move.objects.filter(game=game, seat=leaver)
    assert by_leaver.count() > 100
    assert set(by_leaver.values_list("submitted_by", flat=True)) == {SubmittedBy.SYSTEM}
    others = Move.objects.filter(game=game).exclude(seat=leaver)
    assert set(others.values_list("submitted_by", flat=True)) == {SubmittedBy.PLAYER}

    ladder_rate_game(game_id=game.pk)  # a no-op if the ladder's own hook already rated it
    changes = {c.seat: c for c in RatingChange.objects.filter(game=game)}
    assert sorted(changes) == [0, 1, 2, 3]
    # Four newcomers (1500, K = 40, E = ½): the leaver loses 20 whatever happened; the other
    # three move on the real result.
    real = {None: Decimal(0), 0: Decimal(20), 1: Decimal(-20)}
    for seat, change in changes.items():
        if seat == leaver:
            assert change.delta == Decimal(-20) and change.result == 0
            continue
        team = seat % 2
        expected = real[game.winner] if team == 0 else -real[game.winner]
        assert change.delta == expected, (seat, game.winner, change.delta)
