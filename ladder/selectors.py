"""Reads for the ladder: standings, a player's rating, history and recent games, pairs.

Every function returns a bounded number of rows with a fixed number of queries, whatever
the size of the ladder (the pages and the API rely on it; tests count the queries).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

from django.db.models import Prefetch, Q, QuerySet
from django.db.models.functions import Lower
from django.utils.translation import gettext as _

from accounts.models import Player
from backalley_engine.constants import partner_of
from backalley_site.errors import NotFoundError
from games import dealsets
from games.models import Game, GameStatus, Seat
from ladder import rating
from ladder.models import PairRating, PairRatingChange, PlayerRating, RatingChange

Kind = Literal["people", "bots", "all"]
KINDS: tuple[str, ...] = ("people", "bots", "all")
HISTORY_POINTS = 400  # the chart draws at most this many points


def standings(
    *, kind: str = "all", min_games: int = 0, include_provisional: bool = False
) -> QuerySet[PlayerRating]:
    """Rated players, best first (ties by player id). Provisional players only on request."""
    # The recent deltas are only for the writers; the pages show their sum (trend).
    qs = PlayerRating.objects.select_related("player").defer("recent", "updated_at")
    if kind == "people":
        qs = qs.filter(player__is_bot=False)
    elif kind == "bots":
        qs = qs.filter(player__is_bot=True)
    if not include_provisional:
        qs = qs.filter(games__gte=rating.PROVISIONAL_GAMES)
    if min_games:
        qs = qs.filter(games__gte=min_games)
    return qs.order_by("-rating", "player_id")


def pair_standings(
    *, min_games: int = 0, include_provisional: bool = False
) -> QuerySet[PairRating]:
    qs = PairRating.objects.select_related("team__player_low", "team__player_high").defer(
        "recent", "updated_at"
    )
    if not include_provisional:
        qs = qs.filter(games__gte=rating.PROVISIONAL_GAMES)
    if min_games:
        qs = qs.filter(games__gte=min_games)
    return qs.order_by("-rating", "team_id")


def rank_of(row: PlayerRating, *, kind: str = "all") -> int | None:
    """A player's place among established players of the same kind (None if provisional)."""
    if row.provisional:
        return None
    better = standings(kind=kind).filter(
        Q(rating__gt=row.rating) | Q(rating=row.rating, player_id__lt=row.player_id)
    )
    return better.count() + 1


def player_by_name(name: str) -> Player:
    try:
        # lower(name) = ..., so the unique index on lower(name) serves the look-up.
        return (
            Player.objects.select_related("ladder")
            .alias(lower_name=Lower("name"))
            .get(lower_name=name.lower())
        )
    except Player.DoesNotExist:
        raise NotFoundError(
            message=_("No player is called %(name)s.") % {"name": repr(name)}, extra={"name": name}
        ) from None


@dataclass(frozen=True)
class PlayerCard:
    """What the ladder shows about one player."""

    player: Player
    rating: Decimal
    games: int
    wins: int
    draws: int
    losses: int
    trend: Decimal
    provisional: bool
    rank: int | None


def player_card(player: Player) -> PlayerCard:
    row: PlayerRating | None = getattr(player, "ladder", None)
    if row is None:
        return PlayerCard(player, rating.START, 0, 0, 0, 0, Decimal(0), True, None)
    kind = "bots" if player.is_bot else "people"
    return PlayerCard(
        player,
        row.rating,
        row.games,
        row.wins,
        row.draws,
        row.losses,
        row.trend,
        row.provisional,
        rank_of(row, kind=kind),
    )


def history(player: Player) -> QuerySet[RatingChange]:
    """The player's rating changes, oldest first."""
    return RatingChange.objects.filter(player=player).order_by("seq")


def history_points(player: Player, limit: int = HISTORY_POINTS) -> list[tuple[int, Decimal]]:
    """(game number, rating after) for the chart, thinned evenly to at most `limit` points."""
    rows = list(history(player).values_list("after", flat=True))
    n = len(rows)
    if n <= limit:
        return [(i + 1, r) for i, r in enumerate(rows)]
    picks = sorted({round(i * (n - 1) / (limit - 1)) for i in range(limit)})
    return [(i + 1, rows[i]) for i in picks]


@dataclass(frozen=True)
class RecentGame:
    game: Game
    seat: int
    partner: str
    opponents: tuple[str, str]
    result: str | None  # "W", "D", "L" (from the player's point of view), None if unfinished
    change: RatingChange | None


def recent_games(player: Player, limit: int = 20) -> list[RecentGame]:
    """The player's latest games (finished first by finishing time, then the others).

    A game dealt from cards others may still be playing (a duplicate round's or a
    daylong's deal set whose seed is not yet public) is left out until the seed is: its
    result, or watching it, would tell those others about their own cards."""
    secret = dealsets.with_seed_public(Game.objects.filter(deal_set__isnull=False)).filter(
        **{dealsets.ANNOTATION: False}
    )
    query = (
        Seat.objects.filter(player=player)
        .exclude(game_id__in=secret.values("pk"))
        .select_related("game")
        .prefetch_related(Prefetch("game__seats", queryset=Seat.objects.select_related("player")))
        .order_by("-game__finished_at", "-game__created_at", "-game_id")[:limit]
    )
    seats = list(query)
    changes = {
        c.game_id: c
        for c in RatingChange.objects.filter(player=player, game_id__in=[s.game_id for s in seats])
    }
    out = []
    for seat in seats:
        names = {s.position: s.player.name for s in seat.game.seats.all()}
        pos = seat.position
        change = changes.get(seat.game_id)
        out.append(
            RecentGame(
                game=seat.game,
                seat=pos,
                partner=names.get(partner_of(pos), "?"),
                opponents=(names.get((pos + 1) % 4, "?"), names.get((pos + 3) % 4, "?")),
                result=_result(seat.game, pos, change),
                change=change,
            )
        )
    return out


def _result(game: Game, seat: int, change: RatingChange | None) -> str | None:
    if change is not None:
        return change.outcome
    if game.status != GameStatus.FINISHED:
        return None
    if game.winner is None:
        return "D"
    return "W" if game.winner == rating.SEAT_TEAM[seat] else "L"


def pair_history(team_id: int) -> QuerySet[PairRatingChange]:
    return PairRatingChange.objects.filter(team_id=team_id).order_by("seq")


def game_changes(game: Game) -> dict[str, Any]:
    """The rating changes one game made: by seat and by side."""
    people = {c.seat: c for c in RatingChange.objects.filter(game=game).select_related("player")}
    pairs = {c.side: c for c in PairRatingChange.objects.filter(game=game)}
    return {"seats": people, "sides": pairs}
