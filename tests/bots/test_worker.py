"""A real Celery worker process plays bot seats: whole games, people and bots, and a worker
killed with SIGKILL in the middle of a bot move."""

from __future__ import annotations

import json
import random
import threading
import time

import pytest

from backalley_engine.actions import action_str
from bots.models import Bot
from games import statecache
from games.models import Game, Move
from games.services import move_submit
from tests.bots.helpers import game_with, hosted_bot, webhook_bot
from tests.bots.worker import wait_for
from tests.factories import PlayerFactory

MIXED_GAME_MOVES = 150

pytestmark = [
    pytest.mark.worker,
    pytest.mark.django_db(transaction=True),
]


def _assert_log_has_no_gap(game: Game) -> None:
    seqs = list(Move.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))


def test_a_worker_plays_a_whole_game_of_four_hosted_bots(worker_factory) -> None:  # type: ignore[no-untyped-def]
    worker = worker_factory().start()
    bots = [hosted_bot(f"Auto-{i}", strategy="random") for i in range(4)]
    game = game_with([b.player for b in bots])
    try:
        wait_for(
            lambda: Game.objects.get(pk=game.pk).status == "finished",
            240,
            "the game to finish",
            0.2,
        )
    except AssertionError:
        raise AssertionError(
            f"game stuck at {Game.objects.get(pk=game.pk).move_count}\n{worker.log()}"
        ) from None
    game.refresh_from_db()
    _assert_log_has_no_gap(game)
    moves = Move.objects.filter(game=game)
    assert moves.count() == game.move_count > 100
    assert set(moves.values_list("submitted_by", flat=True)) == {"bot"}
    assert game.winner in (0, 1, None) and game.totals is not None


def test_a_worker_plays_the_bots_of_a_game_with_people(worker_factory) -> None:  # type: ignore[no-untyped-def]
    worker_factory().start()
    people = [PlayerFactory(), PlayerFactory()]
    bots = [hosted_bot("Mixed-1"), hosted_bot("Mixed-2")]
    game = game_with([people[0], bots[0].player, people[1], bots[1].player])
    rng = random.Random(7)
    people_moves = 0
    game_pk = game.pk

    def person_to_act_or_end() -> Game | None:
        g = Game.objects.get(pk=game_pk)
        return g if g.status == "finished" or g.to_act in (0, 2) else None

    # A few deals are enough to show the worker and the people taking turns in any order.
    while game.move_count < MIXED_GAME_MOVES:
        game = wait_for(person_to_act_or_end, 60, "a person's turn or the end", 0.01)
        if game.status == "finished":
            break
        state = statecache.state_for(game)
        move_submit(
            game_id=game.pk,
            seats=[game.to_act],
            action=rng.choice(state.legal_actions()),
            expected_seq=game.move_count,
            actor=people[game.to_act // 2],
        )
        people_moves += 1
    _assert_log_has_no_gap(game)
    by = {
        s: set(Move.objects.filter(game=game, seat=s).values_list("submitted_by", flat=True))
        for s in range(4)
    }
    assert by == {0: {"player"}, 1: {"bot"}, 2: {"player"}, 3: {"bot"}}
    assert people_moves == Move.objects.filter(game=game, seat__in=[0, 2]).count() > 40
    assert Move.objects.filter(game=game, seat__in=[1, 3]).count() > 40


class HangOnce:
    """Webhook behaviour: the first turn request hangs until released; later ones answer."""

    def __init__(self) -> None:
        self.arrived = threading.Event()
        self.release = threading.Event()
        self.calls = 0

    def __call__(self, payload):  # type: ignore[no-untyped-def]
        self.calls += 1
        if self.calls == 1:
            self.arrived.set()
            self.release.wait(60)
        return 200, json.dumps({"action": payload["legal_actions"][0]}).encode(), 0.0


def _webhook_table(hook_server):  # type: ignore[no-untyped-def]
    bot, secret = webhook_bot("Hook-K", hook_server.url)
    hook_server.secret = secret
    others = [hosted_bot(f"Kill-{i}").player for i in range(3)]
    return game_with([bot.player, *others]), bot


def _check_the_turn_landed_once(game: Game, bot: Bot, hang: HangOnce, hook_server) -> None:  # type: ignore[no-untyped-def]
    turn_seq = hook_server.turns[0]["seq"]
    wait_for(
        lambda: Game.objects.get(pk=game.pk).move_count > turn_seq + 4, 60, "the game to go on", 0.1
    )
    move = Move.objects.get(game=game, seq=turn_seq + 1)
    # The redelivered task asked the bot again and played its answer: once, by the bot.
    assert move.seat == 0 and move.submitted_by == "bot"
    assert action_str(move.action_code) == hook_server.turns[1]["legal_actions"][0]
    assert [t["seq"] for t in hook_server.turns[:2]] == [turn_seq, turn_seq]
    _assert_log_has_no_gap(game)
    assert not bot.faults.exists()


def test_a_pool_process_killed_mid_move_is_replaced_and_the_move_lands_once(
    worker_factory, hook_server
) -> None:  # type: ignore[no-untyped-def]
    import os
    import signal

    hang = HangOnce()
    hook_server.behaviour = hang
    worker = worker_factory(BOTS_WEBHOOK_TIMEOUT_S="20").start()
    game, bot = _webhook_table(hook_server)
    assert hang.arrived.wait(60), worker.log()
    (child,) = worker.pool_children()
    os.kill(child, signal.SIGKILL)  # the process running the task dies mid-call
    hang.release.set()
    _check_the_turn_landed_once(game, bot, hang, hook_server)


def test_a_whole_worker_killed_mid_move_and_restarted_lands_the_move_once(
    worker_factory, hook_server
) -> None:  # type: ignore[no-untyped-def]
    hang = HangOnce()
    hook_server.behaviour = hang
    # A short visibility timeout: the unacknowledged task returns to the queue quickly.
    worker = worker_factory(BOTS_WEBHOOK_TIMEOUT_S="20", CELERY_VISIBILITY_TIMEOUT="3").start()
    game, bot = _webhook_table(hook_server)
    assert hang.arrived.wait(60), worker.log()
    worker.kill()  # SIGKILL to the main process and its pool: nothing is acknowledged
    hang.release.set()
    seq = hook_server.turns[0]["seq"]
    assert Game.objects.get(pk=game.pk).move_count == seq  # nothing landed meanwhile
    # The broker hands the task out again once it is older than the visibility timeout; a
    # new worker looks for such tasks when it starts (and then only every ~100 s).
    time.sleep(4)
    worker.start()
    _check_the_turn_landed_once(game, bot, hang, hook_server)


@pytest.mark.autoplay
def test_a_worker_game_with_forced_and_settled_moves_plays_each_move_once(worker_factory) -> None:  # type: ignore[no-untyped-def]
    """With the service playing forced actions and settled deals (several moves in one
    commit), the worker is asked only for the seat finally to act: no move twice, no gap, and
    no bot turn for a seat with a single legal action."""
    from backalley_engine.state import GameState

    worker = worker_factory().start()
    bots = [hosted_bot(f"Chain-{i}", strategy="random") for i in range(4)]
    game = game_with([b.player for b in bots])
    try:
        wait_for(
            lambda: Game.objects.get(pk=game.pk).status == "finished",
            240,
            "the game to finish",
            0.2,
        )
    except AssertionError:
        raise AssertionError(
            f"game stuck at {Game.objects.get(pk=game.pk).move_count}\n{worker.log()}"
        ) from None
    game.refresh_from_db()
    _assert_log_has_no_gap(game)
    replay = GameState.new(game.seed)
    kinds = set()
    for move in Move.objects.filter(game=game).order_by("seq"):
        kinds.add(move.submitted_by)
        if move.submitted_by == "bot" and replay.phase == "playing":
            assert len(replay.legal_actions()) > 1, move.seq
        replay.apply(move.action_code)
    assert {"bot", "auto"} <= kinds
    assert replay.record("all") == statecache.replay(game).record("all")
