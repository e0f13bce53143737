"""Webhook bots served on loopback: answers in time are played; every kind of bad answer is
recorded as a fault, the house strategy plays that move, and repeated faults suspend the bot."""

from __future__ import annotations

import json
from typing import Any

import pytest

from backalley_engine.state import GameState
from bots import turns
from bots.models import Bot, BotFault, BotStatus
from bots.tasks import play_bot_turn
from games.models import Game, Move
from tests.bots.helpers import game_with, hosted_bot, webhook_bot

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(hook_server, allow_loopback):  # type: ignore[no-untyped-def]
    """A started game: a webhook bot (served by ``hook_server``) and three hosted bots."""
    bot, secret = webhook_bot("Hook-A", hook_server.url)
    hook_server.secret = secret
    others = [hosted_bot(f"House-{i}").player for i in range(3)]
    game = game_with([bot.player, *others])
    return game, bot


def drive(game: Game, bot: Bot, server, webhook_turns: int) -> None:  # type: ignore[no-untyped-def]
    """Play bot turns until the webhook bot's seat has come up ``webhook_turns`` times."""
    seen = 0
    for _ in range(500):
        game.refresh_from_db()
        if game.to_act is None:
            return
        mine = game.seats.get(position=game.to_act).player_id == bot.player_id
        result = turns.play_turn(game_id=game.pk, expected_seq=game.move_count)
        assert result in {"played", "substituted"}, result
        if mine:
            seen += 1
            if seen == webhook_turns:
                return
    raise AssertionError("the webhook seat did not come up")


def _moves_of(bot: Bot) -> list[Move]:
    return list(Move.objects.filter(seat=0).order_by("seq"))


def test_answers_in_time_are_played_and_see_only_their_seat(table, hook_server) -> None:  # type: ignore[no-untyped-def]
    game, bot = table
    drive(game, bot, hook_server, 6)
    assert hook_server.bad_signatures == 0
    assert len(hook_server.turns) == 6
    moves = _moves_of(bot)
    assert [m.submitted_by for m in moves] == ["bot"] * 6
    assert all(m.actor_id == bot.player_id for m in moves)
    history = list(
        Move.objects.filter(game=game).order_by("seq").values_list("action_code", flat=True)
    )
    for payload in hook_server.turns:
        # The payload's view is exactly the engine's view for that seat at that move.
        state = GameState.replay(game.seed, history[: payload["seq"]])
        assert payload["view"] == json.loads(json.dumps(state.view(0)))
        assert payload["view"]["seed"] is None
        assert payload["seat"] == 0 and payload["game"] == game.public_id
        assert sorted(payload["legal_actions"]) == sorted(
            __import__("backalley_engine.actions", fromlist=["action_str"]).action_str(a)
            for a in state.legal_actions()
        )
        assert payload["deadline_ms"] == 1500
    assert BotFault.objects.count() == 0


def _behave(server, fn) -> None:  # type: ignore[no-untyped-def]
    server.behaviour = fn


def _illegal(payload: dict[str, Any]) -> tuple[int, bytes, float]:
    legal = set(payload["legal_actions"])
    candidates = ["pass", "board", "1", "2", "AS", "2C", "KH", "BB", "LB", "3D"]
    wrong = next(a for a in candidates if a not in legal)
    return 200, json.dumps({"action": wrong}).encode(), 0.0


BAD_ANSWERS = {
    "timeout": lambda p: (200, json.dumps({"action": p["legal_actions"][0]}).encode(), 3.0),
    "http_status": lambda p: (500, b'{"error": "boom"}', 0.0),
    "malformed": lambda p: (200, b"<html>garbage</html>", 0.0),
    "illegal": _illegal,
}


@pytest.mark.parametrize("kind", sorted(BAD_ANSWERS))
def test_a_bad_answer_is_a_fault_and_the_house_plays_instead(table, hook_server, kind) -> None:  # type: ignore[no-untyped-def]
    game, bot = table
    _behave(hook_server, BAD_ANSWERS[kind])
    drive(game, bot, hook_server, 1)
    (move,) = _moves_of(bot)
    assert move.submitted_by == "system" and move.actor_id is None
    (fault,) = BotFault.objects.filter(bot=bot)
    assert fault.kind == kind and fault.game_id == game.pk and fault.seq == move.seq - 1
    assert fault.detail
    game.refresh_from_db()
    assert game.move_count == move.seq and game.status == "active"  # the game goes on
    bot.refresh_from_db()
    assert bot.consecutive_faults == 1 and bot.status == BotStatus.ACTIVE


def test_a_missing_action_and_a_non_object_answer_are_malformed(table, hook_server) -> None:  # type: ignore[no-untyped-def]
    game, bot = table
    answers = iter([b'{"move": "AS"}', b"[1, 2]"])
    _behave(hook_server, lambda p: (200, next(answers), 0.0))
    drive(game, bot, hook_server, 2)
    assert [f.kind for f in BotFault.objects.filter(bot=bot)] == ["malformed", "malformed"]


def test_repeated_faults_suspend_the_bot_and_the_house_keeps_playing(
    table, hook_server, settings
) -> None:  # type: ignore[no-untyped-def]
    settings.BOTS_MAX_CONSECUTIVE_FAULTS = 3
    game, bot = table
    _behave(hook_server, BAD_ANSWERS["http_status"])
    drive(game, bot, hook_server, 5)
    bot.refresh_from_db()
    assert bot.status == BotStatus.SUSPENDED and bot.suspended_at is not None
    assert BotFault.objects.filter(bot=bot).count() == 3
    assert len(hook_server.turns) == 3  # once suspended, the bot is no longer called
    assert [m.submitted_by for m in _moves_of(bot)] == ["system"] * 5


def test_a_good_answer_ends_the_fault_streak(table, hook_server) -> None:  # type: ignore[no-untyped-def]
    game, bot = table
    answers = iter([BAD_ANSWERS["http_status"], BAD_ANSWERS["malformed"]])
    _behave(
        hook_server,
        lambda p: next(
            answers, lambda q: (200, json.dumps({"action": q["legal_actions"][-1]}).encode(), 0.0)
        )(p),
    )
    drive(game, bot, hook_server, 3)
    bot.refresh_from_db()
    assert bot.consecutive_faults == 0
    assert [m.submitted_by for m in _moves_of(bot)] == ["system", "system", "bot"]


def test_a_turn_played_twice_lands_once(table, hook_server) -> None:  # type: ignore[no-untyped-def]
    game, _ = table
    seq = game.move_count
    assert play_bot_turn.apply(args=(game.pk, seq)).get() in {"played", "substituted"}
    played = Move.objects.filter(game=game).count()  # the task's turn and the run after it
    assert play_bot_turn.apply(args=(game.pk, seq)).get() == "already_played"
    assert Move.objects.filter(game=game).count() == played
    assert Move.objects.filter(game=game, seq=seq + 1).count() == 1


def test_a_person_to_act_is_left_alone() -> None:
    from tests.factories import PlayerFactory

    people = [PlayerFactory() for _ in range(4)]
    game = game_with(people)
    assert turns.play_turn(game_id=game.pk, expected_seq=0) == "not_a_bot_turn"
    assert turns.play_turn(game_id=game.pk, expected_seq=5) == "not_a_bot_turn"
    assert turns.play_turn(game_id=10**9, expected_seq=0) == "not_a_bot_turn"
    assert Move.objects.filter(game=game).count() == 0


def test_a_failing_hosted_strategy_does_not_stall_the_game(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from bots import brain

    def broken(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise RuntimeError("strategy bug")

    monkeypatch.setattr(brain, "choose_action", broken)
    game = game_with([hosted_bot(f"Broken-{i}").player for i in range(4)])
    assert turns.play_turn(game_id=game.pk, expected_seq=0) == "substituted"
    (move,) = Move.objects.filter(game=game)
    assert move.submitted_by == "system"


def test_a_secret_rotated_with_a_grace_keeps_the_running_bot_verifying(table, hook_server) -> None:  # type: ignore[no-untyped-def]
    from datetime import timedelta

    from django.utils import timezone

    from bots.services import bot_rotate_secret

    game, bot = table
    old = hook_server.secret
    bot, new = bot_rotate_secret(bot=bot, keep_previous=timedelta(hours=1))
    # The bot still holds the old secret: every turn is signed with both, so it verifies.
    drive(game, bot, hook_server, 2)
    assert hook_server.bad_signatures == 0 and BotFault.objects.count() == 0
    hook_server.secret = new
    drive(game, bot, hook_server, 1)
    assert hook_server.bad_signatures == 0
    # Once the grace is over the old secret signs nothing.
    Bot.objects.filter(pk=bot.pk).update(previous_secret_until=timezone.now())
    hook_server.secret = old
    drive(game, bot, hook_server, 1)
    assert hook_server.bad_signatures == 1
