"""What the ladder API returns. Ratings are decimal strings with four places."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from ladder.models import PairRating, PlayerRating, RatingChange


class PlayerRefSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    is_bot = serializers.BooleanField()


class StandingSerializer(serializers.ModelSerializer[PlayerRating]):
    rank = serializers.IntegerField(read_only=True, help_text="Place in this filtered list.")
    player = PlayerRefSerializer()
    provisional = serializers.BooleanField()

    class Meta:
        model = PlayerRating
        fields = [
            "rank",
            "player",
            "rating",
            "provisional",
            "games",
            "wins",
            "draws",
            "losses",
            "trend",
        ]


class PairStandingSerializer(serializers.ModelSerializer[PairRating]):
    rank = serializers.IntegerField(read_only=True)
    players = serializers.SerializerMethodField()
    provisional = serializers.BooleanField()

    class Meta:
        model = PairRating
        fields = [
            "rank",
            "team_id",
            "players",
            "rating",
            "provisional",
            "games",
            "wins",
            "draws",
            "losses",
            "trend",
        ]

    def get_players(self, obj: PairRating) -> list[dict[str, Any]]:
        team = obj.team
        return [{"name": p.name, "is_bot": p.is_bot} for p in (team.player_low, team.player_high)]


class PlayerCardSerializer(serializers.Serializer[Any]):
    player = PlayerRefSerializer()
    rating = serializers.DecimalField(max_digits=10, decimal_places=4)
    provisional = serializers.BooleanField()
    rank = serializers.IntegerField(
        allow_null=True,
        help_text="Among established players of the same kind; null if provisional.",
    )
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    trend = serializers.DecimalField(max_digits=10, decimal_places=4)


class RatingChangeSerializer(serializers.ModelSerializer[RatingChange]):
    game = serializers.CharField(source="game.public_id")
    finished_at = serializers.DateTimeField(source="game.finished_at")
    outcome = serializers.CharField(help_text="W, D or L for this player.")

    class Meta:
        model = RatingChange
        fields = [
            "seq",
            "game",
            "finished_at",
            "seat",
            "before",
            "after",
            "delta",
            "k",
            "expected",
            "result",
            "outcome",
        ]


class RecentGameSerializer(serializers.Serializer[Any]):
    game = serializers.CharField(source="game.public_id")
    status = serializers.CharField(source="game.status")
    rated = serializers.BooleanField(source="game.rated")
    finished_at = serializers.DateTimeField(source="game.finished_at", allow_null=True)
    seat = serializers.IntegerField()
    partner = serializers.CharField()
    opponents = serializers.ListField(child=serializers.CharField())
    totals = serializers.SerializerMethodField()
    result = serializers.CharField(allow_null=True)
    delta = serializers.SerializerMethodField()

    def get_totals(self, obj: Any) -> list[int] | None:
        totals = obj.game.totals
        return list(totals) if totals else None

    def get_delta(self, obj: Any) -> str | None:
        return str(obj.change.delta) if obj.change else None
