"""The ladder's read-only API under /api/v1/ladder/ (open to everyone)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.permissions import PUBLIC
from backalley_site.errors import DomainError
from ladder import selectors
from ladder.api import serializers as s
from ladder.api.filters import PairStandingsFilter, StandingsFilter
from ladder.models import PairRating, PlayerRating, RatingChange

NAME = OpenApiParameter("name", str, OpenApiParameter.PATH, description="Player name (any case).")


class LadderPagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200


class RankedPagination(LadderPagination):
    """Numbers the rows of a page by their place in the whole (filtered) list."""

    def paginate_queryset(self, queryset: Any, request: Request, view: Any = None) -> Any:
        rows: Any = super().paginate_queryset(queryset, request, view)
        if rows is not None and self.page is not None:
            for offset, row in enumerate(rows):
                row.rank = self.page.start_index() + offset
        return rows


@extend_schema(tags=["ladder"], summary="The ladder: players by rating")
class StandingsView(generics.ListAPIView[PlayerRating]):
    scopes = PUBLIC
    serializer_class = s.StandingSerializer
    filterset_class = StandingsFilter
    pagination_class = RankedPagination
    queryset = PlayerRating.objects.none()  # the filter set builds the real one

    def get_queryset(self) -> QuerySet[PlayerRating]:
        return selectors.standings()


@extend_schema(tags=["ladder"], summary="The pair ladder: partnerships by pair rating")
class PairStandingsView(generics.ListAPIView[PairRating]):
    scopes = PUBLIC
    serializer_class = s.PairStandingSerializer
    filterset_class = PairStandingsFilter
    pagination_class = RankedPagination
    queryset = PairRating.objects.none()

    def get_queryset(self) -> QuerySet[PairRating]:
        return selectors.pair_standings()


@extend_schema(
    tags=["ladder"],
    summary="A player's rating",
    parameters=[NAME],
    responses=s.PlayerCardSerializer,
)
class PlayerRatingView(APIView):
    scopes = PUBLIC

    def get(self, request: Request, name: str) -> Response:
        card = selectors.player_card(selectors.player_by_name(name))
        return Response(s.PlayerCardSerializer(card).data)


@extend_schema(
    tags=["ladder"], summary="A player's rating history (oldest first)", parameters=[NAME]
)
class PlayerHistoryView(generics.ListAPIView[RatingChange]):
    scopes = PUBLIC
    serializer_class = s.RatingChangeSerializer
    pagination_class = LadderPagination
    filter_backends: list[Any] = []
    queryset = RatingChange.objects.none()

    def get_queryset(self) -> QuerySet[RatingChange]:
        player = selectors.player_by_name(self.kwargs["name"])
        return selectors.history(player).select_related("game")


@extend_schema(
    tags=["ladder"],
    summary="A player's recent games (latest first)",
    parameters=[
        NAME,
        OpenApiParameter("limit", int, description="How many games (1-100, default 20)."),
    ],
    responses=s.RecentGameSerializer(many=True),
)
class PlayerGamesView(APIView):
    scopes = PUBLIC

    def get(self, request: Request, name: str) -> Response:
        player = selectors.player_by_name(name)
        raw = request.query_params.get("limit", "20")
        if not raw.isdigit() or not 1 <= int(raw) <= 100:
            raise DomainError(
                "bad_limit", _("limit must be a whole number from 1 to 100."), extra={"limit": raw}
            )
        limit = int(raw)
        games = selectors.recent_games(player, limit=limit)
        return Response(s.RecentGameSerializer(games, many=True).data)
