"""Reads for tournaments: lists, detail, rounds with their tables, standings, and the
history that pairing needs. Standings cost a constant number of queries at any size."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext as _

from games.selectors import seed_is_public
from tournaments import scoring
from tournaments.errors import TournamentNotFound
from tournaments.models import Entrant, EntrantStatus, Result, Round, Table, Tournament
from tournaments.pairing import History


def tournament_list(
    *, status: str | None = None, format: str | None = None
) -> QuerySet[Tournament]:
    qs = Tournament.objects.select_related("organiser").annotate(
        n_entrants=Count("entrants", filter=Q(entrants__status=EntrantStatus.ACTIVE))
    )
    if status:
        qs = qs.filter(status=status)
    if format:
        qs = qs.filter(format=format)
    return qs.order_by("-created_at", "-id")


def tournament_get(*, tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_related("organiser").get(pk=tournament_id)
    except (Tournament.DoesNotExist, ValueError):
        raise TournamentNotFound(
            message=_("No tournament %(tournament_id)s.") % {"tournament_id": repr(tournament_id)},
            extra={"id": tournament_id},
        ) from None


def entrants(*, tournament: Tournament) -> list[Entrant]:
    return list(
        Entrant.objects.filter(tournament=tournament)
        .select_related("player_a", "player_b")
        .order_by("id")
    )


def rounds_with_tables(*, tournament: Tournament) -> list[dict[str, Any]]:
    """Every round, its tables (game, who sat where, the results) and its byes."""
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    tables = list(
        Table.objects.filter(round__tournament=tournament)
        .select_related("game")
        .order_by("round__number", "number")
    )
    results = list(
        Result.objects.filter(round__tournament=tournament)
        .select_related("entrant__player_a", "entrant__player_b")
        .order_by("seat")
    )
    by_table: dict[int, list[Result]] = defaultdict(list)
    byes: dict[int, list[Result]] = defaultdict(list)
    for r in results:
        if r.table_id is None:
            byes[r.round_id].append(r)
        else:
            by_table[r.table_id].append(r)
    tables_of: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for t in tables:
        tables_of[t.round_id].append({"table": t, "game": t.game, "results": by_table[t.pk]})
    return [
        {
            "round": rd,
            "tables": tables_of[rd.pk],
            "byes": byes[rd.pk],
            "seed": _round_seed(rd, tables_of[rd.pk]),
        }
        for rd in rounds
    ]


def _round_seed(rd: Round, tables: list[dict[str, Any]]) -> str | None:
    """A duplicate round's seed once it is public: its tables are one deal set, so the
    games' own rule (``games.selectors.seed_is_public``) decides for the round."""
    if not rd.seed or not tables:
        return None
    game = tables[0]["game"]
    return rd.seed if game.seed == rd.seed and seed_is_public(game=game) else None


@dataclass
class Standings:
    tournament: Tournament
    after_round: int
    lines: list[scoring.Line]
    names: dict[int, str]
    statuses: dict[int, str]


def _result_rows(tournament: Tournament, after_round: int | None) -> list[dict[str, Any]]:
    qs = Result.objects.filter(round__tournament=tournament, scored=True)
    if after_round is not None:
        qs = qs.filter(round__number__lte=after_round)
    rows = qs.values("round__number", "entrant_id", "table_id", "seat", "bye").order_by(
        "round__number", "table_id", "seat"
    )
    return [dict(row) for row in rows]


def standings(*, tournament: Tournament, after_round: int | None = None) -> Standings:
    """The standings after ``after_round`` (default: every scored round), ranked with the
    event's tie-breaks. Three queries whatever the size of the event; the loop over the
    results is kept tight (tuples, ints) since it runs for every page view."""
    duplicate = tournament.is_duplicate
    qs = Result.objects.filter(round__tournament=tournament, scored=True)
    if after_round is not None:
        qs = qs.filter(round__number__lte=after_round)
    fields = ["entrant_id", "table_id", "seat", "bye", "half_points", "total", "round__number"]
    if duplicate:
        fields += ["matchpoints", "matchpoints_top"]
    rows = list(qs.order_by().values_list(*fields))
    people = list(
        Entrant.objects.filter(tournament=tournament)
        .exclude(status=EntrantStatus.PENDING)
        .values_list("id", "status", "player_a__name", "player_b__name")
    )
    lines = {pk: scoring.Line(pk) for pk, *_unused in people}
    names = {pk: a if b is None else f"{a} & {b}" for pk, _unused, a, b in people}
    statuses = {pk: st for pk, st, *_unused in people}
    at_table: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    last = 0
    for row in rows:
        entrant_id, table_id, seat, bye, half_points, total, number = row[:7]
        if number > last:
            last = number
        line = lines.get(entrant_id)
        if line is None:
            continue
        line.half_points += half_points
        if duplicate:
            line.matchpoints += row[7]
            line.top += row[8]
        if bye:
            line.byes += 1
        else:
            line.played += 1
            line.total += total
            at_table[table_id].append((entrant_id, seat % 2, half_points))
    scoring.tie_breaks(lines, at_table.values())
    ranked = scoring.rank(list(lines.values()), duplicate=duplicate)
    return Standings(tournament, after_round or last, ranked, names, statuses)


def pairing_histories(*, tournament: Tournament) -> list[History]:
    """The entrants still in the event, best ranked first, with what pairing needs."""
    table = standings(tournament=tournament)
    rows = _result_rows(tournament, None)
    seated: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        if row["table_id"] is not None:
            seated[row["table_id"]].append(row)
    opponents: dict[int, dict[int, int]] = defaultdict(dict)
    partners: dict[int, dict[int, int]] = defaultdict(dict)
    sides: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for rows_at in seated.values():
        for row in rows_at:
            me, side = row["entrant_id"], row["seat"] % 2
            sides[me][side] += 1
            for other in rows_at:
                if other["entrant_id"] == me:
                    continue
                book = partners if other["seat"] % 2 == side else opponents
                book[me][other["entrant_id"]] = book[me].get(other["entrant_id"], 0) + 1
    out = []
    for line in table.lines:
        if table.statuses.get(line.entrant_id) != EntrantStatus.ACTIVE:
            continue
        score = int(line.percent * line.played) if tournament.is_duplicate else line.half_points
        s0, s1 = sides[line.entrant_id]
        out.append(
            History(
                id=line.entrant_id,
                score=score,
                side0=s0,
                side1=s1,
                byes=line.byes,
                opponents=opponents[line.entrant_id],
                partners=partners[line.entrant_id],
            )
        )
    return out


def game_tournament(game_id: int) -> dict[str, Any] | None:
    """Which tournament, round and table a game belongs to (or None)."""
    row = (
        Table.objects.filter(game_id=game_id)
        .values("number", "round__number", "round__tournament_id", "round__tournament__name")
        .first()
    )
    if row is None:
        return None
    return {
        "id": row["round__tournament_id"],
        "name": row["round__tournament__name"],
        "round": row["round__number"],
        "table": row["number"],
    }


def percent_str(value: Decimal) -> str:
    return f"{value:.2f}%"
