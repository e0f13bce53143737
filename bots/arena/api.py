"""The arena API: the leaderboard and bot cards (open to everyone) under /api/v1/arena/, and
a bot's arena settings for its owner under /api/v1/bots/{name}/arena/."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.permissions import PUBLIC
from backalley_site.api_schema import ErrorSerializer
from bots import selectors as bot_selectors
from bots.api.serializers import BotFaultSerializer
from bots.api.views import _OwnerView
from bots.arena import selectors, services
from bots.arena.models import ArenaEntry
from ladder import selectors as ladder_selectors
from ladder.api.serializers import RecentGameSerializer

ERRORS = {code: ErrorSerializer for code in (400, 401, 403, 404)}


class StandingSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    owner = serializers.CharField()
    kind = serializers.CharField()
    description = serializers.CharField()
    rating = serializers.DecimalField(max_digits=10, decimal_places=4)
    provisional = serializers.BooleanField()
    rated_games = serializers.IntegerField(help_text="Rated games on the ladder (all kinds).")
    opted_in = serializers.BooleanField()
    benched_until = serializers.DateTimeField(allow_null=True)
    bench_reason = serializers.CharField()
    games = serializers.IntegerField(help_text="Finished arena games.")
    pairs = serializers.IntegerField(help_text="Scored duplicate pairs.")
    score = serializers.FloatField(
        allow_null=True,
        help_text="Duplicate score: mean margin per game against the other "
        "table on the same cards.",
    )
    score_low = serializers.FloatField(allow_null=True, help_text="95% interval (2+ pairs).")
    score_high = serializers.FloatField(allow_null=True)
    fault_rate = serializers.FloatField(allow_null=True, help_text="Faulted turns / turns.")


class RankedStandingSerializer(StandingSerializer):
    rank = serializers.IntegerField()


class PairSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="pk")
    games = serializers.SerializerMethodField()
    status = serializers.CharField()
    score = serializers.FloatField(allow_null=True, help_text="This bot's duplicate score.")
    created_at = serializers.DateTimeField()

    def get_games(self, pair: Any) -> list[str]:
        return [pair.game_a.public_id, pair.game_b.public_id]


class BotCardSerializer(StandingSerializer):
    rating_history = serializers.ListField(
        child=serializers.ListField(child=serializers.FloatField()),
        help_text="[game number, rating after] points of the rating chart.",
    )
    recent_games = RecentGameSerializer(many=True)
    recent_pairs = PairSerializer(many=True)
    faults = BotFaultSerializer(
        many=True, allow_null=True, help_text="The fault log: for the bot's owner only."
    )


class ArenaSettingsSerializer(serializers.ModelSerializer[ArenaEntry]):
    class Meta:
        model = ArenaEntry
        fields = ["opted_in", "max_concurrent", "max_per_day", "benched_until", "bench_reason"]
        read_only_fields = ["benched_until", "bench_reason"]


class ArenaSettingsUpdateSerializer(serializers.Serializer[Any]):
    opted_in = serializers.BooleanField(required=False)
    max_concurrent = serializers.IntegerField(required=False, help_text="Even, 2 to 64.")
    max_per_day = serializers.IntegerField(required=False, help_text="Even, 2 to 1000.")


class LeaderboardPagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200


class LeaderboardView(generics.GenericAPIView):  # type: ignore[type-arg]
    """Bots in the arena by ladder rating, with their duplicate score and fault rate."""

    scopes = PUBLIC
    pagination_class = LeaderboardPagination

    @extend_schema(responses={200: RankedStandingSerializer(many=True), **ERRORS})
    def get(self, request: Request) -> Response:
        page: Any = self.paginate_queryset(selectors.leaderboard())
        start = self.paginator.page.start_index()  # type: ignore[union-attr]
        rows = [{**vars(s), "rank": start + i} for i, s in enumerate(selectors.standings(page))]
        return self.get_paginated_response(RankedStandingSerializer(rows, many=True).data)


def bot_card(bot: Any, *, viewer: Any) -> dict[str, Any]:
    """A bot's arena card: its standing, chart points, recent games and pairs, and (for its
    owner) its fault log."""
    entry = selectors.entry_of(bot)
    mine = viewer is not None and viewer.is_authenticated and bot.player.owner_id == viewer.pk
    pairs = selectors.recent_pairs(bot)
    for pair in pairs:
        side_a = bot.pk in (pair.bot_0_id, pair.bot_2_id)
        pair.score = None if pair.score_a is None else (pair.score_a if side_a else -pair.score_a)
    return {
        **vars(selectors.standing(bot, entry)),
        "rating_history": [[n, float(r)] for n, r in ladder_selectors.history_points(bot.player)],
        "recent_games": ladder_selectors.recent_games(bot.player, limit=10),
        "recent_pairs": pairs,
        "faults": selectors.fault_log(bot) if mine else None,
    }


class BotCardView(APIView):
    scopes = PUBLIC

    @extend_schema(responses={200: BotCardSerializer, **ERRORS})
    def get(self, request: Request, name: str) -> Response:
        """A bot's arena card; its fault log is shown to its owner only."""
        card = bot_card(selectors.bot_by_name(name), viewer=request.user)
        return Response(BotCardSerializer(card).data)


class ArenaSettingsView(_OwnerView):
    @extend_schema(responses={200: ArenaSettingsSerializer, **ERRORS})
    def get(self, request: Request, name: str) -> Response:
        """Your bot's arena settings (a bot never opted in is shown opted out)."""
        bot = bot_selectors.bot_of(request.user, name)
        entry = selectors.entry_of(bot) or ArenaEntry(bot=bot)
        return Response(ArenaSettingsSerializer(entry).data)

    @extend_schema(
        request=ArenaSettingsUpdateSerializer, responses={200: ArenaSettingsSerializer, **ERRORS}
    )
    def patch(self, request: Request, name: str) -> Response:
        """Opt in or out (running games are played to the end) and set the limits: games at
        once and games per day, both even (arena games come in duplicate pairs)."""
        bot = bot_selectors.bot_of(request.user, name)
        data = ArenaSettingsUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = services.arena_settings_update(bot=bot, **data.validated_data)
        return Response(ArenaSettingsSerializer(entry).data)
