"""The ladder's bookkeeping on plain data: who has which rating after which games.

Both paths that rate games go through `Ledger.rate`: the Celery task loads the six
entities of one game from the database into a ledger, and `recompute_ratings` keeps every
entity in one ledger while it walks all games in order. One code path, one arithmetic,
the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from ladder import rating
from ladder.rating import Change, Standing

#: How many of an entity's latest rating changes make its trend on the ladder.
TREND_GAMES = 10


@dataclass(frozen=True, slots=True)
class GameResult:
    """What the ladder needs to know about one finished rated game."""

    game_id: int
    players: tuple[int, int, int, int]  # player id by seat 0..3
    winner: int | None  # 0, 1, or None for a draw
    teams: tuple[int, int] | None = None  # partnership (Team) ids of team 0 and team 1
    abandoned: frozenset[int] = frozenset()  # seats whose player abandoned the game

    def __post_init__(self) -> None:
        if len(set(self.players)) != 4:
            raise ValueError(f"game {self.game_id}: four different players are needed")
        if self.teams is not None and self.teams[0] == self.teams[1]:
            raise ValueError(f"game {self.game_id}: the two partnerships must differ")

    @property
    def abandoned_teams(self) -> frozenset[int]:
        return frozenset(rating.SEAT_TEAM[seat] for seat in self.abandoned)


@dataclass(slots=True)
class Tally:
    """A player's or a pair's running state on the ladder."""

    rating: Decimal = rating.START
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    recent: list[Decimal] = field(default_factory=list)  # latest deltas, newest last

    @property
    def standing(self) -> Standing:
        return Standing(self.rating, self.games)

    @property
    def trend(self) -> Decimal:
        return sum(self.recent, Decimal(0))

    def add(self, change: Change) -> None:
        self.rating = change.after
        self.games += 1
        if change.result == rating.WIN:
            self.wins += 1
        elif change.result == rating.LOSS:
            self.losses += 1
        else:
            self.draws += 1
        self.recent.append(change.delta)
        if len(self.recent) > TREND_GAMES:
            del self.recent[0]


@dataclass(frozen=True, slots=True)
class RatedGame:
    """The changes one game made: (player id, change) by seat, (team id, change) by team."""

    game_id: int
    player_changes: list[tuple[int, rating.Change]]
    pair_changes: list[tuple[int, rating.Change]]


class Ledger:
    """Ratings of players and pairs, updated game by game in the order given."""

    def __init__(
        self,
        players: dict[int, Tally] | None = None,
        pairs: dict[int, Tally] | None = None,
    ) -> None:
        self.players: dict[int, Tally] = players if players is not None else {}
        self.pairs: dict[int, Tally] = pairs if pairs is not None else {}

    def player(self, player_id: int) -> Tally:
        tally = self.players.get(player_id)
        if tally is None:
            tally = self.players[player_id] = Tally()
        return tally

    def pair(self, team_id: int) -> Tally:
        tally = self.pairs.get(team_id)
        if tally is None:
            tally = self.pairs[team_id] = Tally()
        return tally

    def rate(self, game: GameResult) -> RatedGame:
        """Rate one game against the current tallies and move them."""
        seats = [self.player(pid) for pid in game.players]
        changes = rating.rate_game(seats, game.winner, game.abandoned)
        for tally, change in zip(seats, changes, strict=True):
            tally.add(change)
        pair_changes: list[tuple[int, rating.Change]] = []
        if game.teams is not None:
            pairs = [self.pair(tid) for tid in game.teams]
            results = rating.rate_pairs(pairs, game.winner, game.abandoned_teams)
            for tally, change in zip(pairs, results, strict=True):
                tally.add(change)
            pair_changes = list(zip(game.teams, results, strict=True))
        return RatedGame(game.game_id, list(zip(game.players, changes, strict=True)), pair_changes)
