"""Scope checks for API views.

``permission_classes = [HasScope("play")]``: the request must be authenticated, and when it
came with an API token that token must hold every named scope. Site users logged in with a
session hold every scope. A token missing a scope gets 403 ``insufficient_scope``.
"""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from accounts.models import ALL_SCOPES, ApiToken
from backalley_site.errors import DomainError


def request_scopes(request: Request) -> frozenset[str]:
    """The scopes a request holds: its token's, all of them for a session, none if anonymous."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return frozenset()
    if isinstance(request.auth, ApiToken):
        return frozenset(request.auth.scopes)
    return ALL_SCOPES


def request_has_scope(request: Request, scope: str) -> bool:
    return scope in request_scopes(request)


def request_token(request: Request) -> ApiToken | None:
    """The API token the request came with, if any."""
    return request.auth if isinstance(request.auth, ApiToken) else None


class _ScopePermission(BasePermission):
    required: tuple[str, ...] = ()

    def has_permission(self, request: Request, view: Any) -> bool:
        if not (request.user and request.user.is_authenticated):
            return False  # DRF answers 401 not_authenticated
        held = request_scopes(request)
        missing = [s for s in self.required if s not in held]
        if missing:
            raise DomainError(
                "insufficient_scope",
                f"This token lacks the {' and '.join(repr(s) for s in missing)} scope"
                f"{'s' if len(missing) > 1 else ''}.",
                http_status=403,
                extra={"required": list(self.required), "granted": sorted(held)},
            )
        return True


def HasScope(*scopes: str) -> type[BasePermission]:  # noqa: N802 - reads like a class
    """A permission class requiring all of ``scopes`` (e.g. ``HasScope("play")``)."""
    unknown = set(scopes) - ALL_SCOPES
    if unknown or not scopes:
        raise ValueError(f"unknown scopes {sorted(unknown)}; known: {sorted(ALL_SCOPES)}")
    name = "HasScope_" + "_".join(scopes)
    return type(name, (_ScopePermission,), {"required": tuple(scopes)})
