"""Timed games built through the games services, and moves played through them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from accounts.models import Player
from backalley_engine.actions import PASS, bid_action
from games import statecache
from games.models import Game, Move
from games.services import game_create, move_submit
from tests.factories import PlayerFactory

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # a Monday morning
DAY = timedelta(days=1)


def timed_game(
    days: int = 2, reserve: int = 0, *, rated: bool = True, players: list[Player] | None = None
) -> Game:
    """A started game of four people with ``days`` per move and ``reserve`` days of bank."""
    seated = players or [PlayerFactory() for _ in range(4)]
    game = game_create(
        creator=seated[0],
        seats=seated,
        options={"rated": rated, "time_control": {"days_per_move": days, "reserve_days": reserve}},
    )
    return Game.objects.get(pk=game.pk)


def choose(legal: list[int]) -> int:
    """Bid 1 when it may (so deals get played), else the first legal action."""
    if legal and legal[0] == PASS and bid_action(1) in legal:
        return bid_action(1)
    return legal[0]


def play(game_id: int, seat: int | None = None, **kwargs: Any) -> Move:
    """The seat to act (or ``seat``) makes a move through ``move_submit``."""
    game = Game.objects.get(pk=game_id)
    state = statecache.state_for(game)
    to_act = state.seat_to_act if seat is None else seat
    assert to_act is not None
    result = move_submit(
        game_id=game_id,
        seats=[to_act],
        action=choose(state.legal_actions()),
        expected_seq=game.move_count,
        **kwargs,
    )
    return result.move


def to_act_player(game_id: int) -> Player:
    game = Game.objects.get(pk=game_id)
    return game.seats.get(position=game.to_act).player
