"""The ladder's part of a person's data (accounts.personal_data, docs/privacy.md).

**Export**: the person's rating, record and every rating change, game by game.

**Erase**: nothing. A rating is computed from finished games that other people played too;
removing it would change theirs. It stays under the pseudonym, like the games it comes from.
"""

from __future__ import annotations

from typing import Any

from accounts import personal_data
from ladder.models import PlayerRating, RatingChange


def export_ladder(subject: personal_data.Subject) -> dict[str, Any]:
    row = PlayerRating.objects.filter(player=subject.player).first()
    return {
        "rating": None
        if row is None
        else {
            "rating": str(row.rating),
            "games": row.games,
            "wins": row.wins,
            "draws": row.draws,
            "losses": row.losses,
        },
        "changes": [
            {
                "game": change.game.public_id,
                "seq": change.seq,
                "before": str(change.before),
                "after": str(change.after),
            }
            for change in RatingChange.objects.filter(player=subject.player)
            .select_related("game")
            .order_by("seq")
        ],
    }


def install() -> None:
    personal_data.register("ladder", export=export_ladder)
