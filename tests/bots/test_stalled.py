"""The backstop for lost bot turns (bots/stalled.py): a bot's turn that has waited too long
is asked for again, once per beat, and played once however often it is asked."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from bots import stalled, tasks
from games.models import Game, Move
from tests.bots.helpers import game_with, hosted_bot
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def _wait(game: Game, seconds: float) -> None:
    """As if the game's last move (or its start) was ``seconds`` ago."""
    then = timezone.now() - timedelta(seconds=seconds)
    Game.objects.filter(pk=game.pk).update(last_move_at=then, started_at=then)


@pytest.fixture
def bot_game(monkeypatch: pytest.MonkeyPatch) -> Game:
    # The turn the start would enqueue is "lost": no task runs.
    monkeypatch.setattr(tasks.play_bot_turn, "apply_async", lambda *a, **kw: None)
    bots = [hosted_bot(f"Stall-{i}") for i in range(4)]
    game = game_with([b.player for b in bots])
    monkeypatch.undo()
    return Game.objects.get(pk=game.pk)


def test_a_bot_turn_left_waiting_is_asked_again_and_played_once(
    bot_game: Game, settings: Any
) -> None:
    settings.BOTS_STALLED_AFTER_S = 60
    settings.BOTS_RUN_SLICE_S = 0  # one turn a task: the test counts the turns
    assert stalled.stalled_turns() == []  # just started: not yet stalled
    _wait(bot_game, 61)
    assert stalled.stalled_turns() == [(bot_game.pk, 0)]
    asked: list[tuple[Any, ...]] = []
    from unittest import mock

    with mock.patch.object(
        tasks.play_bot_turn, "apply_async", side_effect=lambda *a, **kw: asked.append(kw["args"])
    ):
        assert tasks.resume_stalled_turns() == 1
    assert asked == [(bot_game.pk, 0)]
    # The turn asked twice (the lost task after all, and the backstop): played once.
    outcomes = [tasks.play_bot_turn.run(bot_game.pk, 0) for _ in range(2)]
    assert outcomes[1] == "already_played"
    assert Move.objects.filter(game=bot_game, seq=1).count() == 1


def test_a_persons_turn_and_a_recent_move_are_left_alone(settings: Any) -> None:
    settings.BOTS_STALLED_AFTER_S = 60
    people = [PlayerFactory() for _ in range(4)]
    game = game_with(people)
    _wait(game, 3600)
    assert stalled.stalled_turns() == []  # nobody's bot is to act
