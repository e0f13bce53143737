"""Short games: a game that plays a run of the schedule's deals (an event's board), created
with the ``schedule`` option, played through the move service to its end, replayed and
verified like any game; never rated."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from backalley_engine import validate_record
from games import selectors, services, statecache
from games.errors import BadGameSetup
from games.models import GameStatus, SeededDeal
from tests.factories import PlayerFactory
from tests.games.helpers import play

pytestmark = pytest.mark.django_db


def _short(first: int, last: int):  # type: ignore[no-untyped-def]
    players = [PlayerFactory() for _ in range(4)]
    return services.game_create(
        creator=players[0],
        seats=players,
        options={"rated": False, "schedule": {"first": first, "last": last}},
    )


def test_a_short_game_plays_its_run_and_finishes_after_it() -> None:
    game = _short(12, 14)
    assert game.deal_number == 12
    game = play(game, 400)
    assert game.status == GameStatus.FINISHED
    numbers = set(SeededDeal.objects.filter(game=game).values_list("number", flat=True))
    assert numbers == {12, 13, 14}
    state = statecache.replay(game)
    assert state.is_terminal() and (game.total_0, game.total_1) == state.outcome.totals
    record = selectors.game_record(game=game, seats=list(game.seats.all()), seat=None)
    assert record["schedule"] == {"first": 12, "last": 14}
    assert validate_record(record) == []
    out = StringIO()
    call_command("verify_games", stdout=out)
    assert "0 with problems" in out.getvalue()


def test_a_short_game_cannot_be_rated_and_a_bad_run_is_refused() -> None:
    players = [PlayerFactory() for _ in range(4)]
    with pytest.raises(BadGameSetup, match="never rated"):
        services.game_create(
            creator=players[0], seats=players, options={"schedule": {"first": 1, "last": 5}}
        )
    with pytest.raises(BadGameSetup):
        services.game_create(
            creator=players[0],
            seats=players,
            options={"rated": False, "schedule": {"first": 5, "last": 1}},
        )


def test_a_whole_game_keeps_its_options_as_they_were() -> None:
    players = [PlayerFactory() for _ in range(4)]
    game = services.game_create(
        creator=players[0],
        seats=players,
        options={"rated": False, "schedule": {"first": 1, "last": 25}},
    )
    assert "schedule" not in game.options
