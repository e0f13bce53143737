"""After a move commits (or a game starts), a bot seat to act gets a task on the "bots" queue."""

from __future__ import annotations

import pytest

from bots import hooks
from bots.tasks import play_bot_turn
from games import hooks as game_hooks
from games.services import move_submit
from tests.bots.helpers import game_with, hosted_bot
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def enqueued(monkeypatch):  # type: ignore[no-untyped-def]
    calls: list[tuple[tuple, dict]] = []
    monkeypatch.setattr(play_bot_turn, "apply_async", lambda *a, **kw: calls.append((a, kw)))
    return calls


def test_the_bots_hook_is_registered_with_the_games_app() -> None:
    assert game_hooks.registered(hooks.schedule_bot_turn, "move_committed")
    assert game_hooks.registered(hooks.schedule_bot_turn, "game_started")


def test_a_started_game_and_each_commit_enqueue_the_bot_to_act(enqueued) -> None:  # type: ignore[no-untyped-def]
    from django.conf import settings

    people = [PlayerFactory(), PlayerFactory()]
    bots = [hosted_bot("Hooked-1"), hosted_bot("Hooked-2")]
    game = game_with([people[0], bots[0].player, people[1], bots[1].player])
    game.refresh_from_db()
    expected = []
    if game.to_act in (1, 3):
        expected.append(((), {"args": (game.pk, 0), "task_id": f"bot-turn:{game.pk}:0"}))
    assert enqueued == expected
    # Play people's turns (and, by hand, the bots') and watch what gets enqueued.
    from bots import turns

    for _ in range(12):
        game.refresh_from_db()
        enqueued.clear()
        if game.to_act in (0, 2):
            from games import statecache

            state = statecache.state_for(game)
            move_submit(
                game_id=game.pk,
                seats=[game.to_act],
                action=state.legal_actions()[0],
                expected_seq=game.move_count,
            )
        else:
            assert turns.play_turn(game_id=game.pk, expected_seq=game.move_count) == "played"
        game.refresh_from_db()
        if game.to_act in (1, 3):
            seq = game.move_count
            assert enqueued == [
                ((), {"args": (game.pk, seq), "task_id": f"bot-turn:{game.pk}:{seq}"})
            ]
        else:
            assert enqueued == []
    assert settings.CELERY_TASK_ROUTES["bots.tasks.*"]["queue"] == "bots"


def test_api_bots_are_not_enqueued(enqueued) -> None:  # type: ignore[no-untyped-def]
    from accounts.models import Player
    from bots.models import Bot

    owner = PlayerFactory().user
    api_bots = []
    for i in range(4):
        p = Player.objects.create(name=f"ApiOnly-{i}", is_bot=True, owner=owner)
        Bot.objects.create(player=p, kind="api")
        api_bots.append(p)
    game_with(api_bots, rated=False)  # one owner's four bots: an unrated table
    assert enqueued == []
