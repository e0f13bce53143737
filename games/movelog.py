"""Writing the move log: one or more engine actions committed together, under the game lock.

A commit of the move path is the move a seat sent plus whatever the service then played on
its own (forced actions, premoves, the rest of a settled deal: :mod:`games.autoplay`). Each
is its own :class:`~games.models.Move` row and its own ``move_committed`` outbox event; the
game row is written once, and the move rows in one insert, at the end. In a chain, only the last event names the seat to
act: the others carry ``to_act = None`` (the turn passed on within the same commit), so no
listener schedules work for a seat the chain already played (docs/events.md).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction

from accounts.models import Player
from backalley_engine import shuffle
from backalley_engine.actions import action_to_json
from backalley_engine.cards import card_str, mask_to_cards
from backalley_engine.state import GameState
from backalley_site import metrics
from games import outbox, statecache
from games.errors import HeldGameChanged
from games.models import Event, Game, GameStatus, Move, Seat, SeededDeal, SubmittedBy


@dataclass
class Written:
    """The moves of one commit, in order (their rows are saved; the game row not yet)."""

    moves: list[Move] = field(default_factory=list)
    snapshot: dict[str, Any] | None = None  # the checkpoint at the last deal start reached
    snapshot_seq: int | None = None


def store_deal(game: Game, number: int, attempt: int, dealer: int, first_seq: int) -> None:
    """Record a deal the game has reached, as the seed makes it (for audit)."""
    dealt = shuffle.deal_cards(game.seed, number, attempt, dealer)
    swap = dealt.swap
    SeededDeal.objects.create(
        game=game,
        number=number,
        attempt=attempt,
        dealer=dealer,
        hand_size=shuffle.hand_size_of(number),
        upcard=card_str(dealt.upcard),
        hands=[[card_str(c) for c in mask_to_cards(m)] for m in dealt.hands],
        joker_swap=(
            {
                "seat": swap.seat,
                "discarded": card_str(swap.discarded),
                "drawn": card_str(swap.drawn),
            }
            if swap
            else None
        ),
        first_seq=first_seq,
    )


def write_move(
    game: Game,
    seat_rows: list[Seat],
    state: GameState,
    events: list[dict[str, Any]],
    written: Written,
    *,
    seat: int,
    code: int,
    submitted_by: str | None,
    actor: Player | None = None,
    user: Any = None,
    key: str | None = None,
) -> Move:
    """The row of the action just applied to ``state`` (which caused ``events``), kept in
    ``written`` until :func:`save_moves`; the deal it reached is stored at once."""
    seat_player = next(s.player for s in seat_rows if s.position == seat)
    if submitted_by is None:
        submitted_by = SubmittedBy.BOT if seat_player.is_bot else SubmittedBy.PLAYER
    seq = state.move_count
    for ev in events:
        if ev.get("type") == "deal_start":
            store_deal(game, state.deal_number, state.attempt, state.dealer, seq)
            # Once per deal (see games.statecache): loads replay at most one deal's moves.
            written.snapshot = statecache.dump(state)
            written.snapshot_seq = seq
    if state.is_terminal():
        written.snapshot = statecache.dump(state)
        written.snapshot_seq = seq
    if actor is None and submitted_by in (SubmittedBy.PLAYER, SubmittedBy.BOT, SubmittedBy.PREMOVE):
        actor = seat_player
    move = Move(
        game=game,
        seq=seq,
        seat=seat,
        action=action_to_json(code),
        action_code=code,
        submitted_by=submitted_by,
        actor=actor,
        user=user if getattr(user, "is_authenticated", False) else None,
        idempotency_key=key,
    )
    written.moves.append(move)
    return move


def save_moves(written: Written) -> None:
    """Insert the commit's move rows, in one statement (after :func:`finish`, so the
    submitter's row may carry the body it is answered)."""
    Move.objects.bulk_create(written.moves)


def finish(
    game: Game,
    state: GameState,
    written: Written,
    now: datetime,
    *,
    abandoned: Collection[int] = (),
    expect: Mapping[str, Any] | None = None,
    deliver_on_commit: bool = True,
) -> list[Event]:
    """Write the game row once for the whole commit and emit one event per move; the last
    one says whether the seat to act is among the ``abandoned`` (the house bot plays it).
    Returns the outbox rows.

    The caller holds the game row's lock, or passes what it ``expect``s the row to hold
    (``move_count``, ``premove_seats``, ...): the row is then written only if it still
    does, else ``HeldGameChanged`` (``games.held``). ``deliver_on_commit=False`` leaves the
    delivery of the rows to the caller (``games.outbox.deliver``)."""
    game.move_count = state.move_count
    game.to_act = state.seat_to_act
    game.deal_number = state.deal_number
    game.last_move_at = now
    fields = ["move_count", "to_act", "deal_number", "last_move_at", "premove_seats"]
    if written.snapshot is not None:
        game.snapshot = written.snapshot
        game.snapshot_seq = written.snapshot_seq
        fields += ["snapshot", "snapshot_seq"]
    if state.is_terminal():
        outcome = state.outcome
        assert outcome is not None  # a finished game has its outcome
        game.status = GameStatus.FINISHED
        game.finished_at = now
        game.total_0, game.total_1 = outcome.totals
        game.winner = outcome.winner
        fields += ["status", "finished_at", "total_0", "total_1", "winner"]
    if expect is None:
        game.save(update_fields=fields)
    else:
        values = {name: getattr(game, name) for name in fields}
        current = Game.objects.filter(pk=game.pk, status=GameStatus.ACTIVE, **expect)
        if not current.update(**values):
            raise HeldGameChanged(message="The game has moved on.", extra={"seq": game.move_count})
    transaction.on_commit(lambda: statecache.remember(game, state))
    transaction.on_commit(lambda: _count(written.moves))
    rows: list[Event] = []
    last = len(written.moves) - 1
    for i, move in enumerate(written.moves):
        row = outbox.event(game, "move_committed", seq=move.seq, seat=move.seat, now=now)
        if i < last:
            row.to_act = None  # the turn passed on within this commit
        else:
            row.to_act_abandoned = game.to_act is not None and game.to_act in abandoned
        rows.append(row)
    if game.status == GameStatus.FINISHED:
        rows.append(outbox.event(game, "game_finished", seq=game.move_count, now=now))
    outbox.emit(rows, deliver_on_commit=deliver_on_commit)
    return rows


def _count(moves: list[Move]) -> None:
    """The moves committed, by who made them (backalley_moves_total), once they are."""
    for move in moves:
        metrics.MOVES.labels(submitted_by=move.submitted_by).inc()
