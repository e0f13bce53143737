"""The daylongs API under /api/v1/daylong/: thin views over services and selectors.

What a reader is shown follows docs/daylong.md: the standings while the window is open are
counted over the boards the reader has ended, a breakdown is the reader's own (or their
bot's), and every table's record with its seed only once the window's end was processed.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import Player
from accounts.permissions import PLAY_OR_BOT, PUBLIC, READ, request_token
from accounts.services import player_for_user
from daylong import selectors, services
from daylong.api import serializers as s
from daylong.errors import NotEntered, NotYourPlayer
from games.api.permissions import acting_player, player_named, require_yours

TAGS = ["daylong"]
PLAYER = OpenApiParameter(
    "player", str, description="Whose view: you (default) or one of your bots, by name."
)


def _acting(request: Request, name: str | None) -> Player:
    return acting_player(request, name, NotYourPlayer)


def _reader(request: Request, name: str | None = None) -> Player | None:
    """Whose view a read shows: the player named (the caller or their bot), the bot of a
    token made for one bot, else the caller; None for an anonymous reader."""
    if not request.user.is_authenticated:
        return None
    token = request_token(request)
    one_bot = None if token is None else token.bot_id
    if name:
        player = player_named(name)
        require_yours(request, player, NotYourPlayer)
        if one_bot is not None and player.pk != one_bot:
            raise NotYourPlayer(
                message=_("This token reads for its own bot only."), extra={"name": player.name}
            )
        return player
    if one_bot is not None:
        return Player.objects.get(pk=one_bot)
    return player_for_user(request.user)


def _acting_name(request: Request) -> str | None:
    body = s.DaylongActAsSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    name: str | None = body.validated_data.get("player")
    return name


@extend_schema(tags=TAGS, summary="List daylongs, the latest first")
class EventListView(ListAPIView):  # type: ignore[type-arg]
    scopes = PUBLIC
    serializer_class = s.DaylongEventSerializer

    def get_queryset(self) -> Any:
        return selectors.events()

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response([s.event_data(e) for e in page or []])


@extend_schema(tags=TAGS)
class EventDetailView(APIView):
    scopes = PUBLIC

    @extend_schema(
        summary="A daylong: its conditions, its boards and, logged in, your entry",
        parameters=[PLAYER],
        responses=s.DaylongEventDetailSerializer,
    )
    def get(self, request: Request, pk: int) -> Response:
        event = selectors.event_get(event_id=pk)
        data = s.event_data(event)
        data["board_list"] = [
            {"number": b.number, "deals": b.schedule} for b in selectors.boards_of(event=event)
        ]
        reader = _reader(request, request.query_params.get("player"))
        data["mine"] = (
            None
            if reader is None
            else s.mine_data(reader, selectors.entry_of(event=event, player=reader))
        )
        return Response(data)


@extend_schema(tags=TAGS)
class EnterView(APIView):
    scopes = PLAY_OR_BOT

    @extend_schema(
        summary="Enter yourself or your bot (once per player, while the window is open)",
        description=(
            "Errors: 404 `daylong_not_found`; 409 `daylong_not_open`, `already_entered`; "
            "403 `cannot_enter` (a house bot, a deleted bot), `not_your_player`."
        ),
        request=s.DaylongActAsSerializer,
        responses={201: s.DaylongEntrySerializer},
    )
    def post(self, request: Request, pk: int) -> Response:
        player = _acting(request, _acting_name(request))
        entry = services.entry_create(event_id=pk, player=player)
        return Response(s.entry_data(entry), status=status.HTTP_201_CREATED)


@extend_schema(tags=TAGS)
class PlayView(APIView):
    scopes = PLAY_OR_BOT

    @extend_schema(
        summary="Your table now: the board being played, else a new one for the next board",
        description=(
            "Returns the game to play through the games API (seat 0 is yours; the three "
            "others are house bots). Calling it again returns the same table until its "
            "board is finished. Errors: 404 `daylong_not_found`, `not_entered`; 409 "
            "`daylong_not_open` (no new board once the window has ended), `all_boards_played`."
        ),
        request=s.DaylongActAsSerializer,
        responses=s.DaylongPlaySerializer,
        examples=[
            OpenApiExample(
                "A table",
                value={
                    "board": 2,
                    "deals": {"first": 6, "last": 10},
                    "game": "k3v9q2xw7m1p",
                    "game_url": "/api/v1/games/k3v9q2xw7m1p/",
                    "table_url": "/games/k3v9q2xw7m1p/",
                },
                response_only=True,
            )
        ],
    )
    def post(self, request: Request, pk: int) -> Response:
        player = _acting(request, _acting_name(request))
        table = services.board_play_next(event_id=pk, player=player)
        return Response(s.play_data(table))


@extend_schema(tags=TAGS)
class StandingsView(APIView):
    scopes = PUBLIC

    @extend_schema(
        summary="Standings: live during the window, final after it",
        description=(
            "While the window is open the percentages are counted over the boards the "
            "reader has ended (`counted_boards`), the same boards for every line, so that "
            "nobody learns a result of a board they have not finished; a reader who has "
            "ended none (or is not entered, or anonymous) sees no percentage. Once the "
            "window's end was processed (`final`), every board counts for everyone."
        ),
        parameters=[PLAYER],
        responses=s.DaylongStandingsSerializer,
        examples=[
            OpenApiExample(
                "Live, for a reader who has ended board 1",
                value={
                    "final": False,
                    "counted_boards": [1],
                    "lines": [
                        {
                            "rank": 1,
                            "player": "ada",
                            "is_bot": False,
                            "boards": 1,
                            "ended": 3,
                            "percent": "75.00",
                        },
                        {
                            "rank": None,
                            "player": "grace",
                            "is_bot": False,
                            "boards": 0,
                            "ended": 0,
                            "percent": None,
                        },
                    ],
                },
                response_only=True,
            )
        ],
    )
    def get(self, request: Request, pk: int) -> Response:
        event = selectors.event_get(event_id=pk)
        reader = _reader(request, request.query_params.get("player"))
        return Response(s.standings_data(selectors.standings_for(event=event, viewer=reader)))


@extend_schema(tags=TAGS)
class BreakdownView(APIView):
    scopes = READ

    @extend_schema(
        summary="Your per-board breakdown: score, matchpoints, field average and best",
        description=(
            "A board you have not ended shows only its state (every result null). The field "
            "is the finished tables that held your version of the board. Errors: 404 "
            "`not_entered`; 403 `not_your_player`."
        ),
        parameters=[PLAYER],
        responses=s.DaylongBreakdownSerializer,
        examples=[
            OpenApiExample(
                "One board ended, one being played",
                value={
                    "player": "ada",
                    "boards": [
                        {
                            "board": 1,
                            "deals": {"first": 1, "last": 5},
                            "status": "finished",
                            "game": "k3v9q2xw7m1p",
                            "instance": 3,
                            "score": 42,
                            "matchpoints": "6.00",
                            "top": "8.00",
                            "percent": "75.00",
                            "field_tables": 5,
                            "field_average": "18.40",
                            "field_best": 61,
                        },
                        {
                            "board": 2,
                            "deals": {"first": 6, "last": 10},
                            "status": "playing",
                            "game": "q8w2e4r6t0y1",
                            **dict.fromkeys(s.RESULT_FIELDS),
                        },
                    ],
                },
                response_only=True,
            )
        ],
    )
    def get(self, request: Request, pk: int) -> Response:
        event = selectors.event_get(event_id=pk)
        reader = _reader(request, request.query_params.get("player"))
        entry = None if reader is None else selectors.entry_of(event=event, player=reader)
        if reader is None or entry is None:
            raise NotEntered(message=_("Enter the daylong first."))
        return Response(s.breakdown_data(reader, selectors.breakdown(entry=entry)))


@extend_schema(tags=TAGS)
class TablesView(APIView):
    scopes = PUBLIC

    @extend_schema(
        summary="Every table's game and seed, once the window has closed",
        description=(
            "For anyone to check the deals: each table's game (its record in the API), its "
            "version's commitment and seed. A table called off at the window's end shows no "
            "seed (docs/rules.md §8). Errors: 409 `daylong_still_open` before the window's "
            "end was processed."
        ),
        responses=s.DaylongTableRecordSerializer(many=True),
    )
    def get(self, request: Request, pk: int) -> Response:
        event = selectors.event_get(event_id=pk)
        return Response(s.tables_data(selectors.tables_after_close(event=event)))
