"""JSON bodies describing a game, shared by the API and the move path (which stores the body
it answered so that a replayed request gets the very same one).

Hidden information: ``seed`` appears only once it is public (``games.dealsets``: the game is
finished, and so is every game dealt from its seed); the engine view for a seat shows only
that seat's hand, and a spectator's view (seat None) shows no hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.utils import timezone

from games import dealsets, extensions
from games.models import Game, GameStatus, Invitation, InvitationStatus, Seat

if TYPE_CHECKING:
    from backalley_engine.state import GameState


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def seats_payload(seats: Sequence[Seat]) -> list[dict[str, Any] | None]:
    by_position: list[dict[str, Any] | None] = [None, None, None, None]
    for seat in seats:
        by_position[seat.position] = {
            "position": seat.position,
            "player": seat.player.name,
            "is_bot": seat.player.is_bot,
        }
    return by_position


def pending_invitations(*, game: Game) -> list[Invitation]:
    """The game's live invitations (their seats are held), by position: the one read of the
    presenters' own, below the selectors that call them."""
    return list(
        Invitation.objects.filter(
            game=game, status=InvitationStatus.PENDING, expires_at__gt=timezone.now()
        )
        .select_related("player")
        .order_by("position")
    )


def invited_payload(game: Game) -> list[dict[str, Any]]:
    """The seats held for invited players who have not answered (waiting games only, so
    the move path never pays for this look-up)."""
    if game.status != GameStatus.WAITING:
        return []
    return [
        {
            "position": row.position,
            "player": row.player.name,
            "is_bot": row.player.is_bot,
            "expires_at": _iso(row.expires_at),
        }
        for row in pending_invitations(game=game)
    ]


def game_summary(
    game: Game, seats: Sequence[Seat], *, reveal: bool | None = None
) -> dict[str, Any]:
    """What anyone may know about a game (no hands, no seed before it is public; ``reveal``:
    ``dealsets.seed_is_public(game)`` when the caller has it already)."""
    if reveal is None:
        reveal = dealsets.seed_is_public(game)
    finished = game.status == GameStatus.FINISHED
    return {
        "id": game.public_id,
        "status": game.status,
        "rated": game.rated,
        "options": game.options,
        "seats": seats_payload(seats),
        "invited": invited_payload(game),
        "seq": game.move_count,
        "to_act": game.to_act,
        "deal_number": game.deal_number,
        "commitment": game.commitment,
        "first_dealer": game.first_dealer,
        "seed": game.seed if reveal else None,
        "created_at": _iso(game.created_at),
        "started_at": _iso(game.started_at),
        "finished_at": _iso(game.finished_at),
        "result": (
            {"totals": [game.total_0, game.total_1], "winner": game.winner} if finished else None
        ),
    }


def state_payload(
    game: Game, seats: Sequence[Seat], state: GameState | None, seat: int | None
) -> dict[str, Any]:
    """The game as ``seat`` sees it (``seat`` None: a spectator)."""
    reveal = dealsets.seed_is_public(game)
    body = game_summary(game, seats, reveal=reveal)
    body["your_seat"] = seat
    body["view"] = state.view(seat, reveal=reveal) if state is not None else None
    body.update(extensions.game_parts(game))  # what listening apps add (the clock's deadline)
    return body
