"""Reads for daylongs: the events, the standings and an entrant's breakdown, each in a
constant number of queries at any size.

What a reader may see (docs/daylong.md): the standings give each entrant's average
percentage and boards ended, never a score, and while the window is open only over the
boards the reader has ended; a board's scores (the entrant's, the field's average and
best) are shown to an entrant only for the boards they have ended.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.db.models import Avg, Count, Max, Q, QuerySet
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from accounts.models import Player
from daylong.errors import EventNotFound, StillOpen
from daylong.models import Board, Entry, Event, Table, TableStatus
from games import dealsets
from games.models import Game

DONE = (TableStatus.FINISHED, TableStatus.UNFINISHED)
CENT = Decimal("0.01")


def events() -> QuerySet[Event]:
    """Every event, the latest first, with its entries and boards counted."""
    return Event.objects.annotate(
        n_entries=Count("entries", distinct=True), n_boards=Count("boards", distinct=True)
    ).order_by("-starts_at", "-id")


def event_list(*, limit: int = 50) -> QuerySet[Event]:
    return events()[:limit]


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
    """An entrant's line in the standings: ``percent`` is the average over ``boards`` (the
    boards counted), ``ended`` the boards the entrant has ended in all."""

    entry_id: int
    player_id: int
    name: str
    is_bot: bool
    boards: int
    percent: Decimal | None
    rank: int | None = None
    ended: int = 0


def ended_boards(*, entry: Entry | None) -> set[int]:
    """The boards (their ids) that ``entry`` has ended: finished, or called off at the end."""
    if entry is None:
        return set()
    return set(
        Table.objects.filter(entry=entry, status__in=DONE).values_list("board_id", flat=True)
    )


def live_standings(*, event: Event, boards: Collection[int] | None = None) -> list[Line]:
    """The standings from the tables as they stand (one query): the average percentage
    over the boards each entrant has ended (a board not finished at the window's end
    counts 0%), ranked; entrants with no board counted come last, unranked.

    ``boards`` (board ids) limits what is counted: a reader is shown the boards they have
    ended and no others (:func:`standings_for`); None counts every board (the final
    standings, written when the window ends)."""
    done = Q(tables__status__in=DONE)
    counted = done if boards is None else done & Q(tables__board_id__in=list(boards))
    rows = (
        Entry.objects.filter(event=event)
        .annotate(
            n=Count("tables", filter=counted),
            avg=Avg("tables__percent", filter=counted),
            ended=Count("tables", filter=done),
        )
        .values_list("pk", "player_id", "player__name", "player__is_bot", "n", "avg", "ended")
    )
    lines = [
        Line(
            pk,
            pid,
            name,
            is_bot,
            n,
            None if avg is None else Decimal(avg).quantize(CENT),
            ended=ended,
        )
        for pk, pid, name, is_bot, n, avg, ended in rows
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
    """The final standings, written when the window's end was processed. Before then there
    are none: what a reader sees of the live ones depends on the reader
    (:func:`standings_for`)."""
    if event.closed_at is None:
        return []
    done = Q(tables__status__in=DONE)
    rows = (
        Entry.objects.filter(event=event)
        .annotate(n=Count("tables", filter=done))
        .values_list("pk", "player_id", "player__name", "player__is_bot", "n", "percent", "rank")
    )
    lines = [Line(*row, ended=row[4]) for row in rows]
    lines.sort(key=lambda ln: (ln.rank is None, ln.rank or 0, ln.entry_id))
    return lines


@dataclass(slots=True)
class Standings:
    """What one reader is shown: the final standings once the window's end was processed;
    before then the live ones, counted over ``counted`` (the numbers of the boards the
    reader has ended; none for a reader who has ended none, or has not entered)."""

    final: bool
    counted: list[int]
    lines: list[Line]


def standings_for(*, event: Event, viewer: Player | None) -> Standings:
    """The standings as ``viewer`` (an entrant, anyone else, or nobody) may see them. While
    the window is open no reader learns a result of a board they have not ended: each
    entrant's average is over the boards the reader has ended (the same boards for every
    line, so the lines compare), never over the others; the boards ended are shown."""
    if event.closed_at is not None:
        return Standings(
            final=True,
            counted=[b.number for b in boards_of(event=event)],
            lines=standings(event=event),
        )
    entry = None if viewer is None else entry_of(event=event, player=viewer)
    mine = ended_boards(entry=entry)
    numbers = sorted(
        Board.objects.filter(pk__in=mine).values_list("number", flat=True) if mine else []
    )
    return Standings(final=False, counted=numbers, lines=live_standings(event=event, boards=mine))


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


def playing_table(*, entry: Entry) -> Table | None:
    """The entrant's table being played, if any (with its game and board)."""
    return (
        Table.objects.filter(entry=entry, status=TableStatus.PLAYING)
        .select_related("game", "board")
        .first()
    )


@dataclass(slots=True)
class TableRecord:
    """A table of a closed event, for anyone to check: its game and, when public, its seed."""

    board: int
    instance: int
    player: str
    is_bot: bool
    status: str
    game: str
    score: int | None
    percent: Decimal | None
    commitment: str
    seed: str | None


def tables_after_close(*, event: Event) -> list[TableRecord]:
    """Every table of the event with its game and seed, once the window's end was processed
    (one query). A seed is shown by the one rule of games (``seed_is_public``): a table
    called off at the window's end never shows its seed, which its version's finished
    tables do."""
    if event.closed_at is None:
        raise StillOpen(message=_("Every table's record is shown once the daylong has closed."))
    games = dealsets.with_seed_public(Game.objects.filter(daylong_table__entry__event=event))
    public = dict(games.values_list("pk", dealsets.ANNOTATION))
    rows = (
        Table.objects.filter(entry__event=event)
        .order_by("board__number", "instance__number", "entry_id")
        .values_list(
            "board__number",
            "instance__number",
            "entry__player__name",
            "entry__player__is_bot",
            "status",
            "game_id",
            "game__public_id",
            "total",
            "percent",
            "instance__deal_set__commitment",
            "instance__deal_set__seed",
        )
    )
    return [
        TableRecord(
            board=board,
            instance=instance,
            player=name,
            is_bot=is_bot,
            status=status,
            game=public_id,
            score=total,
            percent=percent,
            commitment=commitment,
            seed=seed if public.get(game_id) else None,
        )
        for (board, instance, name, is_bot, status, game_id, public_id, total, percent,
             commitment, seed) in rows
    ]  # fmt: skip


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
