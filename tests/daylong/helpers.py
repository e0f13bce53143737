"""Helpers for the daylong tests: entrants, and a board played to its end."""

from __future__ import annotations

from itertools import count
from typing import Any

from accounts.models import Player
from bots.models import Bot, BotKind
from daylong import services
from daylong.models import Event, Table
from games import statecache
from games.models import Game, GameStatus
from games.services import move_submit
from tests.factories import BotPlayerFactory, PlayerFactory
from tests.games.helpers import choose_code

# Short boards so that a test plays many: one 1-card deal, then the 2-1-2 cards run.
BOARDS = ((13, 13), (12, 14))


def event(**fields: Any) -> Event:
    fields.setdefault("title", "Test daylong")
    fields.setdefault("boards", BOARDS)
    fields.setdefault("pool_size", 2)
    fields.setdefault("opponent_strength", "easy")
    fields.setdefault("partner_strength", "easy")
    return services.event_create(**fields)


def hosted_bot(owner: Any = None) -> Player:
    player = BotPlayerFactory(**({"owner": owner} if owner else {}))
    Bot.objects.create(player=player, kind=BotKind.HOSTED, strategy="random", params={})
    return player


def people(n: int) -> list[Player]:
    return [PlayerFactory() for _ in range(n)]


def round_robin() -> Any:
    """A chooser of instances that deals them in turn (1, 2, 1, 2, ...)."""
    turn = count()

    def choose(instances: Any) -> Any:
        ordered = sorted(instances, key=lambda i: i.number)
        return ordered[next(turn) % len(ordered)]

    return choose


def play_out(game: Game, *, seat: int = 0, limit: int = 500) -> Game:
    """Play ``seat`` until the game is over; the bots (run eagerly) play the other seats."""
    for _ in range(limit):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            return game
        if game.to_act != seat:
            raise AssertionError(f"seat {game.to_act} to act and nobody played it")
        state = statecache.state_for(game)
        move_submit(
            game_id=game.pk,
            seats=[seat],
            action=choose_code(state.legal_actions()),
            expected_seq=game.move_count,
        )
    raise AssertionError("the game did not end")


def play_moves(game: Game, moves: int, *, seat: int = 0) -> Game:
    for _ in range(moves):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE or game.to_act != seat:
            break
        state = statecache.state_for(game)
        move_submit(
            game_id=game.pk,
            seats=[seat],
            action=choose_code(state.legal_actions()),
            expected_seq=game.move_count,
        )
    game.refresh_from_db()
    return game


def play_board(event: Event, player: Player) -> Table:
    """The entrant's next board, played to its end (a hosted bot plays itself)."""
    table = services.board_play_next(event_id=event.pk, player=player)
    if not player.is_bot:
        play_out(table.game)
    table.refresh_from_db()
    return table
