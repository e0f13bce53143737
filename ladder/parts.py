"""What the ladder adds to a game's payload (through ``games.extensions``): once a rated game
has finished, each seat's rating change. ``pending`` until the rating task has run."""

from __future__ import annotations

from typing import Any

from games.models import Game, GameStatus
from ladder.models import RatingChange


def ratings_part(game: Game) -> dict[str, Any] | None:
    if not game.rated or game.status != GameStatus.FINISHED:
        return None
    changes = RatingChange.objects.filter(game=game).select_related("player").order_by("seat")
    seats = [
        {
            "seat": c.seat,
            "player": c.player.name,
            "before": str(c.before),
            "after": str(c.after),
            "delta": str(c.delta),
        }
        for c in changes
    ]
    return {"pending": not seats, "seats": seats}
