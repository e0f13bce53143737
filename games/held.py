"""Moves of one game played in a row by one writer that keeps the game in memory.

A writer that plays several turns of a game one after another (a bot run, ``bots.runs``)
already holds what :func:`games.services.move_submit` reads back on every move: the game
row as it wrote it, the seat rows (fixed once a game has started) and the engine state.
:func:`move_submit_held` commits one action from that held copy with what a move needs and
nothing more, the same rows and events as the move path (:mod:`games.movelog`,
:mod:`games.autoplay`), each move in its own short transaction:

- no lock-and-read of the game row: the game row's UPDATE is conditional on what the
  writer holds (``status``, ``move_count``, ``premove_seats``); zero rows updated means
  someone else changed the game meanwhile (a person's move or premove, a claim, a call
  off), and nothing of the move is kept (``games.errors.HeldGameChanged``, a
  ``stale_state``); only while a premove is queued is the row locked first, since the
  move may take it off its queue;
- no idempotency look-up: the log's unique ``(game, seq)`` and the conditional UPDATE make
  a second writer of the same move fail instead;
- no stored answer body (nobody retries a held move over HTTP);
- the outbox rows are written, but not delivered on commit: the writer delivers them
  (``games.outbox.deliver``) once it knows what it does next, in order.

So a held move is three statements (the game row, its outbox rows, its move rows), one
more when it reaches a new deal (the seeded deal), one more when the turn passes to a
position the writer does not play (the seats' ``abandoned_at``, read fresh).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import Player
from backalley_engine.state import GameState
from games import autoplay, movelog, statecache
from games.errors import HeldGameChanged
from games.models import Event, Game, GameStatus, Seat


@dataclass
class HeldGame:
    """A started game as one writer holds it between its moves (never shared).

    ``state`` is the writer's own engine state (each move applies to a clone of it, which
    becomes the shared cache's after commit, so a rolled-back move changes nothing here);
    ``plays`` are the positions the writer plays on, for which it keeps no fresh look at the
    seats' abandonment.
    """

    game: Game
    seat_rows: list[Seat]
    state: GameState
    plays: frozenset[int] = field(default_factory=frozenset)


def game_hold(*, game: Game, seat_rows: list[Seat], plays: Collection[int] = ()) -> HeldGame:
    """A held copy of the started ``game`` as read (its seats read with their players)."""
    state = statecache.state_for(game).clone()
    return HeldGame(game=game, seat_rows=seat_rows, state=state, plays=frozenset(plays))


def _abandoned(held: HeldGame, to_act: int | None) -> set[int]:
    if to_act is None or to_act in held.plays:
        return {s.position for s in held.seat_rows if s.abandoned_at is not None}
    fresh = Seat.objects.filter(game_id=held.game.pk, abandoned_at__isnull=False)
    return set(fresh.values_list("position", flat=True))


def move_submit_held(
    *,
    held: HeldGame,
    seat: int,
    code: int,
    key: str | None,
    submitted_by: str,
    actor: Player | None,
) -> list[Event]:
    """Commit ``code`` for ``seat`` (to act in the held state) and what the service then
    plays on its own; ``held`` moves on only when it commits. Returns the outbox rows of the
    commit, saved and undelivered, in order. Raises the engine's error for an illegal
    action (nothing changed) and ``HeldGameChanged`` when the game moved on without this
    writer; after that or any other error the held copy is spent (its game row may be
    ahead of the database): read the game again."""
    game, before = held.game, held.state
    if before.seat_to_act != seat or game.status != GameStatus.ACTIVE:
        raise HeldGameChanged(message="The game has moved on.", extra={"seq": game.move_count})
    seen = {"move_count": game.move_count, "premove_seats": game.premove_seats}
    state = before.clone()
    events: list[dict[str, Any]] = []
    state.apply(code, seat=seat, events=events)  # raises the engine's typed error
    now = timezone.now()
    with transaction.atomic():
        if game.premove_seats:
            # A premove is taken off its queue by this move: the row is locked first, as on
            # the move path, so its seat cannot replace it meanwhile.
            locked = Game.objects.select_for_update().filter(pk=game.pk)
            if locked.values("status", *seen).first() != {"status": game.status, **seen}:
                raise HeldGameChanged(message="The game has moved on.", extra=seen)
        written = movelog.Written()
        movelog.write_move(
            game,
            held.seat_rows,
            state,
            events,
            written,
            seat=seat,
            code=code,
            submitted_by=submitted_by,
            actor=actor,
            key=key,
        )
        autoplay.play_on(game=game, seat_rows=held.seat_rows, state=state, written=written)
        abandoned = _abandoned(held, state.seat_to_act)
        rows = movelog.finish(
            game, state, written, now, abandoned=abandoned, expect=seen, deliver_on_commit=False
        )
        movelog.save_moves(written)
    held.state = state
    return rows
