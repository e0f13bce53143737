"""Views that raise each kind of error, mounted under /api/ for the error-shape tests."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.urls import path
from rest_framework import permissions, serializers, throttling
from rest_framework.authentication import BasicAuthentication
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from backalley_site.errors import DomainError


class EngineLikeError(Exception):
    """Shaped like the engine's errors once the games app gives them an http_status."""

    http_status = 400

    def __init__(self) -> None:
        self.code = "must_follow_suit"
        self.message = "You must follow suit: you hold hearts."
        self.extra = {"suit": "H"}
        super().__init__(self.message)


class MoveSerializer(serializers.Serializer):
    expected_seq = serializers.IntegerField(min_value=0)
    bid = serializers.ChoiceField(choices=["pass", "board"])


class Raiser(APIView):
    authentication_classes = [BasicAuthentication]
    permission_classes = [permissions.AllowAny]

    def get(self, request: Request, kind: str) -> Response:
        if kind == "domain":
            raise DomainError("name_taken", "That name is taken.", http_status=409, extra={"n": 1})
        if kind == "engine":
            raise EngineLikeError()
        if kind == "http404":
            raise Http404("No Game matches the given query.")
        if kind == "django_denied":
            raise DjangoPermissionDenied("Not yours.")
        if kind == "django_invalid":
            raise DjangoValidationError({"name": ["Bad name."]})
        if kind == "bug":
            raise RuntimeError("unexpected")
        return Response({"ok": True})

    def post(self, request: Request, kind: str) -> Response:
        serializer = MoveSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return Response(serializer.validated_data)


class Private(APIView):
    authentication_classes = [BasicAuthentication]
    permission_classes = [permissions.IsAuthenticated]

    def get(self, request: Request) -> Response:
        return Response({"ok": True})


class Deny(permissions.BasePermission):
    message = "Only the seat's player may do that."

    def has_permission(self, request: Request, view: APIView) -> bool:
        return False


class Denied(APIView):
    authentication_classes: list[type] = []
    permission_classes = [Deny]

    def get(self, request: Request) -> Response:
        return Response({"ok": True})


class AlwaysThrottled(throttling.BaseThrottle):
    def allow_request(self, request: Request, view: APIView) -> bool:
        return False

    def wait(self) -> float:
        return 7


class Throttled(APIView):
    authentication_classes: list[type] = []
    permission_classes = [permissions.AllowAny]
    throttle_classes = [AlwaysThrottled]

    def get(self, request: Request) -> Response:
        return Response({"ok": True})


urlpatterns = [
    path("api/test/raise/<str:kind>/", Raiser.as_view()),
    path("api/test/private/", Private.as_view()),
    path("api/test/denied/", Denied.as_view()),
    path("api/test/throttled/", Throttled.as_view()),
]

handler404 = "backalley_site.error_views.not_found"
handler500 = "backalley_site.error_views.server_error"
