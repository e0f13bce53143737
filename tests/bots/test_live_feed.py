"""A bot's move made by a real Celery worker reaches a seat waiting on a real ASGI server:
pushed through Redis from the worker's commit, not found by a periodic check."""

from __future__ import annotations

import pytest

from games import statecache
from games.models import Game, Move
from games.services import move_submit
from tests.bots.helpers import game_with, hosted_bot
from tests.bots.worker import wait_for
from tests.factories import PlayerFactory
from tests.games.live_clients import StreamReader, token_for

pytestmark = [pytest.mark.worker, pytest.mark.server, pytest.mark.django_db(transaction=True)]


def test_a_bots_move_in_the_worker_reaches_a_waiting_seat_at_once(
    worker_factory, asgi_server_factory
) -> None:  # type: ignore[no-untyped-def]
    server = asgi_server_factory({"LIVE_CHECK_INTERVAL": "300"}).start()
    people = [PlayerFactory() for _ in range(3)]
    bot = hosted_bot("Pushy", strategy="random")
    game = game_with([*people, bot.player])  # the bot sits at seat 3
    url = f"{server.url}/api/v1/games/{game.public_id}/events/stream/?since=0&timeout=600"
    watcher = StreamReader(url, token_for(people[0].user)).start()
    assert watcher.opened.wait(20) and watcher.status == 200
    worker_factory().start()

    def bot_moved() -> Move | None:
        return Move.objects.filter(game=game, seat=3).order_by("seq").first()

    for _ in range(8):  # the people play until the bot's turn comes and it answers
        found = bot_moved()
        if found is not None:
            break
        current = Game.objects.get(pk=game.pk)
        if current.to_act != 3:
            state = statecache.state_for(current)
            move_submit(
                game_id=current.pk,
                seats=[current.to_act],
                action=state.legal_actions()[0],
                expected_seq=current.move_count,
            )
        else:
            wait_for(bot_moved, 60, "the worker's bot move", 0.02)
    move = wait_for(bot_moved, 60, "the worker's bot move", 0.02)
    assert move.submitted_by == "bot"
    assert watcher.wait_for_seq(move.seq, 10), watcher.events
    got = [e for e in watcher.events if e["seq"] == move.seq and e.get("seat") == 3]
    assert got and got[0]["type"] in ("bid", "play")
