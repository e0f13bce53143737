"""Finished games as records for everyone: a player's export and the nightly dump.

Only records that are public go out: the game is finished and its seed is public
(:mod:`games.dealsets`: every other table dealt from its cards is over and its deal set
closed), so a record exported here shows every hand and the seed, and nothing in it is
still hidden from anyone. A game being played, or finished while other tables still play
its cards, is left out until then.

Records are listed in the order they became public (:func:`with_public_at`), then by id.
That order only grows at its end: a game whose record becomes public later is listed after
every record already public, so a client that keeps its last cursor and asks again later
gets exactly the records it has not seen. Records public in the last
``GAMES_EXPORT_SETTLE_S`` seconds are held back, so that a move still committing (its
finish time taken a moment before its commit) cannot slip in behind a cursor handed out
meanwhile.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import (
    Case,
    DateTimeField,
    Exists,
    F,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    When,
)
from django.db.models.functions import Greatest
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Player
from games import dealsets, selectors, statecache
from games.errors import InvalidCursor
from games.models import Game, Seat

PUBLIC_AT = "public_at"
# Records built per trip to the database: a few seats, players and moves per game each.
CHUNK = 25
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_POSITION = re.compile(r"([0-9]{1,19})\.([0-9]{1,19})")


def with_public_at(qs: QuerySet[Game]) -> QuerySet[Game]:
    """``qs`` with when each game's record became public: its end, or for a game of a deal
    set the later of the set's close and the end of its last game (an aborted one too:
    ``finished_at`` is when it was called off). Meaningful only where
    :func:`games.dealsets.with_seed_public` says the seed is public."""
    last_end = (
        Game.objects.filter(deal_set_id=OuterRef("deal_set_id"))
        .order_by()
        .values("deal_set_id")
        .annotate(last=Max("finished_at"))
        .values("last")
    )
    return qs.annotate(
        **{
            PUBLIC_AT: Case(
                When(deal_set__isnull=True, then=F("finished_at")),
                default=Greatest(F("deal_set__closed_at"), Subquery(last_end)),
                output_field=DateTimeField(),
            )
        }
    )


def public_games(*, now: datetime | None = None) -> QuerySet[Game]:
    """Every game whose record is public (and settled: see the module), in export order."""
    now = now or timezone.now()
    settled = now - timedelta(seconds=settings.GAMES_EXPORT_SETTLE_S)
    qs = with_public_at(dealsets.with_seed_public(Game.objects.all()))
    return qs.filter(**{dealsets.ANNOTATION: True, f"{PUBLIC_AT}__lte": settled}).order_by(
        PUBLIC_AT, "pk"
    )


@dataclass(frozen=True)
class Position:
    """Where a page of records ends: the time its last record became public and its id.
    Handed to clients as an opaque cursor (:meth:`cursor`)."""

    public_at: datetime
    pk: int

    def cursor(self) -> str:
        micros = (self.public_at - _EPOCH) // timedelta(microseconds=1)
        return base64.urlsafe_b64encode(f"{micros}.{self.pk}".encode()).decode().rstrip("=")

    @classmethod
    def from_cursor(cls, text: str) -> Position:
        """The position of a cursor :meth:`cursor` wrote; anything else is
        :class:`InvalidCursor`."""
        try:
            raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)).decode("ascii")
        except (binascii.Error, ValueError):
            raw = ""
        match = _POSITION.fullmatch(raw)
        if match is None:
            raise InvalidCursor(
                message=_("This cursor was not given by this service: start without one."),
                extra={"cursor": text[:100]},
            )
        try:
            at = _EPOCH + timedelta(microseconds=int(match.group(1)))
        except OverflowError:
            raise InvalidCursor(
                message=_("This cursor was not given by this service: start without one."),
                extra={"cursor": text[:100]},
            ) from None
        return cls(public_at=at, pk=int(match.group(2)))


@dataclass(frozen=True)
class Filters:
    """Which of a player's public records to export (``None``: no condition)."""

    since: datetime | None = None  # finished at or after
    until: datetime | None = None  # finished before
    rated: bool | None = None
    with_bots: bool | None = None  # True: a bot sat at the table; False: people only


def player_games(
    *, player: Player, filters: Filters, now: datetime | None = None
) -> QuerySet[Game]:
    """The public records of the games where ``player`` sat, filtered, in export order."""
    qs = public_games(now=now).filter(seats__player=player)
    if filters.since is not None:
        qs = qs.filter(finished_at__gte=filters.since)
    if filters.until is not None:
        qs = qs.filter(finished_at__lt=filters.until)
    if filters.rated is not None:
        qs = qs.filter(rated=filters.rated)
    if filters.with_bots is not None:
        bots = Exists(Seat.objects.filter(game=OuterRef("pk"), player__is_bot=True))
        qs = qs.filter(bots if filters.with_bots else ~bots)
    return qs


@dataclass(frozen=True)
class Page:
    """The ids of one page of records in export order, where it ends, and whether more
    records were public when it was read."""

    ids: list[int]
    end: Position | None
    more: bool


def page(qs: QuerySet[Game], *, after: Position | None, limit: int) -> Page:
    """Up to ``limit`` games of ``qs`` (in export order) after ``after``: their ids only,
    so that a page holds no more than ids in memory until its records are written."""
    if after is not None:
        qs = qs.filter(
            Q(**{f"{PUBLIC_AT}__gt": after.public_at})
            | Q(**{PUBLIC_AT: after.public_at, "pk__gt": after.pk})
        )
    rows = list(qs.values_list("pk", PUBLIC_AT)[: limit + 1])
    more = len(rows) > limit
    rows = rows[:limit]
    end = Position(public_at=rows[-1][1], pk=rows[-1][0]) if rows else after
    return Page(ids=[pk for pk, _at in rows], end=end, more=more)


def records(ids: Iterable[int]) -> Iterator[dict[str, Any]]:
    """The whole record (docs/record-format.md) of each game of ``ids``, in that order, a
    chunk of games at a time. A game whose seed is not public is skipped (none is, for ids
    from :func:`public_games`: a public seed never becomes secret again)."""
    chunk: list[int] = []
    for pk in ids:
        chunk.append(pk)
        if len(chunk) == CHUNK:
            yield from _chunk_records(chunk)
            chunk = []
    if chunk:
        yield from _chunk_records(chunk)


def _chunk_records(ids: list[int]) -> Iterator[dict[str, Any]]:
    games = dealsets.with_seed_public(Game.objects.filter(pk__in=ids)).prefetch_related(
        "seats__player"
    )
    by_id = {g.pk: g for g in games}
    for pk in ids:
        game = by_id.get(pk)
        if game is None or not dealsets.seed_is_public(game):
            continue
        seats = sorted(game.seats.all(), key=lambda s: s.position)
        state = statecache.state_for(game, keep=False)
        yield selectors.game_record(game=game, seats=seats, seat=None, state=state)


def record_line(record: dict[str, Any]) -> bytes:
    """One NDJSON line: the record as compact JSON and a newline."""
    return (json.dumps(record, separators=(",", ":"), ensure_ascii=False) + "\n").encode()
