"""The daylongs' part of a person's data (accounts.personal_data, docs/privacy.md).

**Export**: the person's entries (the event, when entered, each board's
score and percentage, the final rank).

**Erase**: nothing to remove. An entry stays in its event's standings under the
pseudonym the erasure gives the player, as the games it played stay in their records.
"""

from __future__ import annotations

from typing import Any

from accounts import personal_data
from daylong.models import Entry, Table


def export_daylong(subject: personal_data.Subject) -> dict[str, Any]:
    entries = list(
        Entry.objects.filter(player=subject.player).select_related("event").order_by("pk")
    )
    tables = Table.objects.filter(entry__in=entries).select_related("board", "game")
    by_entry: dict[int, list[dict[str, Any]]] = {}
    for t in tables.order_by("entry_id", "board__number"):
        by_entry.setdefault(t.entry_id, []).append(
            {
                "board": t.board.number,
                "game": t.game.public_id,
                "status": t.status,
                "score": t.total,
                "percent": None if t.percent is None else str(t.percent),
            }
        )
    return {
        "entries": [
            {
                "event": e.event.title,
                "entered_at": e.entered_at.isoformat(),
                "rank": e.rank,
                "percent": None if e.percent is None else str(e.percent),
                "boards": by_entry.get(e.pk, []),
            }
            for e in entries
        ]
    }


def install() -> None:
    personal_data.register("daylong", export=export_daylong)
