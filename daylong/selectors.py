"""Reads for daylongs: the events, the standings and an entrant's breakdown, each in a
constant number of queries at any size.

What a reader may see (docs/daylong.md): the standings give each entrant's average
percentage and boards played, never a score; a board's scores (the entrant's, the field's
average and best) are shown to an entrant only for the boards they have finished.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.db.models import Avg, Count, Max, Q, QuerySet
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from accounts.models import Player
from daylong.errors import EventNotFound
from daylong.models import Board, Entry, Event, Table, TableStatus

DONE = (TableStatus.FINISHED, TableStatus.UNFINISHED)
CENT = Decimal("0.01")


def event_list(*, limit: int = 50) -> QuerySet[Event]:
    return Event.objects.annotate(
        n_entries=Count("entries", distinct=True), n_boards=Count("boards", distinct=True)
    ).order_by("-starts_at", "-id")[:limit]


def event_get(*, event_id: int) -> Event:
    try:
        return Event.objects.annotate(
            n_entries=Count("entries", distinct=True), n_boards=Count("boards", distinct=True)
        ).get(pk=event_id)
    except (Event.DoesNotExist, ValueError):
        raise EventNotFound(
            message=_("No daylong %(event_id)s.") % {"event_id": repr(event_id)},
            extra={"id": event_id},
        ) from None


def event_title(event: Event) -> str:
    """The event's title in the reader's language (a daily event is named by its day)."""
    if event.daily_for is not None:
        return _("Daylong of %(day)s") % {"day": formats.date_format(event.daily_for)}
    return event.title


def event_state(event: Event, now: datetime | None = None) -> str:
    """``upcoming``, ``open`` or ``closed`` (the window has ended, processed or not)."""
    now = now or timezone.now()
    if event.closed_at is not None or now >= event.ends_at:
        return "closed"
    return "upcoming" if now < event.starts_at else "open"


def current_daily(now: datetime | None = None) -> Event | None:
    """The open daily event (for the home page), if there is one."""
    now = now or timezone.now()
    return (
        Event.objects.filter(
            daily_for__isnull=False, starts_at__lte=now, ends_at__gt=now, closed_at__isnull=True
        )
        .order_by("-starts_at")
        .first()
    )


def boards_of(*, event: Event) -> list[Board]:
    return list(Board.objects.filter(event=event).order_by("number"))


def entry_of(*, event: Event, player: Player) -> Entry | None:
    return Entry.objects.filter(event=event, player=player).first()


@dataclass(slots=True)
class Line:
    """An entrant's line in the standings."""

    entry_id: int
    player_id: int
    name: str
    is_bot: bool
    boards: int
    percent: Decimal | None
    rank: int | None = None


def live_standings(*, event: Event) -> list[Line]:
    """The standings from the tables as they stand (one query): the average percentage
    over the boards each entrant has ended (a board not finished at the window's end
    counts 0%), ranked; entrants with no board ended come last, unranked."""
    done = Q(tables__status__in=DONE)
    rows = (
        Entry.objects.filter(event=event)
        .annotate(n=Count("tables", filter=done), avg=Avg("tables__percent", filter=done))
        .values_list("pk", "player_id", "player__name", "player__is_bot", "n", "avg")
    )
    lines = [
        Line(pk, pid, name, is_bot, n, None if avg is None else Decimal(avg).quantize(CENT))
        for pk, pid, name, is_bot, n, avg in rows
    ]
    return _ranked(lines)


def _ranked(lines: list[Line]) -> list[Line]:
    lines.sort(key=lambda ln: (ln.percent is None, -(ln.percent or 0), -ln.boards, ln.entry_id))
    previous: Decimal | None = None
    rank = 0
    for i, line in enumerate(lines, start=1):
        if line.percent is None:
            line.rank = None
            continue
        if line.percent != previous:
            rank, previous = i, line.percent
        line.rank = rank
    return lines


def standings(*, event: Event) -> list[Line]:
    """The final standings once the window's end was processed (written then), else live."""
    if event.closed_at is None:
        return live_standings(event=event)
    rows = (
        Entry.objects.filter(event=event)
        .annotate(n=Count("tables", filter=Q(tables__status__in=DONE)))
        .values_list("pk", "player_id", "player__name", "player__is_bot", "n", "percent", "rank")
    )
    lines = [Line(*row) for row in rows]
    lines.sort(key=lambda ln: (ln.rank is None, ln.rank or 0, ln.entry_id))
    return lines


def breakdown(*, entry: Entry) -> list[dict[str, Any]]:
    """The entrant's line for every board of the event (three queries). A board the entrant
    has ended shows their score and percentage and, from the tables that held the same
    instance, the field's average and best score; any other board shows only its state."""
    boards = boards_of(event=entry.event)
    tables = {
        t.board_id: t for t in Table.objects.filter(entry=entry).select_related("game", "instance")
    }
    ended = [t.instance_id for t in tables.values() if t.status in DONE]
    field: dict[int, dict[str, Any]] = {
        row["instance_id"]: dict(row)
        for row in Table.objects.filter(instance_id__in=ended, status=TableStatus.FINISHED)
        .values("instance_id")
        .annotate(avg=Avg("total"), best=Max("total"), n=Count("pk"))
    }
    out: list[dict[str, Any]] = []
    for board in boards:
        t = tables.get(board.pk)
        line: dict[str, Any] = {
            "board": board.number,
            "deals": {"first": board.first_deal, "last": board.last_deal},
            "status": "not_played" if t is None else t.status,
            "game": None if t is None else t.game.public_id,
        }
        if t is not None and t.status in DONE:
            f: dict[str, Any] = field.get(t.instance_id) or {}
            avg = f.get("avg")
            line.update(
                instance=t.instance.number,
                score=t.total,
                matchpoints=t.matchpoints,
                top=t.top,
                percent=t.percent,
                field_tables=f.get("n", 0),
                field_average=None if avg is None else Decimal(avg).quantize(CENT),
                field_best=f.get("best"),
            )
        out.append(line)
    return out


def next_board(*, entry: Entry) -> int | None:
    """The number of the board the entrant plays next (or is playing), None when done."""
    playing = (
        Table.objects.filter(entry=entry, status=TableStatus.PLAYING)
        .values_list("board__number", flat=True)
        .first()
    )
    if playing is not None:
        return playing
    return (
        Board.objects.filter(event_id=entry.event_id)
        .exclude(tables__entry=entry)
        .order_by("number")
        .values_list("number", flat=True)
        .first()
    )
