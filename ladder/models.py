"""The ladder's tables: current ratings, one row per rating change, and a marker per game.

Ratings and deltas are exact decimals with four places (see docs/ratings.md); everything
here can be rebuilt from the finished rated games by `manage.py recompute_ratings`.

These tables are derived data, written only by the ladder's services from the games they
reference, in the transaction that reads them. So their foreign keys are not database
constraints (`db_constraint=False`, deletions still cascade through the ORM): a rebuild
writes a million rows for 100,000 games, and per-row constraint triggers (each locking the
referenced game and player row) would cost more than the rest of the rebuild. Each index
here is one a read or a uniqueness rule needs; none is duplicated.
"""

from __future__ import annotations

from django.db import models

from ladder import rating


def _rating_field(**kwargs: object) -> models.DecimalField:  # type: ignore[type-arg]
    """Ratings and their changes: four decimal places (docs/ratings.md)."""
    return models.DecimalField(max_digits=10, decimal_places=4, **kwargs)  # type: ignore[arg-type]


class LadderState(models.Model):
    """A single row, locked by every writer so games are rated one at a time, in order.

    ``last_seq`` is the rating order of the latest rated game.
    """

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    last_seq = models.PositiveBigIntegerField(default=0)
    recomputed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"ladder at game #{self.last_seq}"


class Standings(models.Model):
    """Fields shared by a player's and a pair's current rating."""

    rating = _rating_field(default=rating.START)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    # The latest rating changes (newest last, as strings) and their sum, for the trend column.
    recent = models.JSONField(default=list, blank=True)
    trend = _rating_field(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True

    @property
    def provisional(self) -> bool:
        return rating.is_provisional(self.games)


class PlayerRating(Standings):
    player = models.OneToOneField(
        "accounts.Player",
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="ladder",
        db_constraint=False,
    )

    class Meta:
        indexes = [
            models.Index(fields=["-rating", "player"], name="ladder_player_rank"),
            models.Index(fields=["games"], name="ladder_player_games"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.rating}"


class PairRating(Standings):
    team = models.OneToOneField(
        "games.Team",
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="ladder",
        db_constraint=False,
    )

    class Meta:
        indexes = [models.Index(fields=["-rating", "team"], name="ladder_pair_rank")]

    def __str__(self) -> str:
        return f"pair {self.team_id}: {self.rating}"


class RatedGame(models.Model):
    """Marks a game as rated; ``seq`` is its place in the ladder's order (finishing order)."""

    game = models.OneToOneField(
        "games.Game",
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="ladder_rated",
        db_constraint=False,
    )
    seq = models.PositiveBigIntegerField(unique=True)
    finished_at = models.DateTimeField()
    rated_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["finished_at", "game"], name="ladder_rated_order")]

    def __str__(self) -> str:
        return f"game {self.game_id} rated #{self.seq}"


class Change(models.Model):
    """Fields shared by a player's and a pair's change from one game."""

    # Indexed by the unique (game, entity) constraint below.
    game = models.ForeignKey(
        "games.Game",
        on_delete=models.CASCADE,
        related_name="+",
        db_index=False,
        db_constraint=False,
    )
    seq = models.PositiveBigIntegerField(help_text="The game's place in the rating order.")
    before = _rating_field()
    after = _rating_field()
    delta = _rating_field()
    k = models.PositiveSmallIntegerField()
    expected = models.DecimalField(max_digits=7, decimal_places=6)
    result = models.DecimalField(max_digits=2, decimal_places=1)

    class Meta:
        abstract = True

    @property
    def outcome(self) -> str:
        return rating.result_label(self.result)


class RatingChange(Change):
    # Indexed by the (player, -seq) history index.
    player = models.ForeignKey(
        "accounts.Player",
        on_delete=models.CASCADE,
        related_name="+",
        db_index=False,
        db_constraint=False,
    )
    seat = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="ladder_change_once"),
        ]
        indexes = [models.Index(fields=["player", "-seq"], name="ladder_change_history")]

    def __str__(self) -> str:
        return f"game {self.game_id} player {self.player_id}: {self.delta:+}"


class PairRatingChange(Change):
    team = models.ForeignKey(
        "games.Team",
        on_delete=models.CASCADE,
        related_name="+",
        db_index=False,
        db_constraint=False,
    )
    side = models.PositiveSmallIntegerField(help_text="0 = seats 0 and 2, 1 = seats 1 and 3.")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "team"], name="ladder_pair_change_once"),
        ]
        indexes = [models.Index(fields=["team", "-seq"], name="ladder_pair_history")]

    def __str__(self) -> str:
        return f"game {self.game_id} pair {self.team_id}: {self.delta:+}"
