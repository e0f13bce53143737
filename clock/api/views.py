"""The clock's API: notifications (list, mark read), reminder preferences, vacation."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import Player
from accounts.permissions import PLAY, PUBLIC, READ_OWN
from accounts.services import player_for_user
from backalley_site.api_schema import ErrorSerializer
from clock import presets, reminders, selectors, vacation
from clock.api.serializers import (
    MarkReadSerializer,
    NotificationSerializer,
    PreferenceSerializer,
    TimeControlPresetSerializer,
    VacationSerializer,
)
from clock.models import Notification


class TimeControlPresetsView(APIView):
    """The time controls offered by name, for the new-game form and clients."""

    scopes = PUBLIC

    @extend_schema(
        responses={200: TimeControlPresetSerializer(many=True)},
        summary="The time-control presets",
        description=(
            "Each preset's name, label (in the request's language), time per move and bank "
            'in seconds, and the option that chooses it: `"time_control": {"preset": name}` '
            "when creating a game. Any other time per move from 1 minute to 14 days, with a "
            "bank of up to 30 days, may be given instead (docs/clock.md)."
        ),
    )
    def get(self, request: Request) -> Response:
        return Response([p.as_json() for p in presets.PRESETS])


def _me(request: Request) -> Player:
    return player_for_user(request.user)


class NotificationListView(ListAPIView):  # type: ignore[type-arg]
    """Your notifications, newest first (``?unread=true`` for the unread ones only)."""

    scopes = READ_OWN  # the person's: never a token made for one bot
    serializer_class = NotificationSerializer

    @extend_schema(parameters=[OpenApiParameter("unread", bool)])
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    def get_queryset(self) -> QuerySet[Notification]:
        if getattr(self, "swagger_fake_view", False):  # the schema generator has no user
            return Notification.objects.none()
        unread = self.request.query_params.get("unread", "").lower() in ("1", "true", "yes")
        return selectors.notifications_for(_me(self.request), unread_only=unread)


class MarkReadView(APIView):
    scopes = PLAY

    @extend_schema(
        request=MarkReadSerializer,
        responses={200: dict},
        summary="Mark notifications read (the given ids, or all of yours)",
    )
    def post(self, request: Request) -> Response:
        data = MarkReadSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        qs = Notification.objects.filter(player=_me(request), read_at__isnull=True)
        ids = data.validated_data.get("ids")
        if ids is not None:
            qs = qs.filter(pk__in=ids)  # another player's ids simply match nothing
        marked = qs.update(read_at=timezone.now())
        return Response({"marked": marked})


class PreferencesView(APIView):
    scopes = {"GET": READ_OWN, "PATCH": PLAY}

    @extend_schema(responses={200: PreferenceSerializer}, summary="Your reminder preferences")
    def get(self, request: Request) -> Response:
        return Response(PreferenceSerializer(reminders.preferences_for(_me(request))).data)

    @extend_schema(
        request=PreferenceSerializer,
        responses={200: PreferenceSerializer},
        summary="Turn each kind of reminder on or off, by channel",
    )
    def patch(self, request: Request) -> Response:
        prefs = reminders.preferences_for(_me(request))
        data = PreferenceSerializer(prefs, data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        data.save()
        return Response(data.data)


def _vacation_body(player: Player) -> dict[str, Any]:
    b = vacation.balance(player)
    current = vacation.current_vacation(player)
    return {
        "days_played": b.days_played,
        "earned": b.earned,
        "used": b.used,
        "available": b.available,
        "on_vacation": current is not None,
        "started_at": current.started_at if current else None,
        "ends_at": current.planned_end if current else None,
    }


class VacationView(APIView):
    scopes = READ_OWN

    @extend_schema(
        responses={200: VacationSerializer},
        summary="Your vacation days",
        description=(
            "One day is earned per eight days played (calendar days, UTC, on which you made "
            "a move yourself), at most 30 available at a time."
        ),
    )
    def get(self, request: Request) -> Response:
        return Response(VacationSerializer(_vacation_body(_me(request))).data)


class VacationStartView(APIView):
    scopes = PLAY

    @extend_schema(
        request=None,
        responses={200: VacationSerializer, 409: ErrorSerializer},
        summary="Start a vacation: pause your clock in every game",
        description="400 `no_vacation_days`; 409 `already_on_vacation`.",
    )
    def post(self, request: Request) -> Response:
        me = _me(request)
        vacation.vacation_start(player=me)
        return Response(VacationSerializer(_vacation_body(me)).data)


class VacationStopView(APIView):
    scopes = PLAY

    @extend_schema(
        request=None,
        responses={200: VacationSerializer, 409: ErrorSerializer},
        summary="End your vacation: your clocks run again",
        description="409 `not_on_vacation`.",
    )
    def post(self, request: Request) -> Response:
        me = _me(request)
        vacation.vacation_stop(player=me)
        return Response(VacationSerializer(_vacation_body(me)).data)
