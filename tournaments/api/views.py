"""The tournaments API under /api/v1/tournaments/: thin views over services and selectors."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.generics import ListAPIView
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from accounts.models import Player
from accounts.permissions import PLAY, PLAY_OR_BOT, PUBLIC
from accounts.services import player_for_user
from games.api.permissions import acting_player, player_named
from tournaments import selectors, services
from tournaments.api import serializers as s
from tournaments.errors import NotYourEntry
from tournaments.models import Format, Status, Tournament

TAGS = ["tournaments"]


def _acting(request: Request, name: str | None) -> Player:
    return acting_player(request, name, NotYourEntry)


def _detail(t: Tournament) -> dict[str, Any]:
    data = s.TournamentSerializer(t).data
    data["entrants_list"] = [s.entrant_data(e) for e in selectors.entrants(tournament=t)]
    return data


class _NoFormatOverride:
    URL_FORMAT_OVERRIDE = None

    def __getattr__(self, name: str) -> Any:
        return getattr(api_settings, name)


class FormatIsAFilter(DefaultContentNegotiation):
    """``?format=swiss`` filters the list here; it does not choose a renderer."""

    settings = _NoFormatOverride()  # type: ignore[assignment]


@extend_schema(tags=TAGS)
class TournamentListCreateView(ListAPIView):  # type: ignore[type-arg]
    serializer_class = s.TournamentSerializer
    content_negotiation_class = FormatIsAFilter

    scopes = {"GET": PUBLIC, "POST": PLAY}

    def get_queryset(self) -> Any:
        return selectors.tournament_list(
            status=self.request.query_params.get("status") or None,
            format=self.request.query_params.get("format") or None,
        )

    @extend_schema(
        summary="List tournaments",
        parameters=[
            OpenApiParameter("status", str, enum=Status.values),
            OpenApiParameter("format", str, enum=Format.values),
        ],
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        summary="Create a tournament (you organise it)",
        request=s.TournamentCreateSerializer,
        responses={201: s.TournamentSerializer},
    )
    def post(self, request: Request) -> Response:
        body = s.TournamentCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        fields = dict(body.validated_data)  # the time control is checked by the clock
        t = services.tournament_create(organiser=player_for_user(request.user), **fields)
        return Response(_detail(t), status=status.HTTP_201_CREATED)


@extend_schema(tags=TAGS, summary="A tournament, its conditions and entrants")
class TournamentDetailView(APIView):
    scopes = PUBLIC

    @extend_schema(responses=s.TournamentSerializer)
    def get(self, request: Request, pk: int) -> Response:
        return Response(_detail(selectors.tournament_get(tournament_id=pk)))


@extend_schema(tags=TAGS)
class RegisterView(APIView):
    scopes = PLAY_OR_BOT

    @extend_schema(
        summary="Enter yourself or your bot (with a partner in pairs events)",
        request=s.RegisterSerializer,
        responses={201: s.EntrantSerializer},
    )
    def post(self, request: Request, pk: int) -> Response:
        body = s.RegisterSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        player = _acting(request, body.validated_data.get("player"))
        partner_name = body.validated_data.get("partner")
        partner = player_named(partner_name) if partner_name else None
        entrant = services.entrant_register(
            tournament_id=pk, player=player, partner=partner, by=request.user
        )
        return Response(s.entrant_data(entrant), status=status.HTTP_201_CREATED)


@extend_schema(tags=TAGS)
class WithdrawView(APIView):
    scopes = PLAY_OR_BOT

    @extend_schema(
        summary="Withdraw (before the start, or between rounds)",
        request=s.ActAsSerializer,
        responses=s.EntrantSerializer,
    )
    def post(self, request: Request, pk: int) -> Response:
        body = s.ActAsSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        player = _acting(request, body.validated_data.get("player"))
        return Response(s.entrant_data(services.entrant_withdraw(tournament_id=pk, player=player)))


@extend_schema(tags=TAGS)
class ConfirmView(APIView):
    scopes = PLAY_OR_BOT

    @extend_schema(
        summary="Confirm a partnership you were named in",
        request=s.ActAsSerializer,
        responses=s.EntrantSerializer,
    )
    def post(self, request: Request, pk: int, entrant_id: int) -> Response:
        body = s.ActAsSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        player = _acting(request, body.validated_data.get("player"))
        selectors.tournament_get(tournament_id=pk)
        entrant = services.entrant_confirm(entrant_id=entrant_id, player=player)
        return Response(s.entrant_data(entrant))


@extend_schema(tags=TAGS)
class StartView(APIView):
    scopes = PLAY

    @extend_schema(summary="Start now (organiser)", request=None, responses=s.TournamentSerializer)
    def post(self, request: Request, pk: int) -> Response:
        t = services.tournament_start(tournament_id=pk, by=player_for_user(request.user))
        return Response(_detail(t))


@extend_schema(tags=TAGS)
class CancelView(APIView):
    scopes = PLAY

    @extend_schema(
        summary="Cancel before the start (organiser)",
        request=None,
        responses=s.TournamentSerializer,
    )
    def post(self, request: Request, pk: int) -> Response:
        t = services.tournament_cancel(tournament_id=pk, by=player_for_user(request.user))
        return Response(_detail(t))


@extend_schema(tags=TAGS, summary="Rounds: pairings, links to their games, results")
class RoundsView(APIView):
    scopes = PUBLIC

    @extend_schema(responses=s.RoundSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        t = selectors.tournament_get(tournament_id=pk)
        rounds = s.rounds_data(selectors.rounds_with_tables(tournament=t))
        return Response(s.RoundSerializer(rounds, many=True).data)


@extend_schema(tags=TAGS, summary="Standings, after a round or the latest")
class StandingsView(APIView):
    scopes = PUBLIC

    @extend_schema(
        parameters=[OpenApiParameter("after_round", int, description="Default: the latest.")],
        responses=s.StandingsSerializer,
    )
    def get(self, request: Request, pk: int) -> Response:
        t = selectors.tournament_get(tournament_id=pk)
        raw = request.query_params.get("after_round")
        after = int(raw) if raw and raw.isdigit() else None
        table = selectors.standings(tournament=t, after_round=after)
        return Response(s.standings_data(table))  # shaped as StandingsSerializer
