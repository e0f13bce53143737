"""What the service plays on its own after a move commits (docs/rules.md §10).

:func:`play_on` is the one place of that logic; the move path (``games.services``) calls it
after every move, and so may any other writer that holds the game lock (a bot run that
plays several turns). While the game goes on, for the seat to act, in this order:

1. its **premove**, if it queued one in this deal: played when legal
   (``submitted_by = "premove"``), else dropped and kept as ``dropped`` with the reason,
   for that seat alone to read;
2. the rest of a **settled deal**: once the engine proves that every continuation gives
   each team the same tricks (``backalley_engine.solver.is_settled``, within a budget of card
   placements), every remaining card is played, each seat's first legal card
   (``solver.settled_card``), as ``auto``;
3. a **forced action**: the seat has exactly one legal action and its player has not
   turned auto-play off (``Player.autoplay``, on by default, bots included): ``auto``.

Each action is its own move row and its own outbox event (:mod:`games.movelog`), in the
transaction of the move that made it due.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings

from backalley_engine import solver
from backalley_engine.constants import PLAYING
from backalley_engine.errors import EngineError
from backalley_engine.state import GameState
from games.models import Game, Premove, PremoveStatus, Seat, SubmittedBy
from games.movelog import Written, write_move

# Defaults of the settled-deal check (measured in bench/correspondence.py): how many tricks
# may be left for it to run, and the most card placements one check may try.
SETTLED_MAX_TRICKS = 6
SETTLED_BUDGET = 2_000


def enabled() -> bool:
    """Forced actions and settled deals are played for the seats (``GAMES_AUTOPLAY``, on
    unless turned off; premoves are the seats' own choice and always played)."""
    return bool(getattr(settings, "GAMES_AUTOPLAY", True))


def settled_limits() -> tuple[int, int]:
    """(most tricks left for a check, card placements per check); 0 tricks turns it off."""
    return (
        int(getattr(settings, "GAMES_SETTLED_MAX_TRICKS", SETTLED_MAX_TRICKS)),
        int(getattr(settings, "GAMES_SETTLED_BUDGET", SETTLED_BUDGET)),
    )


def deal_settled(state: GameState) -> bool:
    """Whether the deal in play is proven settled within the service's limits."""
    if state.phase != PLAYING:
        return False
    max_tricks, budget = settled_limits()
    if state.n - len(state.tricks) > max_tricks:
        return False
    return solver.is_settled(state, budget=budget) is True


@dataclass(frozen=True)
class AutoMove:
    seq: int
    seat: int
    code: int
    by: str  # "auto" | "premove"


def _queued(game: Game, seat: int) -> Premove | None:
    return Premove.objects.filter(game=game, seat=seat, status=PremoveStatus.QUEUED).first()


def _drop(premove: Premove, code: str, message: str, detail: dict[str, Any] | None = None) -> None:
    premove.status = PremoveStatus.DROPPED
    premove.reason_code = code
    premove.reason = message[:300]
    premove.reason_detail = detail or {}
    premove.save(update_fields=["status", "reason_code", "reason", "reason_detail", "updated_at"])


def take_premove(game: Game, state: GameState, seat: int) -> int | None:
    """The queued premove of ``seat`` (to act in ``state``) if it is legal now, taken off
    the queue; an illegal or stale one is dropped with its reason. Clears the seat's bit in
    ``game.premove_seats`` (the caller saves the game row)."""
    if not game.premove_seats >> seat & 1:
        return None
    game.premove_seats &= ~(1 << seat)
    premove = _queued(game, seat)
    if premove is None:
        return None
    if (premove.deal_number, premove.attempt) != (state.deal_number, state.attempt):
        _drop(premove, "premove_stale", "The deal it was queued in is over.")
        return None
    try:
        state.clone().apply(premove.action_code, seat=seat)
    except EngineError as exc:
        _drop(premove, "premove_not_legal", exc.message, {"code": exc.code, "extra": exc.extra})
        return None
    premove.delete()
    return premove.action_code


def play_on(
    *,
    game: Game,
    seat_rows: list[Seat],
    state: GameState,
    written: Written,
) -> list[AutoMove]:
    """Apply to ``state`` (the writer's own clone, under the game lock) what the service
    plays on its own, writing each move into ``written``; returns them in order. The
    caller saves the game row afterwards (``games.movelog.finish``), ``premove_seats``
    included."""
    on = enabled()
    autoplay = {s.position: on and s.player.autoplay for s in seat_rows}
    done: list[AutoMove] = []
    settled = False
    while state.seat_to_act is not None and state.claim < 0:  # a claim waits: nothing plays
        seat = state.seat_to_act
        code: int | None = None
        by = SubmittedBy.AUTO
        if game.premove_seats:
            code = take_premove(game, state, seat)
            if code is not None:
                by = SubmittedBy.PREMOVE
        if code is None and on and state.phase == PLAYING:
            if not settled:
                settled = deal_settled(state)
            if settled:
                code = solver.settled_card(state)
        if code is None:
            legal = state.legal_actions()
            if len(legal) == 1 and autoplay.get(seat, False):
                code = legal[0]
        if code is None:
            break
        events: list[dict[str, Any]] = []
        deal_before = (state.deal_number, state.attempt)
        state.apply(code, seat=seat, events=events)
        write_move(game, seat_rows, state, events, written, seat=seat, code=code, submitted_by=by)
        done.append(AutoMove(state.move_count, seat, code, by))
        if (state.deal_number, state.attempt) != deal_before:
            settled = False
    return done
