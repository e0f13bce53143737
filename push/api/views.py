"""The push API: the site's public key, and your devices (list, add, remove)."""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import Player
from accounts.permissions import PLAY, PUBLIC
from accounts.services import player_for_user
from backalley_site.api_schema import ErrorSerializer
from backalley_site.errors import NotFoundError
from push import selectors, services
from push.api.serializers import (
    SubscriptionCreateSerializer,
    SubscriptionSerializer,
    VapidKeySerializer,
)
from push.devices import device_label


def _me(request: Request) -> Player:
    return player_for_user(request.user)


class VapidKeyView(APIView):
    scopes = PUBLIC

    @extend_schema(
        responses={200: VapidKeySerializer},
        summary="The site's VAPID public key",
        description=(
            "Whether the site sends pushes, and the key a page subscribes to "
            "(`pushManager.subscribe({applicationServerKey})`); empty when push is off."
        ),
    )
    def get(self, request: Request) -> Response:
        on = services.push_active()
        body = {"enabled": on, "public_key": settings.PUSH_VAPID_PUBLIC_KEY if on else ""}
        return Response(VapidKeySerializer(body).data)


class SubscriptionListView(APIView):
    scopes = PLAY  # the person's devices: never a token made for one bot

    @extend_schema(
        responses={200: SubscriptionSerializer(many=True)},
        summary="Your devices that receive pushes",
    )
    def get(self, request: Request) -> Response:
        rows = selectors.subscriptions_for(_me(request))
        return Response(SubscriptionSerializer(rows, many=True).data)

    @extend_schema(
        request=SubscriptionCreateSerializer,
        responses={201: SubscriptionSerializer, 400: ErrorSerializer, 409: ErrorSerializer},
        summary="Add this device",
        description=(
            "The body is what the browser's `PushSubscription.toJSON()` gives. Sending the "
            "same endpoint again renews it (and moves it to you if another account had it). "
            "400 `bad_subscription`; 409 `push_disabled`, `too_many_subscriptions`."
        ),
    )
    def post(self, request: Request) -> Response:
        data = SubscriptionCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        label = given.get("user_agent") or device_label(request.headers.get("User-Agent", ""))
        row = services.subscription_save(
            player=_me(request),
            endpoint=given["endpoint"],
            p256dh=given["keys"]["p256dh"],
            auth=given["keys"]["auth"],
            user_agent=label,
        )
        return Response(SubscriptionSerializer(row).data, status=status.HTTP_201_CREATED)


class SubscriptionDeleteView(APIView):
    scopes = PLAY

    @extend_schema(
        request=None,
        responses={204: OpenApiResponse(description="Removed."), 404: ErrorSerializer},
        summary="Remove one of your devices",
    )
    def delete(self, request: Request, subscription_id: int) -> Response:
        if not services.subscription_delete(player=_me(request), subscription_id=subscription_id):
            raise NotFoundError(
                message=_("You have no device with this id."), extra={"id": subscription_id}
            )
        return Response(status=status.HTTP_204_NO_CONTENT)
