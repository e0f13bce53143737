"""Helpers for the daylong tests: entrants, and a board played to its end."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from itertools import count
from typing import Any

from django.utils import timezone

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


@contextmanager
def eagerly() -> Iterator[None]:
    """Tasks enqueued on commit (the bots' turns, the scoring) run in the committing thread."""
    from backalley_site.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = before


def pages_world(me: Player, others: list[Player]) -> dict[str, Event]:
    """Daylongs for the pages' tests: today's (on the home page), an open one where ``me``
    has finished stage 1 and is playing stage 2 among ``others`` who finished stage 1,
    and a closed one with a finished table and one called off (its tables page)."""
    with eagerly():
        daily = services.daily_event_ensure(day=timezone.now().date())
        live = event(title="Short stages for everyone", pool_size=1)
        for p in [me, *others]:
            services.entry_create(event_id=live.pk, player=p)
            play_board(live, p)
        services.board_play_next(event_id=live.pk, player=me)
        closed = event(title="Yesterday's short stages", pool_size=1)
        for p in (me, others[0]):
            services.entry_create(event_id=closed.pk, player=p)
        play_board(closed, me)
        services.board_play_next(event_id=closed.pk, player=others[0])
        Event.objects.filter(pk=closed.pk).update(
            starts_at=timezone.now() - timedelta(days=1, minutes=1),
            ends_at=timezone.now() - timedelta(minutes=1),
        )
        services.event_close(event_id=closed.pk)
    return {"daily": daily, "live": live, "closed": closed}
