"""The accounts API: who am I, personal tokens, and sign-up for API-only clients."""

from __future__ import annotations

from django.db import transaction
from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.api.serializers import (
    AccountDeletedSerializer,
    AccountDeleteSerializer,
    MePreferencesSerializer,
    MeSerializer,
    SignupResultSerializer,
    SignupSerializer,
    TokenCreatedSerializer,
    TokenCreateSerializer,
    TokenSerializer,
)
from accounts.models import ApiToken, Player
from accounts.permissions import (
    PLAY,
    PUBLIC,
    READ,
    READ_OWN,
    SESSION,
    insufficient_scope,
    one_bot_of,
    request_has_scope,
    request_scopes,
    request_token,
    signed_in_user,
)
from accounts.privacy import account_delete, account_export, archive_filename
from accounts.selectors import player_get_by_name
from accounts.services import account_signup, player_for_user, player_set_autoplay
from accounts.throttles import DeleteThrottle, ExportThrottle, SignupThrottle
from accounts.tokens import token_create, token_list, token_revoke
from backalley_site.api_schema import ErrorSerializer

# Responses that carry a token's secret must never be stored by a cache.
NO_STORE = {"Cache-Control": "no-store"}

ERRORS = {
    400: ErrorSerializer,
    401: ErrorSerializer,
    403: ErrorSerializer,
    404: ErrorSerializer,
    409: ErrorSerializer,
}


class TokenListCreateView(generics.ListAPIView[ApiToken]):
    """List your API tokens (newest first), or make one: its secret is shown only once."""

    scopes = SESSION  # a leaked token cannot mint or revoke others
    serializer_class = TokenSerializer

    def get_queryset(self) -> QuerySet[ApiToken]:
        return token_list(user=signed_in_user(self.request))

    @extend_schema(request=TokenCreateSerializer, responses={201: TokenCreatedSerializer, **ERRORS})
    def post(self, request: Request) -> Response:
        data = TokenCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        bot: Player | None = None
        if data.validated_data.get("bot"):
            bot = player_get_by_name(data.validated_data["bot"])
        token, secret = token_create(
            user=signed_in_user(request),
            name=data.validated_data["name"],
            scopes=data.validated_data["scopes"],
            bot=bot,
        )
        body = TokenSerializer(token).data
        body["token"] = secret
        return Response(body, status=status.HTTP_201_CREATED, headers=NO_STORE)


class TokenRevokeView(APIView):
    scopes = SESSION  # a leaked token cannot mint or revoke others

    @extend_schema(request=None, responses={204: OpenApiResponse(description="Revoked."), **ERRORS})
    def delete(self, request: Request, token_id: int) -> Response:
        """Revoke one of your tokens: it stops working at once. Revoking twice is harmless."""
        token_revoke(user=signed_in_user(request), token_id=token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeView(APIView):
    scopes = READ  # PATCH (your preferences) also needs "play": checked there

    @extend_schema(request=MePreferencesSerializer, responses={200: MeSerializer, **ERRORS})
    def patch(self, request: Request) -> Response:
        """Your play preferences: ``autoplay`` (the service plays your forced actions, a
        single legal card, for you; on by default). Needs the ``play`` scope."""
        if not request_has_scope(request, "play") or one_bot_of(request) is not None:
            raise insufficient_scope("Changing your preferences needs the 'play' scope.")
        data = MePreferencesSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if "autoplay" in data.validated_data:
            player_set_autoplay(
                player=player_for_user(request.user), autoplay=data.validated_data["autoplay"]
            )
        return self.get(request)

    @extend_schema(responses={200: MeSerializer, **ERRORS})
    def get(self, request: Request) -> Response:
        """The caller: account, player, bots, and how this request was authenticated. A
        token made for one bot is that bot: its player and its only bot, no account."""
        token = request_token(request)
        bot_id = one_bot_of(request)
        account: tuple[int | None, str | None]
        if bot_id is not None:
            bot = Player.objects.get(pk=bot_id)
            player, bots, account = bot, [bot], (None, None)
        else:
            player = player_for_user(request.user)
            bots = list(
                Player.objects.filter(owner=signed_in_user(request), is_bot=True).order_by("name")
            )
            account = (request.user.pk, request.user.get_username())
        body = {
            "id": account[0],
            "username": account[1],
            "player": player,
            "bots": bots,
            "auth": "token" if token else "session",
            "scopes": sorted(request_scopes(request)),
            "token": token,
            "autoplay": player.autoplay,
        }
        return Response(MeSerializer(body).data)


class ExportView(APIView):
    scopes = READ_OWN  # the person's own data: never a token made for one bot
    throttle_classes = [ExportThrottle]

    @extend_schema(
        responses={
            200: OpenApiResponse(
                description=(
                    "A JSON archive: `account` (with the tokens' metadata, never a secret), "
                    "`games` (each with its record as you may see it), `ladder`, `clock` "
                    "(notices, preferences, vacations), `bots`, `tournaments`."
                )
            ),
            **ERRORS,
            429: ErrorSerializer,
        },
        summary="Download all your data (a JSON archive)",
        description="At most ACCOUNTS_EXPORT_RATE downloads per account (10 an hour).",
    )
    def get(self, request: Request) -> Response:
        user = signed_in_user(request)
        archive = account_export(user=user)
        name = archive["account"]["player"]["name"]
        return Response(
            archive,
            headers={
                "Content-Disposition": f'attachment; filename="{archive_filename(name)}"',
                **NO_STORE,
            },
        )


class AccountDeleteView(APIView):
    scopes = PLAY  # acting as the person: never a read-only token or one made for one bot
    throttle_classes = [DeleteThrottle]

    @extend_schema(
        request=AccountDeleteSerializer,
        responses={200: AccountDeletedSerializer, **ERRORS, 429: ErrorSerializer},
        summary="Delete your account (confirm with your password)",
        description=(
            "Erases what is personal (name replaced by a pseudonym, e-mail, sign-in, tokens, "
            "notices, preferences; bots retired), keeps finished games under the pseudonym, "
            "and hands your seats in running games to the house bot. 403 `wrong_password`; "
            "at most ACCOUNTS_DELETE_RATE attempts per account (5 an hour). See /privacy/."
        ),
    )
    def post(self, request: Request) -> Response:
        data = AccountDeleteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        erasure = account_delete(
            user=signed_in_user(request), password=data.validated_data["password"]
        )
        return Response(
            AccountDeletedSerializer({"deleted": True, "pseudonym": erasure.pseudonym}).data,
            headers=NO_STORE,
        )


class SignupView(APIView):
    """Make an account, its player and a first API token in one step (for API-only clients)."""

    authentication_classes: list[type[SessionAuthentication]] = []
    scopes = PUBLIC
    throttle_classes = [SignupThrottle]

    @extend_schema(request=SignupSerializer, responses={201: SignupResultSerializer, **ERRORS})
    def post(self, request: Request) -> Response:
        data = SignupSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        with transaction.atomic():
            player = account_signup(username=v["username"], password=v["password"], name=v["name"])
            user = player.user
            assert user is not None  # a person's player always has its account
            token, secret = token_create(user=user, name=v["token_name"], scopes=v["scopes"])
        token_body = TokenSerializer(token).data
        token_body["token"] = secret
        body = {
            "id": user.pk,
            "username": user.get_username(),
            "player": player,
            "token": token_body,
        }
        return Response(
            SignupResultSerializer(body).data, status=status.HTTP_201_CREATED, headers=NO_STORE
        )
