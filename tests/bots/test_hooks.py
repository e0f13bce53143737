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
    assert hooks.schedule_bot_turn in game_hooks._registry["move_committed"]
    assert hooks.schedule_bot_turn in game_hooks._registry["game_started"]


def test_a_started_game_and_each_commit_enqueue_the_bot_to_act(enqueued) -> None:  # type: ignore[no-untyped-def]
    from django.conf import settings

    people = [PlayerFactory(), PlayerFactory()]
    bots = [hosted_bot("Hooked-1"), hosted_bot("Hooked-2")]
    game = game_with([people[0], bots[0].player, people[1], bots[1].player])
    game.refresh_from_db()
    expected = []
    if game.to_act in (1, 3):
        expected.append(((), {"args": (game.pk, 0), "queue": "bots"}))
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
            assert enqueued == [((), {"args": (game.pk, game.move_count), "queue": "bots"})]
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
    game_with(api_bots)
    assert enqueued == []


def test_the_sweep_re_enqueues_only_stalled_bot_turns(enqueued) -> None:  # type: ignore[no-untyped-def]
    from datetime import timedelta

    from django.conf import settings
    from django.utils import timezone

    from bots.tasks import sweep_stalled_bot_turns
    from games.models import Game

    bot_game = game_with([hosted_bot(f"Stall-{i}").player for i in range(4)])
    people_game = game_with([PlayerFactory() for _ in range(4)])
    enqueued.clear()
    assert sweep_stalled_bot_turns() == 0  # just started: not stalled yet
    long_ago = timezone.now() - timedelta(minutes=5)
    Game.objects.filter(pk__in=[bot_game.pk, people_game.pk]).update(started_at=long_ago)
    assert sweep_stalled_bot_turns() == 1
    assert enqueued == [((), {"args": (bot_game.pk, 0), "queue": "bots"})]
    schedule = settings.CELERY_BEAT_SCHEDULE["bots-sweep-stalled-turns"]
    assert schedule["task"] == sweep_stalled_bot_turns.name
