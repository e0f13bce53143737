"""The invitations API: the invitations to you and your bots, and your answers.

A person's invitation is answered with the ``play`` scope; a bot's with the ``bot`` scope
(its owner's token, or a token made for that bot).
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.permissions import PLAY_OR_BOT, READ, one_bot_of
from backalley_site.api_schema import ErrorSerializer
from games import invitations, selectors
from games.api.permissions import require_bot, require_self
from games.errors import BadGameSetup
from games.models import Invitation, InvitationStatus

ERRORS = {code: ErrorSerializer for code in (400, 401, 403, 404, 409)}


class InvitationSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    game = serializers.CharField(help_text="The game's public id.")
    position = serializers.IntegerField()
    player = serializers.CharField(help_text="Who is invited: you, or one of your bots.")
    is_bot = serializers.BooleanField()
    invited_by = serializers.CharField(allow_null=True)
    status = serializers.ChoiceField(choices=InvitationStatus.choices)
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    answered_at = serializers.DateTimeField(allow_null=True)

    def to_representation(self, instance: Any) -> dict[str, Any]:
        return invitation_body(instance)


def invitation_body(row: Invitation) -> dict[str, Any]:
    return {
        "id": row.pk,
        "game": row.game.public_id,
        "position": row.position,
        "player": row.player.name,
        "is_bot": row.player.is_bot,
        "invited_by": row.invited_by.name if row.invited_by else None,
        "status": row.status,
        "created_at": row.created_at.isoformat(),
        "expires_at": row.expires_at.isoformat(),
        "answered_at": row.answered_at.isoformat() if row.answered_at else None,
    }


class InvitationListView(ListAPIView):  # type: ignore[type-arg]
    """Invitations to you and your bots, newest first (the answerable ones by default); for
    a token made for one bot, that bot's."""

    scopes = READ
    serializer_class = InvitationSerializer

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "status",
                str,
                enum=["pending", "accepted", "declined", "expired", "all"],
                description="`pending` (default): still answerable; `all`: every one.",
            )
        ],
        responses={200: InvitationSerializer(many=True), **ERRORS},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    def get_queryset(self) -> QuerySet[Invitation]:
        wanted = self.request.query_params.get("status") or "pending"
        if wanted != "all" and wanted not in InvitationStatus.values:
            raise BadGameSetup(
                "bad_parameter", _("Unknown status %(wanted)s.") % {"wanted": repr(wanted)}
            )
        return selectors.invitations_for(
            user=self.request.user,
            status=None if wanted == "all" else wanted,
            only_bot=one_bot_of(self.request),
        )


class _AnswerView(APIView):
    scopes = PLAY_OR_BOT
    accept = True

    def post(self, request: Request, invitation_id: int) -> Response:
        row = selectors.invitation_of(user=request.user, invitation_id=invitation_id)
        if row.player.is_bot:
            require_bot(request, row.player_id)
        else:
            require_self(request)
        row = invitations.invitation_answer(
            invitation_id=row.pk, user=request.user, accept=self.accept
        )
        return Response(invitation_body(row))


class InvitationAcceptView(_AnswerView):
    accept = True

    @extend_schema(
        request=None,
        responses={200: InvitationSerializer, **ERRORS},
        summary="Accept an invitation: take the held seat (the fourth seat starts the game)",
        description="409 `invitation_closed` when answered, expired or the game moved on.",
    )
    def post(self, request: Request, invitation_id: int) -> Response:
        return super().post(request, invitation_id)


class InvitationDeclineView(_AnswerView):
    accept = False

    @extend_schema(
        request=None,
        responses={200: InvitationSerializer, **ERRORS},
        summary="Decline an invitation: the seat becomes an open seat",
    )
    def post(self, request: Request, invitation_id: int) -> Response:
        return super().post(request, invitation_id)
