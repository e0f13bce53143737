"""Rebuild the whole ladder from the finished rated games, in memory, in one transaction.

The games are read once, rated by the same `Ledger` the task uses, and written back in
bulk; the ladder lock is held throughout, so no rating task interleaves.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from ladder import sources
from ladder.ledger import GameResult, Ledger, Tally
from ladder.models import (
    PairRating,
    PairRatingChange,
    PlayerRating,
    RatedGame,
    RatingChange,
)
from ladder.services import ladder_lock, standing_fields

BATCH = 10_000

Progress = Callable[[Iterable[Any], int], Iterable[Any]]


@dataclass(frozen=True)
class RecomputeSummary:
    games: int
    players: int
    pairs: int
    seconds: dict[str, float] = field(default_factory=dict)  # wall time by phase


class _Phases:
    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._last = time.perf_counter()

    def mark(self, name: str) -> None:
        now = time.perf_counter()
        self.seconds[name] = round(now - self._last, 3)
        self._last = now


def _rows(
    results: Iterable[tuple[GameResult, datetime]], book: Ledger
) -> Iterator[tuple[tuple[Any, ...], list[tuple[Any, ...]], list[tuple[Any, ...]]]]:
    """Rate each game and yield plain row tuples: marker, player changes, pair changes."""
    for seq, (result, finished_at) in enumerate(results, start=1):
        rated = book.rate(result)
        people = [
            (
                rated.game_id,
                seq,
                pid,
                seat,
                c.before,
                c.after,
                c.delta,
                int(c.k),
                c.expected,
                c.result,
            )
            for seat, (pid, c) in enumerate(rated.player_changes)
        ]
        pairs = [
            (
                rated.game_id,
                seq,
                tid,
                side,
                c.before,
                c.after,
                c.delta,
                int(c.k),
                c.expected,
                c.result,
            )
            for side, (tid, c) in enumerate(rated.pair_changes)
        ]
        yield (rated.game_id, seq, finished_at), people, pairs


CHANGE_COLUMNS = [
    "game_id",
    "seq",
    "{who}",
    "{where}",
    "before",
    "after",
    "delta",
    "k",
    "expected",
    "result",
]


def _columns(who: str, where: str) -> list[str]:
    return [c.format(who=who, where=where) for c in CHANGE_COLUMNS]


def _insert(model: Any, columns: list[str], rows: list[tuple[Any, ...]]) -> None:
    """Insert many rows: COPY on PostgreSQL, batched bulk_create elsewhere."""
    if not rows:
        return
    if connection.vendor == "postgresql":
        table = connection.ops.quote_name(model._meta.db_table)
        names = ", ".join(
            connection.ops.quote_name(model._meta.get_field(c.removesuffix("_id")).column)
            for c in columns
        )
        with connection.cursor() as cursor:
            raw = cursor.cursor  # the psycopg cursor under Django's wrapper
            with raw.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                # COPY's text format, built by hand: several times faster than write_row.
                # Every value here is a number, a decimal, a time or JSON of decimal
                # strings: none is NULL or holds a tab, newline or backslash.
                line = "\t".join(["%s"] * len(columns)) + "\n"
                for start in range(0, len(rows), BATCH):
                    copy.write("".join([line % row for row in rows[start : start + BATCH]]))
        return
    model.objects.bulk_create(
        (model(**dict(zip(columns, row, strict=True))) for row in rows), batch_size=BATCH
    )


def _standing_rows(key: str, tallies: dict[int, Tally]) -> tuple[list[str], list[tuple[Any, ...]]]:
    now = timezone.now()
    names = [key, "rating", "games", "wins", "draws", "losses", "recent", "trend", "updated_at"]
    rows = []
    for ident, tally in tallies.items():
        fields = standing_fields(tally)
        rows.append(
            (
                ident,
                fields["rating"],
                fields["games"],
                fields["wins"],
                fields["draws"],
                fields["losses"],
                _json(fields["recent"]),
                fields["trend"],
                now,
            )
        )
    return names, rows


def _json(value: Any) -> Any:
    # COPY takes the JSON column's text; the ORM path wants the Python value.
    return json.dumps(value) if connection.vendor == "postgresql" else value


def ladder_recompute(*, progress: Progress | None = None) -> RecomputeSummary:
    """Replace every rating, change and marker by a fresh pass over the games in order."""
    phases = _Phases()
    with transaction.atomic():
        if connection.vendor == "postgresql":
            # A rebuild can always be run again, so it need not wait for its WAL flush.
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL synchronous_commit = off")
        state = ladder_lock()
        games = list(sources.eligible_games().values_list(*sources.GAME_FIELDS))
        seats = sources.seats_by_game(None)
        phases.mark("read")
        book = Ledger()
        results: Iterable[tuple[GameResult, datetime]] = sources.game_results(games, seats)
        if progress is not None:
            results = progress(results, len(games))
        markers: list[tuple[Any, ...]] = []
        people: list[tuple[Any, ...]] = []
        pairs: list[tuple[Any, ...]] = []
        for marker, p, q in _rows(results, book):
            markers.append(marker)
            people += p
            pairs += q
        del seats, games
        phases.mark("rate")

        for model in (RatingChange, PairRatingChange, RatedGame, PlayerRating, PairRating):
            model.objects.all().delete()
        phases.mark("delete")
        now = timezone.now()
        _insert(
            RatedGame,
            ["game_id", "seq", "finished_at", "rated_at"],
            [(*m, now) for m in markers],
        )
        _insert(RatingChange, _columns("player_id", "seat"), people)
        _insert(PairRatingChange, _columns("team_id", "side"), pairs)
        _insert(PlayerRating, *_standing_rows("player_id", book.players))
        _insert(PairRating, *_standing_rows("team_id", book.pairs))
        state.last_seq = len(markers)
        state.recomputed_at = now
        state.save(update_fields=["last_seq", "recomputed_at"])
        if connection.vendor == "postgresql":
            # Fresh statistics, so the planner sees the new tables as they are.
            tables = [m._meta.db_table for m in (RatingChange, PairRatingChange, RatedGame,
                                                 PlayerRating, PairRating)]  # fmt: skip
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE " + ", ".join(tables))
        phases.mark("write")
    phases.mark("commit")
    return RecomputeSummary(len(markers), len(book.players), len(book.pairs), phases.seconds)
