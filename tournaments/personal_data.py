"""The tournaments' part of a person's data (accounts.personal_data, docs/privacy.md).

**Export**: the events the person organised and their entries (with their partner).

**Erase**: their entries in events still registering or running are withdrawn (a game in
progress is still played, by the house bot, and scored), and the events they organised that
have not started are cancelled. Events under way or over stay, under the pseudonym; a name
or description quoting theirs is rewritten with it.
"""

from __future__ import annotations

import re
from typing import Any

from django.db.models import Q

from accounts import personal_data
from tournaments import services
from tournaments.models import Entrant, EntrantStatus, Status, Tournament


def _iso(value: Any) -> str | None:
    return value.isoformat() if value else None


def export_tournaments(subject: personal_data.Subject) -> dict[str, Any]:
    player = subject.player
    entries = (
        Entrant.objects.filter(Q(player_a=player) | Q(player_b=player))
        .select_related("tournament", "player_a", "player_b")
        .order_by("registered_at")
    )
    return {
        "organised": [
            {"name": t.name, "description": t.description, "status": t.status}
            for t in Tournament.objects.filter(organiser=player).order_by("pk")
        ],
        "entries": [
            {
                "tournament": e.tournament.name,
                "entrant": e.name,
                "status": e.status,
                "registered_at": _iso(e.registered_at),
                "withdrawn_at": _iso(e.withdrawn_at),
            }
            for e in entries
        ],
    }


def erase_tournaments(erasure: personal_data.Erasure) -> None:
    player = erasure.player
    open_entries = Entrant.objects.filter(
        Q(player_a=player) | Q(player_b=player),
        status__in=[EntrantStatus.ACTIVE, EntrantStatus.PENDING],
        tournament__status__in=[Status.REGISTERING, Status.RUNNING],
    )
    for tournament_id in list(open_entries.values_list("tournament_id", flat=True)):
        services.entrant_withdraw(tournament_id=tournament_id, player=player)
        erasure.count("tournament_entries_withdrawn", 1)
    waiting = Tournament.objects.filter(organiser=player, status=Status.REGISTERING)
    for tournament_id in list(waiting.values_list("pk", flat=True)):
        services.tournament_cancel(tournament_id=tournament_id, by=player)
        erasure.count("tournaments_cancelled", 1)
    names = erasure.names()
    for t in Tournament.objects.filter(organiser=player):
        name, description = t.name, t.description
        for old, new in names.items():
            pattern = rf"(?<![\w-]){re.escape(old)}(?![\w-])"
            name = re.sub(pattern, new, name, flags=re.IGNORECASE)
            description = re.sub(pattern, new, description, flags=re.IGNORECASE)
        if (name, description) != (t.name, t.description):
            Tournament.objects.filter(pk=t.pk).update(name=name[:100], description=description)


def install() -> None:
    personal_data.register("tournaments", export=export_tournaments, erase=erase_tournaments)
