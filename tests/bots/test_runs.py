"""Bot turns in a run (bots/runs.py): one task plays a game's hosted bots one after another,
each move its own commit, row and event, until a seat it does not play, the end, a change
it did not make, or its time slice."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import Player
from bots import brain, runs, turns
from bots.tasks import play_bot_turn
from games import hooks as game_hooks
from games import statecache
from games.models import Event, Game, Move
from games.services import game_create, move_submit
from tests.bots.helpers import hosted_bot
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)

SEED = "5" * 64


@pytest.fixture
def enqueued(monkeypatch):  # type: ignore[no-untyped-def]
    calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    monkeypatch.setattr(play_bot_turn, "apply_async", lambda *a, **kw: calls.append((a, kw)))
    return calls


@pytest.fixture
def heard():  # type: ignore[no-untyped-def]
    """Every move event as a consumer hears it, in the order it is heard."""
    events: list[game_hooks.GameEvent] = []

    def record(event: game_hooks.GameEvent) -> None:
        events.append(event)

    game_hooks.on_move_committed(record, name="tests.runs.record")
    game_hooks.on_game_finished(record, name="tests.runs.record")
    yield events
    game_hooks.unregister(record)


@pytest.fixture
def long_slice(settings):  # type: ignore[no-untyped-def]
    settings.BOTS_RUN_SLICE_S = 120.0
    return settings


def _game(players: list[Player], seed: str = SEED) -> Game:
    creator = next((p for p in players if not p.is_bot), None) or PlayerFactory()
    return game_create(creator=creator, seats=players, options={"rated": False}, seed=seed)


def _bots(tag: str, n: int = 4, strategy: str = "heuristic") -> list[Player]:
    return [hosted_bot(f"{tag}-{i}", strategy=strategy).player for i in range(n)]


def _assert_log_has_no_gap(game: Game) -> None:
    game.refresh_from_db()
    seqs = list(Move.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, game.move_count + 1))


def _move_events(game: Game) -> list[tuple[Any, ...]]:
    rows = Event.objects.filter(game=game).order_by("pk")
    return list(rows.values_list("kind", "seq", "seat", "to_act", "status", "to_act_abandoned"))


def test_a_run_plays_several_bot_seats_in_one_task(enqueued, long_slice) -> None:  # type: ignore[no-untyped-def]
    game = _game(_bots("Run"))
    enqueued.clear()  # the start's own task (not run here)
    run = runs.bot_run(game_id=game.pk, expected_seq=0)
    game.refresh_from_db()
    assert (run.outcome, run.stopped) == ("played", "finished")
    assert game.status == "finished" and run.moves > 100
    _assert_log_has_no_gap(game)
    assert set(Move.objects.filter(game=game).values_list("seat", flat=True)) == {0, 1, 2, 3}
    assert enqueued == []  # no task per move: the run played every turn itself
    assert not Event.objects.filter(game=game, delivered_at__isnull=True).exists()
    # The task of the turn already played by the run does nothing.
    assert play_bot_turn.apply(args=(game.pk, 0)).get() == "not_a_bot_turn"


def test_a_run_stops_at_a_person_and_the_person_gets_the_turn(enqueued, long_slice) -> None:  # type: ignore[no-untyped-def]
    person = PlayerFactory()
    game = _game([person, *_bots("Stop", 3)])
    for _ in range(40):  # a few rounds of the table: the bots in one run each time
        game.refresh_from_db()
        if game.to_act == 0:
            state = statecache.state_for(game)
            move_submit(
                game_id=game.pk,
                seats=[0],
                action=state.legal_actions()[0],
                expected_seq=game.move_count,
                actor=person,
            )
            continue
        enqueued.clear()
        run = runs.bot_run(game_id=game.pk, expected_seq=game.move_count)
        game.refresh_from_db()
        # Through the person's forced moves too (played for them in the bots' commits).
        assert run.stopped == "seat" and run.moves >= 1
        assert game.to_act == 0
        assert enqueued == []  # a person's seat: no bot task
    _assert_log_has_no_gap(game)
    by_seat = dict(Move.objects.filter(game=game, seat=0).values_list("submitted_by", "seat"))
    assert set(by_seat) <= {"player", "auto"}


def test_a_run_stops_at_its_slice_and_re_enqueues_the_next_turn(enqueued, settings) -> None:  # type: ignore[no-untyped-def]
    settings.BOTS_RUN_SLICE_S = 0.0  # one move, then the rest back to the queue
    game = _game(_bots("Slice"))
    enqueued.clear()
    run = runs.bot_run(game_id=game.pk, expected_seq=0)
    game.refresh_from_db()
    assert (run.moves, run.stopped) == (1, "slice")
    seq = game.move_count
    assert enqueued == [((), {"args": (game.pk, seq), "task_id": f"bot-turn:{game.pk}:{seq}"})]
    assert not Event.objects.filter(game=game, delivered_at__isnull=True).exists()


def test_a_run_stops_when_the_game_changes_under_it_and_hands_the_turn_on(
    enqueued, long_slice, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    """A call-off (or a person's premove) between two of the run's moves: the run writes
    nothing over it and stops; the turn it owed goes to the queue, played by nobody twice."""
    game = _game(_bots("Change"))
    enqueued.clear()
    decide = turns.decide
    calls = 0

    def decide_then_change(*args: Any) -> tuple[int, str]:
        nonlocal calls
        calls += 1
        if calls == 5:  # someone else moves the game on meanwhile
            Game.objects.filter(pk=game.pk).update(premove_seats=1)
        return decide(*args)

    monkeypatch.setattr(runs, "decide", decide_then_change)
    run = runs.bot_run(game_id=game.pk, expected_seq=0)
    game.refresh_from_db()
    assert (run.moves, run.stopped) == (4, "changed")
    assert game.move_count >= 4
    _assert_log_has_no_gap(game)
    seq = game.move_count
    assert enqueued == [((), {"args": (game.pk, seq), "task_id": f"bot-turn:{game.pk}:{seq}"})]
    assert not Event.objects.filter(game=game, delivered_at__isnull=True).exists()


def test_a_run_gives_the_same_events_in_the_same_order_as_a_task_per_move(
    enqueued, heard, long_slice, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    # The bots' choices depend on the seed and the turn only, so both games play alike.
    monkeypatch.setattr(brain, "turn_seed", lambda game_id, seq, seat: seq * 4 + seat)
    monkeypatch.setattr(turns.brain, "turn_seed", lambda game_id, seq, seat: seq * 4 + seat)
    by_run = _game(_bots("Feed-R"))
    runs.bot_run(game_id=by_run.pk, expected_seq=0)
    heard_by_run = [(e.kind, e.seq, e.seat, e.to_act) for e in heard if e.game_id == by_run.pk]
    by_task = _game(_bots("Feed-T"))
    for _ in range(5000):
        by_task.refresh_from_db()
        if by_task.status == "finished":
            break
        assert turns.play_turn(game_id=by_task.pk, expected_seq=by_task.move_count) == "played"
    heard_by_task = [(e.kind, e.seq, e.seat, e.to_act) for e in heard if e.game_id == by_task.pk]
    by_run.refresh_from_db()
    by_task.refresh_from_db()
    assert by_run.status == by_task.status == "finished"
    assert _move_events(by_run) == _move_events(by_task)
    # Heard in order, each once.
    assert heard_by_run == heard_by_task
    seqs = [seq for kind, seq, _seat, _to_act in heard_by_run if kind == "move_committed"]
    assert seqs == list(range(1, by_run.move_count + 1))
    after_start = [kw["args"][0] for _a, kw in enqueued if kw["args"][1] > 0]
    assert by_run.pk not in after_start  # the run enqueued nothing; the task per move did
    assert after_start.count(by_task.pk) > 100


def test_a_run_costs_a_few_statements_per_move(enqueued, long_slice) -> None:  # type: ignore[no-untyped-def]
    game = _game(_bots("Count"))
    enqueued.clear()
    with CaptureQueriesContext(connection) as ctx:
        run = runs.bot_run(game_id=game.pk, expected_seq=0)
    game.refresh_from_db()
    assert game.status == "finished"
    deals = game.deal_number
    sql = [q["sql"] for q in ctx.captured_queries]
    statements = [q for q in sql if q not in ("BEGIN", "COMMIT")]
    # Each move: the game row, its outbox rows, its move rows (and each deal its seeded
    # deal), in a transaction of its own; a few reads for the run (the game and its bots,
    # the first look at the clock) and the finish (the ladder, the arena, ...), and the
    # run's one acknowledgement of all its events.
    assert (len(statements) - deals) / run.moves <= 3.02, (len(statements), deals, run.moves)
    assert sql.count("BEGIN") == sql.count("COMMIT") == run.moves
    assert not [q for q in statements if "FOR UPDATE" in q]  # no lock-and-read per move


@pytest.mark.worker
def test_a_worker_killed_mid_run_resumes_from_the_log_without_doubling_a_move(
    worker_factory,
) -> None:  # type: ignore[no-untyped-def]
    """SIGKILL to the pool process in the middle of a run: the redelivered task finds its
    turn played; the run's events were never marked delivered, so the relay hands the last
    one to the bots' consumer, whose task resumes the game from its log."""
    import os
    import signal

    from games import outbox
    from tests.bots.worker import wait_for

    worker = worker_factory(BOTS_RUN_SLICE_S="600").start()
    game = _game(_bots("Kill", strategy="random"))
    wait_for(lambda: Game.objects.get(pk=game.pk).move_count > 40, 60, "the run to be under way")
    (child,) = worker.pool_children()
    os.kill(child, signal.SIGKILL)
    killed_at = Game.objects.get(pk=game.pk).move_count
    assert Game.objects.get(pk=game.pk).status == "active"
    assert Event.objects.filter(game=game, delivered_at__isnull=True).exists()

    def relayed_and_finished() -> bool:
        from datetime import timedelta

        from django.utils import timezone

        outbox.relay(now=timezone.now() + timedelta(hours=1))  # as the beat would, later
        return Game.objects.get(pk=game.pk).status == "finished"

    try:
        wait_for(relayed_and_finished, 240, "the game to finish", 0.5)
    except AssertionError:
        raise AssertionError(f"stuck after the kill at {killed_at}\n{worker.log()}") from None
    _assert_log_has_no_gap(game)
    keys = list(Move.objects.filter(game=game).values_list("idempotency_key", flat=True))
    assert len(keys) == len(set(keys))
    per_seq = Event.objects.filter(game=game, kind="move_committed").values_list("seq", flat=True)
    assert sorted(per_seq) == list(range(1, game.move_count + 1))  # each move's event once


def test_a_persons_premove_is_played_in_the_run_that_reaches_their_seat(
    enqueued, long_slice
) -> None:  # type: ignore[no-untyped-def]
    from backalley_engine.actions import PASS
    from backalley_engine.state import GameState
    from games.premoves import premove_set

    person = PlayerFactory()
    # A seed whose first deal the bots open, so that the person's bid can be queued.
    seed = next(s for s in (f"{i:x}" * 64 for i in range(16)) if GameState.new(s).seat_to_act)
    game = _game([person, *_bots("Pre", 3)], seed=seed)
    premove_set(game_id=game.pk, seats=[0], action=PASS)  # the person's bid, queued
    game.refresh_from_db()
    assert game.premove_seats == 1
    run = runs.bot_run(game_id=game.pk, expected_seq=0)
    game.refresh_from_db()
    (premoved,) = Move.objects.filter(game=game, seat=0)
    assert (premoved.submitted_by, premoved.action_code) == ("premove", PASS)
    assert run.stopped == "seat" and game.to_act == 0 and game.premove_seats == 0
    assert run.moves >= 1 and Move.objects.filter(game=game).exclude(seat=0).exists()
    _assert_log_has_no_gap(game)
