"""Premoves: a seat queues its next action before its turn (docs/rules.md §10).

One queued action per seat, replaceable and cancellable, in the current deal only. The move
path plays it when the seat's turn comes if it is legal then (``games.autoplay``), and
otherwise drops it with the reason, which only that seat reads (:func:`premove_get`). A
premove is its seat's secret: no other seat, spectator, event, log line or error sees it.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from backalley_engine.actions import BOARD, PASS, action_to_json
from backalley_engine.constants import BIDDING, PLAYING
from backalley_engine.deal import bidder
from backalley_engine.errors import ActionParseError
from backalley_engine.state import GameState
from games import statecache
from games.errors import (
    GameNotStarted,
    GameOver,
    NotYourSeat,
    PremoveNotAllowed,
    PremoveNotLegal,
)
from games.messages import retell
from games.models import Game, GameStatus, Premove, PremoveStatus
from games.services import action_code, lock_game


def _seat_of(held: Collection[int], seat: int | None, game: Game) -> int:
    if not held:
        raise NotYourSeat(message=_("You have no seat in this game."))
    if seat is None:
        others = sorted(s for s in held if s != game.to_act)
        if not others:
            raise PremoveNotAllowed(message=_("It is your turn: play your move instead."))
        return others[0]
    if seat not in held:
        raise NotYourSeat(
            message=_("You do not hold seat %(requested)s in this game.") % {"requested": seat}
        )
    return seat


def _bids_already(state: GameState, seat: int) -> bool:
    return any(bidder(state.dealer, i) == seat for i in range(len(state.bids)))


def premove_check(state: GameState, seat: int, code: int) -> None:
    """Whether ``code`` may be queued for ``seat`` now: its next action of this deal (its
    bid if it has not bid, else a card it holds); it is checked again when played."""
    if state.seat_to_act is None:
        raise GameOver(message=_("The game is over."))
    if state.seat_to_act == seat:
        raise PremoveNotAllowed(message=_("It is your turn: play your move instead."))
    if state.phase == BIDDING and not _bids_already(state, seat):
        if code < PASS:
            raise PremoveNotLegal(message=_("Your next action is your bid, not a card."))
        if PASS < code < BOARD and code - PASS >= state.n:
            raise PremoveNotLegal(
                message=_("On a %(cards)s-card deal a numeric bid is at most %(most)s.")
                % {"cards": state.n, "most": state.n - 1},
                extra={"max_number": state.n - 1},
            )
        return
    if state.phase not in (BIDDING, PLAYING):
        raise PremoveNotAllowed(message=_("This deal is over."))
    if code >= PASS:
        raise PremoveNotLegal(message=_("You have bid in this deal: your next action is a card."))
    if not state.hands[seat] >> code & 1:
        raise PremoveNotLegal(message=_("You do not hold that card."))


def _dropped_words(row: Premove) -> str:
    """Why a premove was dropped, in the reader's language, told when it is read: the
    engine's reason retold from its code and details (games.messages)."""
    if row.reason_code == "premove_stale":
        return _("The deal it was queued in is over.")
    detail = row.reason_detail or {}
    if detail.get("code"):
        return retell(str(detail["code"]), row.reason, detail.get("extra") or {})
    return row.reason


def _body(seat: int, row: Premove | None) -> dict[str, Any]:
    queued = row is not None and row.status == PremoveStatus.QUEUED
    dropped = row is not None and row.status == PremoveStatus.DROPPED
    return {
        "seat": seat,
        "premove": {"action": action_to_json(row.action_code)} if queued and row else None,
        "dropped": (
            {
                "action": action_to_json(row.action_code),
                "code": row.reason_code,
                "message": _dropped_words(row),
            }
            if dropped and row
            else None
        ),
    }


def premove_set(
    *, game_id: int | str, seats: Collection[int], action: object, seat: int | None = None
) -> dict[str, Any]:
    """Queue (or replace) the next action of one of ``seats`` (those the caller holds).
    Refused, changing nothing: ``premove_not_allowed`` (its turn now, or no deal to queue
    in), ``premove_not_legal`` (not a bid or a card it could play next)."""
    code = action_code(action)
    if code > BOARD:
        raise ActionParseError("A premove is a bid or a card.", {})
    with transaction.atomic():
        game = lock_game(game_id)
        if game.status == GameStatus.WAITING:
            raise GameNotStarted(message=_("The game has not started: seats are still open."))
        if game.status != GameStatus.ACTIVE:
            raise GameOver(message=_("The game is over."))
        position = _seat_of(seats, seat, game)
        state = statecache.state_for(game)
        premove_check(state, position, code)
        row, _created = Premove.objects.update_or_create(
            game=game,
            seat=position,
            defaults={
                "action_code": code,
                "deal_number": state.deal_number,
                "attempt": state.attempt,
                "status": PremoveStatus.QUEUED,
                "reason_code": "",
                "reason": "",
            },
        )
        if not game.premove_seats >> position & 1:
            game.premove_seats |= 1 << position
            game.save(update_fields=["premove_seats"])
        return _body(position, row)


def premove_cancel(
    *, game_id: int | str, seats: Collection[int], seat: int | None = None
) -> dict[str, Any]:
    """Cancel a seat's queued premove (and forget a dropped one's notice); idempotent."""
    with transaction.atomic():
        game = lock_game(game_id)
        position = min(seats) if seat is None and seats else _seat_of(seats, seat, game)
        if position not in seats:
            raise NotYourSeat(message=_("You have no seat in this game."))
        Premove.objects.filter(game=game, seat=position).delete()
        if game.premove_seats >> position & 1:
            game.premove_seats &= ~(1 << position)
            game.save(update_fields=["premove_seats"])
        return _body(position, None)


def premove_get(*, game: Game, seat: int) -> dict[str, Any]:
    """What ``seat`` queued, or why its last premove was dropped (for that seat only)."""
    return _body(seat, Premove.objects.filter(game=game, seat=seat).first())
