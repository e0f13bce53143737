"""The bots API under /api/v1/bots/: register, list, read, change, rotate, remove, faults.

Bots are managed by their owner with the ``bot`` scope (or the site session). A token that
acts for one bot only cannot manage bots: a leaked bot token cannot re-point a webhook.
"""

from __future__ import annotations

from datetime import timedelta

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.permissions import BOT_OWNER, READ, signed_in_user
from backalley_site.api_schema import ErrorSerializer
from bots import brain, selectors, services
from bots.api.serializers import (
    BotCreateSerializer,
    BotFaultSerializer,
    BotSerializer,
    BotUpdateSerializer,
    BotWithSecretSerializer,
    RotateSecretSerializer,
    StrategySerializer,
)
from bots.models import Bot, BotFault

ERRORS = {code: ErrorSerializer for code in (400, 401, 403, 404, 409)}


class _OwnerView(APIView):
    # A token restricted to one bot cannot manage bots: a leaked bot token cannot
    # re-point a webhook.
    scopes = BOT_OWNER


class BotListCreateView(_OwnerView, generics.ListAPIView[Bot]):
    """Your bots; or register one (a hosted, webhook or api bot)."""

    serializer_class = BotSerializer

    def get_queryset(self) -> QuerySet[Bot]:
        return selectors.bots_of(self.request.user)

    @extend_schema(request=BotCreateSerializer, responses={201: BotWithSecretSerializer, **ERRORS})
    def post(self, request: Request) -> Response:
        """Register a bot. A webhook bot's URL must answer a signed ping; its secret is in
        this answer and never again."""
        data = BotCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        bot, secret = services.bot_create(owner=signed_in_user(request), **data.validated_data)
        body = BotWithSecretSerializer(bot, context={"secret": secret}).data
        return Response(body, status=status.HTTP_201_CREATED)


class BotDetailView(_OwnerView):
    @extend_schema(responses={200: BotSerializer, **ERRORS})
    def get(self, request: Request, name: str) -> Response:
        return Response(BotSerializer(selectors.bot_of(request.user, name)).data)

    @extend_schema(request=BotUpdateSerializer, responses={200: BotSerializer, **ERRORS})
    def patch(self, request: Request, name: str) -> Response:
        """Change the description, strategy and params, webhook URL (pinged again), or set
        the status to ``active`` (which also lifts a suspension) or ``disabled``."""
        bot = selectors.bot_of(request.user, name)
        data = BotUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        bot = services.bot_update(bot=bot, **data.validated_data)
        return Response(BotSerializer(bot).data)

    @extend_schema(
        request=None,
        responses={
            200: OpenApiResponse(description='{"result": "deleted" | "disabled"}'),
            **ERRORS,
        },
    )
    def delete(self, request: Request, name: str) -> Response:
        """Delete a bot that never played; a bot that did is disabled (its games keep it)."""
        result = services.bot_remove(bot=selectors.bot_of(request.user, name))
        return Response({"result": result})


class BotRotateSecretView(_OwnerView):
    @extend_schema(
        request=RotateSecretSerializer, responses={200: BotWithSecretSerializer, **ERRORS}
    )
    def post(self, request: Request, name: str) -> Response:
        """Draw a new webhook secret (shown in this answer only). The old one stops at once,
        or with `keep_previous_hours` (1-72) signs every request beside the new one until
        `previous_secret_until`, so the running bot keeps verifying while it is updated."""
        data = RotateSecretSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        bot, secret = services.bot_rotate_secret(
            bot=selectors.bot_of(request.user, name),
            keep_previous=timedelta(hours=data.validated_data["keep_previous_hours"]),
        )
        return Response(BotWithSecretSerializer(bot, context={"secret": secret}).data)


class BotFaultListView(_OwnerView, generics.ListAPIView[BotFault]):
    """The bot's fault log, newest first: each turn the house strategy played for it."""

    serializer_class = BotFaultSerializer

    def get_queryset(self) -> QuerySet[BotFault]:
        return selectors.faults_of(selectors.bot_of(self.request.user, self.kwargs["name"]))


class StrategyListView(APIView):
    scopes = READ  # a bot-only token chooses from these too

    @extend_schema(responses={200: StrategySerializer(many=True), **ERRORS})
    def get(self, request: Request) -> Response:
        """The built-in strategies a hosted bot can use, with their parameters and defaults."""
        known = brain.available_strategies()
        return Response([{"name": n, "params": known[n]} for n in sorted(known)])
