"""Writes for daylongs: create an event, enter it, play its next board, score a finished
table, and end the window (docs/daylong.md).

Locks are taken in one order: the event row, then a board instance's row, then a game's
row (inside the games services). Scoring a table holds its instance's row, so the tables
of one instance are rescored one finish at a time and each finish is counted once.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from datetime import date, datetime, timedelta
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Player
from backalley_engine.errors import BadSchedule
from backalley_engine.schedule import Schedule
from bots import house
from daylong import scoring, selectors
from daylong.errors import (
    AllBoardsPlayed,
    AlreadyEntered,
    BadEvent,
    CannotEnter,
    EventNotFound,
    EventNotOpen,
    NotEntered,
)
from daylong.models import Board, BoardInstance, Entry, Event, Table, TableStatus
from games.models import Game, GameStatus
from games.services import deal_set_close, deal_set_create, game_call_off, game_create

# The daily event: the 25 deals of a whole game's schedule cut into five boards of five
# deals, so a day's boards hold every hand size once (13 cards down to 1 and back).
DAILY_BOARDS: tuple[tuple[int, int], ...] = ((1, 5), (6, 10), (11, 15), (16, 20), (21, 25))
DEFAULT_WINDOW = timedelta(hours=24)
DEFAULT_POOL = 4
MAX_BOARDS = 12
MAX_POOL = 16
KIND = "daylong"
# How an instance is drawn for an entrant (a test passes a chooser of its own).
choose_instance: Callable[[Sequence[BoardInstance]], BoardInstance] = secrets.choice


# --- creating events ----------------------------------------------------------------------


def event_create(
    *,
    title: str,
    boards: Sequence[tuple[int, int]] = DAILY_BOARDS,
    starts_at: datetime | None = None,
    window: timedelta = DEFAULT_WINDOW,
    partner_strength: str = house.DEFAULT_STRENGTH,
    opponent_strength: str = house.DEFAULT_STRENGTH,
    rated: bool = False,
    pool_size: int = DEFAULT_POOL,
    daily_for: date | None = None,
) -> Event:
    """An event of ``boards`` (each a run of deals, first to last), open for ``window`` from
    ``starts_at`` (now), with ``pool_size`` instances of each board, each an open deal set."""
    runs = _clean_boards(boards)
    for strength in (partner_strength, opponent_strength):
        if strength not in house.STRENGTHS:
            raise BadEvent(
                message=_("A bots' strength is one of %(value)s.")
                % {"value": ", ".join(house.STRENGTHS)},
                extra={"strength": strength},
            )
    if not 1 <= pool_size <= MAX_POOL:
        raise BadEvent(
            message=_("A pool holds 1 to %(max)s versions of each stage.") % {"max": MAX_POOL},
            extra={"pool_size": pool_size},
        )
    if rated and not all(run.is_whole_game for run in runs):
        raise BadEvent(message=_("Only a daylong whose stages are whole games can be rated."))
    if window <= timedelta(0):
        raise BadEvent(message=_("A daylong must stay open for some time."))
    starts_at = starts_at or timezone.now()
    with transaction.atomic():
        event = Event.objects.create(
            title=title[:100],
            starts_at=starts_at,
            ends_at=starts_at + window,
            partner_strength=partner_strength,
            opponent_strength=opponent_strength,
            rated=rated,
            pool_size=pool_size,
            daily_for=daily_for,
        )
        for number, run in enumerate(runs, start=1):
            board = Board.objects.create(
                event=event, number=number, first_deal=run.first, last_deal=run.last
            )
            BoardInstance.objects.bulk_create(
                BoardInstance(
                    board=board, number=i, deal_set=deal_set_create(kind=KIND, closed=False)
                )
                for i in range(1, pool_size + 1)
            )
    return event


def _clean_boards(boards: Sequence[tuple[int, int]]) -> list[Schedule]:
    if not 1 <= len(boards) <= MAX_BOARDS:
        raise BadEvent(
            message=_("A daylong has 1 to %(max)s stages.") % {"max": MAX_BOARDS},
            extra={"boards": len(boards)},
        )
    runs = []
    for first, last in boards:
        try:
            runs.append(Schedule(first, last))
        except BadSchedule as exc:
            raise BadEvent(message=exc.message, extra=exc.extra) from exc
    return runs


def daily_event_ensure(*, day: date) -> Event:
    """The daily event of ``day`` (UTC), made on the first call; the beat may call it twice."""
    found = Event.objects.filter(daily_for=day).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            # Open from now for the default window (the beat makes it just after midnight).
            return event_create(title=f"Daylong {day.isoformat()}", daily_for=day)
    except IntegrityError:  # another beat run made it first
        return Event.objects.get(daily_for=day)


# --- entering and playing -----------------------------------------------------------------


def _controller(player: Player) -> int | None:
    """The account behind a player: the person's user, or the bot's owner."""
    return player.owner_id if player.is_bot else player.user_id


def entry_create(*, event_id: int, player: Player) -> Entry:
    """Enter ``player`` (a person or a bot, never a house bot) in an open event, once."""
    event = selectors.event_get(event_id=event_id)
    _check_open(event, timezone.now())
    if player.is_house:
        raise CannotEnter(message=_("The club's house bots fill the tables; they do not enter."))
    if Player.objects.filter(pk=player.pk, retired_at__isnull=False).exists():
        raise CannotEnter(
            message=_("%(name)s was deleted by its owner and plays no more games.")
            % {"name": player.name}
        )
    try:
        with transaction.atomic():
            return Entry.objects.create(event=event, player=player)
    except IntegrityError:
        raise AlreadyEntered(
            message=_("%(name)s has already entered this daylong.") % {"name": player.name}
        ) from None


def _check_open(event: Event, now: datetime) -> None:
    if event.closed_at is not None or now >= event.ends_at:
        raise EventNotOpen(message=_("This daylong has closed."))
    if now < event.starts_at:
        raise EventNotOpen(message=_("This daylong has not opened yet."))


def board_play_next(*, event_id: int, player: Player) -> Table:
    """The entrant's table now: the board being played (to come back to it), else a new
    table for the next board, dealt from one of its instances drawn at random, with three
    house bots. The entrant sits in seat 0, the partner bot opposite."""
    with transaction.atomic():
        try:
            # Locked so that the window's end (which locks it too) sees every table.
            event = Event.objects.select_for_update().get(pk=event_id)
        except Event.DoesNotExist:
            raise EventNotFound(
                message=_("No daylong %(event_id)s.") % {"event_id": event_id}
            ) from None
        entry = Entry.objects.filter(event=event, player=player).first()
        if entry is None:
            raise NotEntered(message=_("Enter the daylong first."))
        playing = (
            Table.objects.filter(entry=entry, status=TableStatus.PLAYING)
            .select_related("game", "board")
            .first()
        )
        if playing is not None:
            return playing
        _check_open(event, timezone.now())
        done = set(Table.objects.filter(entry=entry).values_list("board_id", flat=True))
        board = Board.objects.filter(event=event).exclude(pk__in=done).order_by("number").first()
        if board is None:
            raise AllBoardsPlayed(message=_("You have played every stage of this daylong."))
        instance = _draw_instance(board, player)
        bots = _house_table(event)
        options: dict[str, object] = {"rated": event.rated}
        if not Schedule(board.first_deal, board.last_deal).is_whole_game:
            options["schedule"] = board.schedule
        # Seat 0 the entrant, 2 the partner, 1 and 3 the opponents.
        game = game_create(
            creator=player,
            seats=[player, bots[1], bots[0], bots[2]],
            options=options,
            deal_set=instance.deal_set,
        )
        return Table.objects.create(entry=entry, board=board, instance=instance, game=game)


def _draw_instance(board: Board, player: Player) -> BoardInstance:
    """One of the board's instances at random, but not one that the same account (the
    person, or the bot's owner, through another of their players) already holds when
    another is left: one account never plays the same cards twice."""
    instances = list(BoardInstance.objects.filter(board=board).select_related("deal_set"))
    account = _controller(player)
    if account is not None:
        held = set(
            Table.objects.filter(board=board)
            .filter(Q(entry__player__user_id=account) | Q(entry__player__owner_id=account))
            .values_list("instance_id", flat=True)
        )
        fresh = [i for i in instances if i.pk not in held]
        instances = fresh or instances
    return choose_instance(instances)


def _house_table(event: Event) -> list[Player]:
    """The partner, then two opponents, all house bots (distinct players)."""
    partner = house.house_players(strength=event.partner_strength, count=1)[0]
    opponents = [
        p
        for p in house.house_players(strength=event.opponent_strength, count=3)
        if p.pk != partner.pk
    ][:2]
    return [partner, *opponents]


# --- scoring ------------------------------------------------------------------------------


def table_finished(*, game_id: int) -> str:
    """Score the daylong table of a finished game and rescore its instance. Idempotent: a
    table already scored is left alone (outbox delivery is at least once)."""
    found = Table.objects.filter(game_id=game_id).values_list("pk", "instance_id").first()
    if found is None:
        return "not_a_daylong_table"
    table_id, instance_id = found
    with transaction.atomic():
        BoardInstance.objects.select_for_update().get(pk=instance_id)
        table = Table.objects.select_related("game").get(pk=table_id)
        if table.status != TableStatus.PLAYING:
            return "already_scored"
        if table.game.status != GameStatus.FINISHED:
            return "not_finished"
        _record_finish(table, table.game)
        instance_rescore(instance_id=instance_id)
    return "scored"


def _record_finish(table: Table, game: Game) -> None:
    table.status = TableStatus.FINISHED
    table.total = game.total_0
    table.finished_at = game.finished_at or timezone.now()
    table.save(update_fields=["status", "total", "finished_at"])


def instance_rescore(*, instance_id: int) -> None:
    """Compare every finished table of the instance again (the caller holds its lock)."""
    tables = list(
        Table.objects.filter(instance_id=instance_id, status=TableStatus.FINISHED).only(
            "pk", "total", "matchpoints", "top", "percent"
        )
    )
    scores = scoring.instance_scores({t.pk: t.total or 0 for t in tables})
    changed = []
    for t in tables:
        s = scores[t.pk]
        if (t.matchpoints, t.top, t.percent) != (s.matchpoints, s.top, s.percent):
            t.matchpoints, t.top, t.percent = s.matchpoints, s.top, s.percent
            changed.append(t)
    Table.objects.bulk_update(changed, ["matchpoints", "top", "percent"], batch_size=500)


# --- the window's end ---------------------------------------------------------------------


def events_due_close(*, now: datetime | None = None) -> list[int]:
    """Events whose window has ended and that are not closed yet."""
    now = now or timezone.now()
    return list(
        Event.objects.filter(closed_at__isnull=True, ends_at__lte=now)
        .order_by("ends_at")
        .values_list("pk", flat=True)
    )


def event_close(*, event_id: int, now: datetime | None = None) -> str:
    """End the window: every table still being played is called off and scores 0% for its
    entrant (a game finished meanwhile is scored as finished); the instances' deal sets
    close, so the seeds and every table's record become public; the final standings are
    written. Idempotent: a closed event is left alone."""
    now = now or timezone.now()
    with transaction.atomic():
        event = Event.objects.select_for_update().filter(pk=event_id).first()
        if event is None:
            return "not_found"
        if event.closed_at is not None:
            return "already_closed"
        if event.ends_at > now:
            return "not_due"
        playing = list(
            Table.objects.filter(entry__event=event, status=TableStatus.PLAYING)
            .order_by("instance_id", "pk")
            .values_list("pk", "instance_id")
        )
        for table_id, instance_id in playing:
            _end_table(table_id, instance_id)
        for deal_set_id in BoardInstance.objects.filter(board__event=event).values_list(
            "deal_set_id", flat=True
        ):
            deal_set_close(deal_set_id=deal_set_id)
        lines = selectors.live_standings(event=event)
        entries = [Entry(pk=line.entry_id, rank=line.rank, percent=line.percent) for line in lines]
        Entry.objects.bulk_update(entries, ["rank", "percent"], batch_size=500)
        event.closed_at = now
        event.save(update_fields=["closed_at"])
    return "closed"


def _end_table(table_id: int, instance_id: int) -> None:
    BoardInstance.objects.select_for_update().get(pk=instance_id)
    table = Table.objects.get(pk=table_id)
    if table.status != TableStatus.PLAYING:
        return
    game = game_call_off(game_id=table.game_id)
    if game.status == GameStatus.FINISHED:  # its last move landed before the call-off
        _record_finish(table, game)
        instance_rescore(instance_id=instance_id)
        return
    table.status = TableStatus.UNFINISHED
    table.finished_at = game.finished_at or timezone.now()
    table.matchpoints = table.top = None
    table.percent = Decimal(0)
    table.save(update_fields=["status", "finished_at", "matchpoints", "top", "percent"])
