"""Reading finished games as the ladder sees them (`GameResult`), in rating order.

Both the rating task and `recompute_ratings` read games only through this module, so
they agree on which games count and in which order.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from datetime import datetime

from django.db.models import Q, QuerySet

from games.models import Game, GameStatus, Seat
from ladder.ledger import GameResult

CHUNK = 5000


def eligible_games() -> QuerySet[Game]:
    """Finished rated games, in the order they are rated: finishing time, then id."""
    return Game.objects.filter(
        status=GameStatus.FINISHED, rated=True, finished_at__isnull=False
    ).order_by("finished_at", "id")


def after_key(finished_at: datetime, game_id: int) -> Q:
    """Rows whose (finished_at, game) comes after the given game's in rating order."""
    return Q(finished_at__gt=finished_at) | Q(finished_at=finished_at, game_id__gt=game_id)


def up_to_key(finished_at: datetime, game_id: int) -> Q:
    """Games whose (finished_at, id) is at or before the given one."""
    return Q(finished_at__lt=finished_at) | Q(finished_at=finished_at, id__lte=game_id)


def seats_by_game(game_ids: Iterable[int] | None) -> dict[int, dict[int, tuple[int, bool]]]:
    """{game id: {position: (player id, abandoned)}} for the given games (None = all eligible).

    The clock marks a seat whose player abandoned the game (`Seat.abandoned_at`); the
    ladder rates that player as a loss (docs/ratings.md).
    """
    fields = ["game_id", "position", "player_id", "abandoned_at"]
    if game_ids is None:
        qs = Seat.objects.filter(
            game__status=GameStatus.FINISHED, game__rated=True, game__finished_at__isnull=False
        )
    else:
        qs = Seat.objects.filter(game_id__in=list(game_ids))
    out: dict[int, dict[int, tuple[int, bool]]] = defaultdict(dict)
    for row in qs.order_by().values_list(*fields).iterator(chunk_size=CHUNK):
        out[row[0]][row[1]] = (row[2], row[3] is not None)
    return out


def game_results(
    games: Iterable[tuple[int, datetime, int | None, int | None, int | None]],
    seats: dict[int, dict[int, tuple[int, bool]]],
) -> Iterator[tuple[GameResult, datetime]]:
    """Turn (id, finished_at, winner, team_0, team_1) rows and their seats into GameResults.

    A game without four seated players cannot be rated and is left out (by both paths).
    """
    for game_id, finished_at, winner, team_0, team_1 in games:
        table = seats.get(game_id, {})
        if sorted(table) != [0, 1, 2, 3]:
            continue
        players = (table[0][0], table[1][0], table[2][0], table[3][0])
        teams = (team_0, team_1) if team_0 is not None and team_1 is not None else None
        left = frozenset(pos for pos, (_, gone) in table.items() if gone)
        yield GameResult(game_id, players, winner, teams, left), finished_at


GAME_FIELDS = ("id", "finished_at", "winner", "team_0_id", "team_1_id")
