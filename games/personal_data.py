"""The games app's part of a person's data (accounts.personal_data, docs/privacy.md).

**Export**: every game where the person or one of their bots sits, with its record as
they may see it (a running game's record, or a finished one whose seed other games still
play, from each of their seats only: no card they could not see, no seed before it is
public), and the invitations to and from them.

**Erase**: the games waiting for players that they created are called off; they leave the
other waiting games and their pending invitations are declined (``games.retire``: the
player can never be seated or invited again). Running games go on (the clock hands their
seats to the house bot), finished games stay as they were, under the pseudonym. The stored
answers of keyed move requests in their games (kept a day for replays) quote the seats'
names, so they are dropped: a replay then answers with the state as of now.
"""

from __future__ import annotations

from typing import Any

from accounts import personal_data
from games import dealsets, selectors, services
from games.models import Game, GameStatus, Invitation, Move, Seat
from games.presenters import game_summary
from games.retire import player_retire


def _iso(value: Any) -> str | None:
    return value.isoformat() if value else None


def export_games(subject: personal_data.Subject) -> dict[str, Any]:
    players = selectors.players_controlled_by(user=subject.user)
    ids = set(players.values_list("pk", flat=True))
    games = (
        Game.objects.filter(seats__player__in=players)
        .distinct()
        .prefetch_related("seats__player")
        .order_by("created_at", "pk")
    )
    out: list[dict[str, Any]] = []
    for game in games:
        seats = sorted(game.seats.all(), key=lambda s: s.position)
        mine = [s.position for s in seats if s.player_id in ids]
        reveal = dealsets.seed_is_public(game)
        body = game_summary(game, seats, reveal=reveal)
        body["your_seats"] = mine
        body["records"] = {}
        if game.started_at is not None:
            # A whole record once its seed is public; before, one per seat held.
            viewers = [mine[0]] if reveal else mine
            for seat in viewers:
                body["records"][str(seat)] = selectors.game_record(
                    game=game, seats=seats, seat=seat
                )
        out.append(body)
    invitations = (
        Invitation.objects.filter(player__in=players)
        | Invitation.objects.filter(invited_by__in=players)
    ).select_related("game", "player", "invited_by")
    return {
        "games": out,
        "invitations": [
            {
                "game": row.game.public_id,
                "position": row.position,
                "player": row.player.name,
                "invited_by": row.invited_by.name if row.invited_by else None,
                "status": row.status,
                "created_at": _iso(row.created_at),
                "answered_at": _iso(row.answered_at),
            }
            for row in invitations.distinct().order_by("created_at", "pk")
        ],
    }


def erase_games(erasure: personal_data.Erasure) -> None:
    player = erasure.player
    created = Game.objects.filter(creator=player, status=GameStatus.WAITING)
    for game_id in list(created.values_list("pk", flat=True)):
        services.game_abort(game_id=game_id, by=player)
        erasure.count("waiting_games_called_off", 1)
    player_retire(player=player)  # leaves waiting games, declines invitations
    sat = Seat.objects.filter(player__in=selectors.players_controlled_by(user=erasure.user))
    erasure.count(
        "move_answers_dropped",
        Move.objects.filter(game_id__in=sat.values("game_id"), response__isnull=False).update(
            response=None
        ),
    )


def install() -> None:
    personal_data.register("games", export=export_games, erase=erase_games, order=50)
