"""Serializers of the daylongs API: the input of enter and play, and the output shapes
(for the schema; the data is built directly from the selectors' answers)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from rest_framework import serializers

from daylong import selectors
from daylong.models import Entry, Event, Table
from daylong.selectors import Standings, TableRecord


def _percent(value: Decimal | None) -> str | None:
    return None if value is None else f"{value:.2f}"


class DaylongActAsSerializer(serializers.Serializer[Any]):
    player = serializers.CharField(
        required=False, help_text="You (default) or one of your bots, by name."
    )


class DaylongEventSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    title = serializers.CharField(help_text="In the reader's language (a daily one by its day).")
    state = serializers.ChoiceField(choices=["upcoming", "open", "closed"])
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField()
    closed_at = serializers.DateTimeField(
        allow_null=True, help_text="When the window's end was processed: standings final."
    )
    daily_for = serializers.DateField(allow_null=True)
    partner_strength = serializers.CharField()
    opponent_strength = serializers.CharField()
    rated = serializers.BooleanField()
    pool_size = serializers.IntegerField(help_text="Versions (deal sets) of each board.")
    boards = serializers.IntegerField()
    entries = serializers.IntegerField()


def event_data(event: Event) -> dict[str, Any]:
    n_boards = getattr(event, "n_boards", None)
    n_entries = getattr(event, "n_entries", None)
    return {
        "id": event.pk,
        "title": selectors.event_title(event),
        "state": selectors.event_state(event),
        "starts_at": event.starts_at.isoformat(),
        "ends_at": event.ends_at.isoformat(),
        "closed_at": None if event.closed_at is None else event.closed_at.isoformat(),
        "daily_for": None if event.daily_for is None else event.daily_for.isoformat(),
        "partner_strength": event.partner_strength,
        "opponent_strength": event.opponent_strength,
        "rated": event.rated,
        "pool_size": event.pool_size,
        "boards": event.boards.count() if n_boards is None else int(n_boards),
        "entries": event.entries.count() if n_entries is None else int(n_entries),
    }


class DaylongDealsSerializer(serializers.Serializer[Any]):
    first = serializers.IntegerField()
    last = serializers.IntegerField()


class DaylongBoardSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    deals = DaylongDealsSerializer()


class DaylongMineSerializer(serializers.Serializer[Any]):
    player = serializers.CharField()
    entered = serializers.BooleanField()
    next_board = serializers.IntegerField(
        allow_null=True, help_text="The board being played, else the next one; null when done."
    )
    playing = serializers.CharField(allow_null=True, help_text="The game being played.")


class DaylongEventDetailSerializer(DaylongEventSerializer):
    board_list = DaylongBoardSerializer(many=True)
    mine = DaylongMineSerializer(allow_null=True, help_text="The reader's entry (null: anonymous).")


def mine_data(player: Any, entry: Entry | None) -> dict[str, Any]:
    playing = None if entry is None else selectors.playing_table(entry=entry)
    return {
        "player": player.name,
        "entered": entry is not None,
        "next_board": None if entry is None else selectors.next_board(entry=entry),
        "playing": None if playing is None else playing.game.public_id,
    }


class DaylongEntrySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    event = serializers.IntegerField()
    player = serializers.CharField()
    entered_at = serializers.DateTimeField()


def entry_data(entry: Entry) -> dict[str, Any]:
    return {
        "id": entry.pk,
        "event": entry.event_id,
        "player": entry.player.name,
        "entered_at": entry.entered_at.isoformat(),
    }


class DaylongPlaySerializer(serializers.Serializer[Any]):
    board = serializers.IntegerField()
    deals = DaylongDealsSerializer()
    game = serializers.CharField(help_text="The game's public id: play it through the games API.")
    game_url = serializers.CharField()
    table_url = serializers.CharField(help_text="The table's page.")


def play_data(table: Table) -> dict[str, Any]:
    gid = table.game.public_id
    return {
        "board": table.board.number,
        "deals": table.board.schedule,
        "game": gid,
        "game_url": f"/api/v1/games/{gid}/",
        "table_url": f"/games/{gid}/",
    }


class DaylongStandingLineSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(allow_null=True)
    player = serializers.CharField()
    is_bot = serializers.BooleanField()
    boards = serializers.IntegerField(help_text="Boards counted in the percentage.")
    ended = serializers.IntegerField(help_text="Boards the entrant has ended.")
    percent = serializers.DecimalField(max_digits=6, decimal_places=2, allow_null=True)


class DaylongStandingsSerializer(serializers.Serializer[Any]):
    final = serializers.BooleanField()
    counted_boards = serializers.ListField(
        child=serializers.IntegerField(),
        help_text=(
            "While the window is open: the boards the reader has ended, the only ones "
            "counted; every board once final."
        ),
    )
    lines = DaylongStandingLineSerializer(many=True)


def standings_data(table: Standings) -> dict[str, Any]:
    return {
        "final": table.final,
        "counted_boards": table.counted,
        "lines": [
            {
                "rank": line.rank,
                "player": line.name,
                "is_bot": line.is_bot,
                "boards": line.boards,
                "ended": line.ended,
                "percent": _percent(line.percent),
            }
            for line in table.lines
        ],
    }


class DaylongBreakdownLineSerializer(serializers.Serializer[Any]):
    board = serializers.IntegerField()
    deals = DaylongDealsSerializer()
    status = serializers.ChoiceField(choices=["not_played", "playing", "finished", "unfinished"])
    game = serializers.CharField(allow_null=True)
    instance = serializers.IntegerField(allow_null=True, help_text="The version held.")
    score = serializers.IntegerField(allow_null=True, help_text="Your side's total.")
    matchpoints = serializers.DecimalField(max_digits=9, decimal_places=2, allow_null=True)
    top = serializers.DecimalField(max_digits=9, decimal_places=2, allow_null=True)
    percent = serializers.DecimalField(max_digits=6, decimal_places=2, allow_null=True)
    field_tables = serializers.IntegerField(
        allow_null=True, help_text="Finished tables of your version."
    )
    field_average = serializers.DecimalField(max_digits=9, decimal_places=2, allow_null=True)
    field_best = serializers.IntegerField(allow_null=True)


class DaylongBreakdownSerializer(serializers.Serializer[Any]):
    player = serializers.CharField()
    boards = DaylongBreakdownLineSerializer(many=True)


# A board not ended shows its state only: every result field is null.
RESULT_FIELDS = (
    "instance",
    "score",
    "matchpoints",
    "top",
    "percent",
    "field_tables",
    "field_average",
    "field_best",
)


def breakdown_data(player: Any, lines: list[dict[str, Any]]) -> dict[str, Any]:
    out = []
    for line in lines:
        item = {k: line[k] for k in ("board", "deals", "status", "game")}
        for k in RESULT_FIELDS:
            value = line.get(k)
            item[k] = f"{value:.2f}" if isinstance(value, Decimal) else value
        out.append(item)
    return {"player": player.name, "boards": out}


class DaylongTableRecordSerializer(serializers.Serializer[Any]):
    board = serializers.IntegerField()
    instance = serializers.IntegerField()
    player = serializers.CharField()
    is_bot = serializers.BooleanField()
    status = serializers.CharField()
    game = serializers.CharField()
    record_url = serializers.CharField(help_text="The game's record in the API.")
    score = serializers.IntegerField(allow_null=True)
    percent = serializers.DecimalField(max_digits=6, decimal_places=2, allow_null=True)
    commitment = serializers.CharField(help_text="The version's commitment, public throughout.")
    seed = serializers.CharField(
        allow_null=True, help_text="The version's seed (null for a table called off)."
    )


def tables_data(records: list[TableRecord]) -> list[dict[str, Any]]:
    return [
        {
            "board": r.board,
            "instance": r.instance,
            "player": r.player,
            "is_bot": r.is_bot,
            "status": r.status,
            "game": r.game,
            "record_url": f"/api/v1/games/{r.game}/record/",
            "score": r.score,
            "percent": _percent(r.percent),
            "commitment": r.commitment,
            "seed": r.seed,
        }
        for r in records
    ]
