"""Claims and concessions through the service (docs/rules.md §10; the rule is the engine's,
``backalley_engine.claims``).

A claim, an answer and a lapse are moves of the log like any other (the engine's claim
actions), written by the move path's own commit (``games.services.commit_move``: a row and an
outbox event each, the game row locked, an optional Idempotency-Key). So the feed, the
clock and the bots follow a claim as they follow a card:

- a claim the engine proves (or a concession) ends the deal in the same commit;
- otherwise the seat to act becomes the first opponent who has not answered (the clock
  times its answer; a bot's turn answers it by the rule of docs/bots.md), and either
  opponent may answer at any time;
- the clock's sweep lapses a claim whose answer did not come within the turn's time
  (:func:`claim_lapse`): play goes on.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Final

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import Player
from backalley_engine import claims as rules
from backalley_engine import solver
from backalley_engine.actions import (
    CLAIM_BASE,
    LAPSE,
    accept_action,
    claim_action,
    claim_parts,
    refuse_action,
)
from backalley_engine.errors import NoClaimPending
from backalley_engine.state import GameState
from games import statecache
from games.errors import GameAborted, GameNotStarted, GameOver, NotYourSeat
from games.models import Game, GameStatus, Move, SubmittedBy
from games.services import MoveResult, check_key, commit_move, lock_game, replayed_move

# How hard a house or hosted bot looks before it accepts a claim (docs/bots.md): ten times
# the service's own proof, so a claim it accepts holds against every defence.
BOT_ANSWER_BUDGET: Final = 10 * rules.CLAIM_BUDGET


def _open(game_id: int | str) -> Game:
    game = lock_game(game_id)
    if game.status == GameStatus.WAITING:
        raise GameNotStarted(message=_("The game has not started: seats are still open."))
    if game.status == GameStatus.ABORTED:
        raise GameAborted(message=_("This game was called off."))
    if game.status == GameStatus.FINISHED:
        raise GameOver(message=_("The game is over."))
    return game


def _submit(
    *,
    game_id: int | str,
    seats: Collection[int],
    code: int | None,
    pick: Any,
    idempotency_key: str | None,
    user: Any,
    submitted_by: str | None = None,
    same: Any = None,
) -> MoveResult:
    """Apply one claim action (``code``, or ``pick(state, held)`` choosing it under the lock).
    A request retried with its Idempotency-Key gets the first answer (``same(code)`` says
    whether the stored move is this request's kind of action)."""
    check_key(idempotency_key)
    with transaction.atomic():
        game = _open(game_id)
        seat_rows = list(game.seats.select_related("player"))
        held = frozenset(seats)
        if idempotency_key is not None:
            prior = Move.objects.filter(game=game, idempotency_key=idempotency_key).first()
            if prior is not None:
                again = prior.action_code if code is None and same(prior.action_code) else code
                replay = replayed_move(
                    game, seat_rows, held, idempotency_key, -1 if again is None else again
                )
                assert replay is not None
                return replay
        state = statecache.state_for(game)
        if code is None:
            code = pick(state, held)
        assert code is not None
        kind, seat, _tricks = claim_parts(code)
        if kind == "lapse":
            seat = state.seat_to_act if state.seat_to_act is not None else 0
        elif seat not in held:
            raise NotYourSeat(message=_("You do not hold that seat in this game."))
        new = state.clone()
        events: list[dict[str, Any]] = []
        new.apply(code, seat=None if kind == "lapse" else seat, events=events)
        return commit_move(
            game, seat_rows, new, events, seat, code, idempotency_key, submitted_by, None, user
        )


def _seat_among(held: frozenset[int], seat: int | None) -> int:
    if not held:
        raise NotYourSeat(message=_("You have no seat in this game."))
    if seat is None:
        return min(held)
    if seat not in held:
        raise NotYourSeat(
            message=_("You do not hold seat %(requested)s in this game.") % {"requested": seat}
        )
    return seat


def claim_make(
    *,
    game_id: int | str,
    seats: Collection[int],
    tricks: int,
    seat: int | None = None,
    idempotency_key: str | None = None,
    user: Any = None,
) -> MoveResult:
    """Claim ``tricks`` of the remaining tricks for the team of one of ``seats`` (0 concedes).
    Refused, changing nothing: ``claim_not_allowed`` (a trick in progress, not the play
    phase, a claim pending, a number out of range), ``claim_refused`` (this side's claim was
    refused since the last trick)."""
    held = frozenset(seats)

    def pick(state: GameState, held: frozenset[int]) -> int:
        claimant = _seat_among(held, seat)
        rules.claim_check(state, claimant, tricks)
        return claim_action(claimant, tricks)

    return _submit(
        game_id=game_id,
        seats=held,
        code=None,
        pick=pick,
        idempotency_key=idempotency_key,
        user=user,
    )


def claim_answer(
    *,
    game_id: int | str,
    seats: Collection[int],
    accept: bool,
    seat: int | None = None,
    idempotency_key: str | None = None,
    user: Any = None,
    submitted_by: str | None = None,
) -> MoveResult:
    """Accept or refuse the pending claim for one of ``seats`` (an opponent of the claimant
    who has not answered yet); ``no_claim_pending`` when there is none for it to answer."""
    held = frozenset(seats)

    def pick(state: GameState, held: frozenset[int]) -> int:
        asked = [s for s in rules.waiting_for(state) if s in held]
        if seat is not None:
            asked = [s for s in asked if s == seat]
        if not asked:
            raise NoClaimPending(_("There is no claim for you to answer."))
        who = state.seat_to_act if state.seat_to_act in asked else asked[0]
        assert who is not None
        return accept_action(who) if accept else refuse_action(who)

    def same(code: int) -> bool:
        return code >= CLAIM_BASE and claim_parts(code)[0] == ("accept" if accept else "refuse")

    return _submit(
        game_id=game_id,
        seats=held,
        code=None,
        pick=pick,
        idempotency_key=idempotency_key,
        user=user,
        submitted_by=submitted_by,
        same=same,
    )


def claim_lapse(*, game_id: int | str) -> MoveResult:
    """The answer did not come within the turn's time (the clock's sweep): play goes on."""
    return _submit(
        game_id=game_id,
        seats=(),
        code=LAPSE,
        pick=None,
        idempotency_key=None,
        user=None,
        submitted_by=SubmittedBy.SYSTEM,
    )


def bot_accepts(state: GameState) -> bool:
    """The house rule for bots (docs/bots.md): accept a pending claim when the engine proves
    it holds against every defence within :data:`BOT_ANSWER_BUDGET`; refuse otherwise. The
    same position always gets the same answer."""
    p = rules.pending(state)
    if p is None:
        raise NoClaimPending(_("There is no claim to answer."))
    probe = state.clone()
    probe.claim = -1  # the position the claim is about: the gap between two tricks
    return solver.claim_holds(probe, seat=p[0], tricks=p[1], budget=BOT_ANSWER_BUDGET) is True


def bot_answer(*, game_id: int, seat: int, bot: Player, expected_seq: int) -> str:
    """A house or hosted (or webhook) bot to act on a pending claim answers it by the rule."""
    with transaction.atomic():
        game = lock_game(game_id)
        if game.move_count != expected_seq or game.to_act != seat:
            return "already_played"
        state = statecache.state_for(game)
        if rules.pending(state) is None:
            return "already_played"
        accept = bot_accepts(state)
    claim_answer(
        game_id=game_id,
        seats=[seat],
        accept=accept,
        seat=seat,
        idempotency_key=f"bot-turn:{game_id}:{expected_seq}",
        submitted_by=SubmittedBy.BOT,
    )
    return "accepted" if accept else "refused"
