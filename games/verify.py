"""Integrity: replay a game from its seed and move log and compare with what is stored.

Checked: the commitment and first dealer follow from the seed; the log runs 1..n with no
gap and each move was made by the seat to act and was legal; the stored deals are exactly
the deals reached, as the seed makes them; the game row's counters, status and result are
the replay's; and the cached snapshot is the replay's state.
"""

from __future__ import annotations

from typing import Any

from backalley_engine import shuffle
from backalley_engine.actions import BOARD, action_to_json
from backalley_engine.errors import EngineError
from backalley_engine.state import GameState
from games import statecache
from games.models import Game, GameStatus, Move, SeededDeal


def _deal_row(row: SeededDeal) -> dict[str, Any]:
    return {
        "number": row.number,
        "attempt": row.attempt,
        "dealer": row.dealer,
        "hand_size": row.hand_size,
        "upcard": row.upcard,
        "hands": [sorted(h) for h in row.hands],
        "joker_swap": row.joker_swap,
    }


def _deal_expected(deal: dict[str, Any]) -> dict[str, Any]:
    return {
        "number": deal["number"],
        "attempt": deal["attempt"],
        "dealer": deal["dealer"],
        "hand_size": deal["hand_size"],
        "upcard": deal["upcard"],
        "hands": [sorted(h) for h in deal["hands"]],
        "joker_swap": deal["joker_swap"],
    }


def _replay(game: Game, problems: list[str]) -> GameState | None:
    moves = Move.objects.filter(game=game).order_by("seq")
    rows = list(moves.values_list("seq", "seat", "action_code", "action"))
    if [r[0] for r in rows] != list(range(1, len(rows) + 1)):
        problems.append("the move log has a gap or a duplicate")
        return None
    state = GameState.new(game.seed, schedule=game.schedule)
    for seq, seat, code, action in rows:
        # A claim and its answers are made by their own seat, whoever is to act (rules
        # §10): the engine checks that seat against the action itself.
        if code <= BOARD and state.seat_to_act != seat:
            problems.append(
                f"move {seq}: seat {seat} moved but seat {state.seat_to_act} was to act"
            )
            return None
        if action_to_json(code) != action:
            problems.append(f"move {seq}: action {action!r} does not match its code {code}")
            return None
        try:
            state.apply(code, seat=seat)
        except EngineError as e:
            problems.append(f"move {seq}: illegal on replay ({e.code}: {e.message})")
            return None
    return state


def verify_game(game: Game) -> list[str]:
    """The problems found in one game (empty when it is sound)."""
    problems: list[str] = []
    try:
        if game.commitment != shuffle.commitment(game.seed):
            problems.append("the commitment is not SHA-256 of the seed")
        if game.first_dealer != shuffle.first_dealer(game.seed):
            problems.append("the first dealer does not follow from the seed")
    except EngineError as e:
        return [f"bad seed ({e.message})"]
    if game.started_at is None:
        if Move.objects.filter(game=game).exists() or game.deals.exists():
            problems.append("a game that never started has moves or deals")
        return problems
    state = _replay(game, problems)
    if state is None:
        return problems
    record = state.record("all")
    expected = [_deal_expected(d) for d in record["deals"]]
    stored = [_deal_row(r) for r in game.deals.order_by("first_seq", "number", "attempt")]
    if stored != expected:
        first = next(
            (i for i, (e, s) in enumerate(zip(expected, stored, strict=False)) if e != s),
            min(len(expected), len(stored)),
        )
        problems.append(
            f"stored deals differ from the seed's: {len(stored)} stored, {len(expected)} "
            f"reached, first difference at deal #{first + 1}"
        )
    row = (game.move_count, game.to_act, game.deal_number)
    if row != (state.move_count, state.seat_to_act, state.deal_number):
        problems.append(
            f"game row (moves, to_act, deal) {row} but replay "
            f"{(state.move_count, state.seat_to_act, state.deal_number)}"
        )
    finished = game.status == GameStatus.FINISHED
    if finished != state.is_terminal():
        problems.append(f"status {game.status} but the replay is {state.phase}")
    if state.outcome is not None:
        result = ((game.total_0, game.total_1), game.winner)
        if result != (tuple(state.outcome.totals), state.outcome.winner):
            problems.append(
                f"stored result {result} but replay {(state.outcome.totals, state.outcome.winner)}"
            )
    if game.snapshot is not None:
        at = game.snapshot_seq
        snap = statecache.load(game.snapshot, game.seed, at) if at is not None else None
        then = statecache.replay(game, upto=at) if snap is not None else None
        if (
            snap is None
            or then is None
            or snap.history != then.history
            or snap.view(None) != then.view(None)
        ):
            problems.append(f"the snapshot (at move {at}) is not the replay's state")
    return problems
