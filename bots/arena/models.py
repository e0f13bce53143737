"""The arena's tables: one entry per bot that ever opted in, and one row per duplicate pair.

A pair is two rated games dealt from one seed; partnership A sits in seats 0 and 2 of game
``a`` and in seats 1 and 3 of game ``b``, so each partnership holds both sides of every deal.
The entry keeps the counters the matchmaker filters on (games in flight, games today) and
the running sums of the bot's duplicate scores, so the leaderboard needs no aggregate over
the pairs. Both move only in :mod:`bots.arena.services`, under row locks.
"""

from __future__ import annotations

import math

from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy

from bots.strategies.stats import t95

DEFAULT_MAX_CONCURRENT = 2
DEFAULT_MAX_PER_DAY = 48


class ArenaEntry(models.Model):
    """A bot's place in the arena: its owner's settings, its bench and its tallies."""

    bot = models.OneToOneField("bots.Bot", on_delete=models.CASCADE, related_name="arena")
    opted_in = models.BooleanField(default=False, db_index=True)
    # Limits, in games (a pair is two games, so both are even numbers).
    max_concurrent = models.PositiveSmallIntegerField(
        default=DEFAULT_MAX_CONCURRENT, validators=[MinValueValidator(2)]
    )
    max_per_day = models.PositiveIntegerField(
        default=DEFAULT_MAX_PER_DAY, validators=[MinValueValidator(2)]
    )
    # Counters the matchmaker filters on (moved with F() under the entry's row lock).
    in_flight = models.PositiveIntegerField(default=0)
    day = models.DateField(null=True, blank=True, help_text="The UTC day games_today counts.")
    games_today = models.PositiveIntegerField(default=0)
    # Benched (too many faults): no new games until benched_until.
    benched_at = models.DateTimeField(null=True, blank=True)
    benched_until = models.DateTimeField(null=True, blank=True)
    bench_reason = models.CharField(max_length=200, blank=True)
    benches = models.PositiveIntegerField(default=0)
    # Tallies over finished arena games and scored pairs.
    games = models.PositiveIntegerField(default=0)
    turns = models.PositiveIntegerField(default=0, help_text="Turns at the bot's seats.")
    faults = models.PositiveIntegerField(default=0, help_text="Turns the house played for it.")
    pairs = models.PositiveIntegerField(default=0)
    score_sum = models.FloatField(default=0.0)
    score_sumsq = models.FloatField(default=0.0)
    opted_in_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "bots"
        constraints = [
            models.CheckConstraint(
                condition=Q(max_concurrent__gte=2)
                & Q(max_per_day__gte=2)
                & Q(max_concurrent__lte=64)
                & Q(max_per_day__lte=1000),
                name="arena_limits_range",
            ),
        ]

    def __str__(self) -> str:
        return f"arena entry of bot {self.bot_id}"

    @property
    def fault_rate(self) -> float | None:
        return self.faults / self.turns if self.turns else None

    @property
    def duplicate_score(self) -> tuple[float, float, float] | None:
        """(mean, low, high): the mean duplicate margin per game with its 95% interval
        (Student t over pairs); None before a pair, infinite bounds after only one."""
        n = self.pairs
        if n == 0:
            return None
        mean = self.score_sum / n
        if n == 1:
            return mean, -math.inf, math.inf
        var = max(self.score_sumsq - n * mean * mean, 0.0) / (n - 1)
        half = t95(n - 1) * math.sqrt(var / n)
        return mean, mean - half, mean + half


class PairStatus(models.TextChoices):
    PLAYING = "playing", gettext_lazy("Being played")
    FINISHED = "finished", gettext_lazy("Both games finished")


class ArenaPair(models.Model):
    """Two games on one seed: A = (bot_0, bot_2) and B = (bot_1, bot_3).

    Game ``a`` seats bot_0..bot_3 in positions 0..3; game ``b`` seats bot_1, bot_0, bot_3,
    bot_2, so the partnerships swap sides and each plays both sides of the same cards.
    ``score_a`` is A's duplicate margin per game (B's is its negative): the mean of A's margin
    in game a and in game b, which is also A's total on each side of the cards minus what B
    made on the same side at the other table, averaged over the two sides.
    """

    seed = models.CharField(max_length=64)
    game_a = models.OneToOneField("games.Game", on_delete=models.PROTECT, related_name="arena_as_a")
    game_b = models.OneToOneField("games.Game", on_delete=models.PROTECT, related_name="arena_as_b")
    bot_0 = models.ForeignKey("bots.Bot", on_delete=models.PROTECT, related_name="+")
    bot_1 = models.ForeignKey("bots.Bot", on_delete=models.PROTECT, related_name="+")
    bot_2 = models.ForeignKey("bots.Bot", on_delete=models.PROTECT, related_name="+")
    bot_3 = models.ForeignKey("bots.Bot", on_delete=models.PROTECT, related_name="+")
    status = models.CharField(
        max_length=10, choices=PairStatus.choices, default=PairStatus.PLAYING, db_index=True
    )
    done_a = models.BooleanField(default=False)
    done_b = models.BooleanField(default=False)
    score_a = models.FloatField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        app_label = "bots"
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"arena pair {self.pk}"

    @property
    def bot_ids(self) -> tuple[int, int, int, int]:
        return (self.bot_0_id, self.bot_1_id, self.bot_2_id, self.bot_3_id)
