"""Bot turns in a run: one task plays a game's hosted bots one after another.

When a bot's move hands the turn to another hosted bot of the same game, the task that
played it plays on (:func:`bot_run`), keeping the game in memory (``games.held``) instead
of a task, a broker round trip, a state load and a lock-and-read per move. Each move is
still its own commit, its own move row and its own outbox event, delivered right after its
commit, in order, so waiting clients are woken move by move and every other consumer sees
exactly what a task per move would have given it. The run stops:

- at a seat it does not play: a person, an API bot, a webhook bot (a webhook turn is a task
  of its own, so it keeps its whole deadline), or a claim waiting for an answer;
- at the end of the game;
- when the game changes without it (a person's premove, a call-off): it reads nothing
  again, it stops;
- when its time slice (``BOTS_RUN_SLICE_S``) is over, so one game cannot hold a worker: the
  rest goes back to the queue as the next turn's task.

Exactly once, with the outbox as the only memory: the bots' own consumer of a move's event
(``bots.schedule_bot_turn``, which enqueues the next turn) is the run itself while it plays
on. Each event is delivered at once to the other consumers and marked delivered only when
the run's duty for it is done (it played the next move, or enqueued it): in one UPDATE at
the end of the run. A worker killed mid-run leaves the run's events undelivered, so the
relay hands the last one to the bots' consumer, whose task resumes the game from its log;
earlier ones find their turn played. The move log's unique ``(game, seq)`` and the
conditional write of the game row let no move land twice. Task ids stay
``bot-turn:<game>:<seq>``.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.db import IntegrityError

from backalley_site import metrics
from bots import selectors
from bots.models import Bot, BotKind
from bots.turns import decide, idempotency_key, play_turn
from games import outbox, statecache
from games.errors import GameOver, IdempotencyKeyReused, NotYourTurn, StaleState
from games.held import HeldGame, game_hold, move_submit_held
from games.models import Event, Seat, SubmittedBy

logger = logging.getLogger(__name__)

# The name the bots app's consumer of move events is registered under (bots.hooks).
SCHEDULER = "bots.schedule_bot_turn"

SLICE_S = 2.0


def slice_s() -> float:
    """How long one run may play before it hands the rest back to the queue."""
    return float(getattr(settings, "BOTS_RUN_SLICE_S", SLICE_S))


@dataclass
class Run:
    """What a run did: ``outcome`` of its first turn (``played``, ``substituted``,
    ``already_played``, ``not_a_bot_turn``), the moves it submitted, and why it stopped."""

    outcome: str
    moves: int = 0
    stopped: str = ""  # "seat", "finished", "slice", "changed", "" (nothing played)


def hosted_bots(seat_rows: list[Seat]) -> dict[int, Bot]:
    """The positions held by hosted bots (a run plays those), with their bots."""
    found: dict[int, Bot] = {}
    for seat in seat_rows:
        try:
            bot = seat.player.bot
        except ObjectDoesNotExist:
            continue
        if bot.kind == BotKind.HOSTED:
            bot.player = seat.player
            found[seat.position] = bot
    return found


def bot_run(*, game_id: int, expected_seq: int) -> Run:
    """Play the bot to act at ``expected_seq`` and then every hosted bot after it, until
    the run's end (module doc). Safe to repeat: a turn already played is left alone."""
    found = selectors.worker_bot_to_act(game_id)
    if found is None:
        return Run("not_a_bot_turn")  # finished, aborted, unknown, or a person/API bot to act
    game, bot = found
    if game.move_count != expected_seq:
        return Run("already_played")
    state = statecache.state_for(game)
    if state.move_count != expected_seq or state.seat_to_act != game.to_act:
        return Run("already_played")
    if state.claim >= 0:
        return Run(play_turn(game_id=game_id, expected_seq=expected_seq), 1, "seat")
    seat_rows = list(game.seats.select_related("player__bot"))
    hosted = hosted_bots(seat_rows)
    held = game_hold(game=game, seat_rows=seat_rows, plays=hosted)
    return _play(held, bot, hosted, time.monotonic() + slice_s())


def _play(held: HeldGame, bot: Bot, hosted: dict[int, Bot], until: float) -> Run:
    run = Run("already_played")
    owed: list[Event] = []  # the last commit's events, whose next turn the run still owes
    owed_done: list[int] = []  # of those, the ones every other consumer took
    done: list[int] = []  # events whose every consumer's work is done: marked at the end
    try:
        while True:
            game, state = held.game, held.state
            seat = state.seat_to_act
            assert seat is not None
            given = game.last_move_at or game.started_at  # when the turn came to the bot
            action, credited = decide(bot, game, seat, state)
            try:
                rows = move_submit_held(
                    held=held,
                    seat=seat,
                    code=action,
                    key=idempotency_key(game.pk, game.move_count),
                    submitted_by=SubmittedBy.BOT if credited == "bot" else SubmittedBy.SYSTEM,
                    actor=bot.player if credited == "bot" else None,
                )
            except (StaleState, NotYourTurn, GameOver, IdempotencyKeyReused, IntegrityError):
                # Someone else played or changed the game meanwhile (a person's premove,
                # another copy of this task): it is theirs now.
                run.stopped = "changed"
                return run
            if run.moves == 0:
                run.outcome = "played" if credited == "bot" else "substituted"
            run.moves += 1
            # The turn the run owed is played: the previous events' work is all done.
            done += owed_done
            owed, owed_done = [], []
            if given is not None:
                waited = (held.game.last_move_at or given) - given
                metrics.BOT_TURN_LATENCY.labels(kind=bot.kind).observe(waited.total_seconds())
            run.stopped = _stop(held, hosted, until)
            if run.stopped:
                done += outbox.deliver(rows, mark=False)  # the bots' consumer included
                return run
            # Everyone but the bots' consumer now; the run is that consumer's work.
            owed = rows
            owed_done = outbox.deliver(rows, outbox.acked_only(rows, SCHEDULER), mark=False)
            bot = hosted[held.state.seat_to_act]  # type: ignore[index]
    finally:
        if owed:
            # It stopped after saying it would play on: the next turn goes to the queue.
            taken = outbox.deliver(owed, outbox.acked_but(owed, SCHEDULER), mark=False)
            done += [pk for pk in owed_done if pk in taken]
        try:
            outbox.mark_delivered(done)
        except Exception:  # the relay delivers them again; every consumer is idempotent
            logger.exception("could not mark the events of a run delivered: %s", done)


def _stop(held: HeldGame, hosted: dict[int, Bot], until: float) -> str:
    """Why the run stops after its last move, or "" to play on."""
    state = held.state
    if state.seat_to_act is None:
        return "finished"
    if state.seat_to_act not in hosted or state.claim >= 0:
        return "seat"
    if time.monotonic() >= until:
        return "slice"
    return ""
