"""Scope checks for API views, declared once per view.

Every API view says what each of its methods needs, in one class attribute::

    class VacationStartView(APIView):
        scopes = PLAY                         # every method
    class PreferencesView(APIView):
        scopes = {"GET": READ, "PATCH": PLAY}  # by method

and the default permission class (:class:`DeclaredScopes`, set in ``REST_FRAMEWORK``)
enforces it: anonymous requests get 401 ``not_authenticated`` (unless the need is
``PUBLIC``), a token lacking the scope gets 403 ``insufficient_scope``. A view that
declares nothing refuses every request (and the scope-table test names it), so a new
endpoint cannot be open by omission.

The needs:

* ``PUBLIC``: anyone, logged in or not;
* ``READ``: any token (``read``, ``play`` or ``bot``) or the site session;
* ``READ_OWN``: reading the person's own business (their notices, preferences, vacation,
  their data): any token of theirs or the session, never a token restricted to one bot,
  which sees that bot's business only;
* ``PLAY``: acting as the person (``play``): moves for your own seats, your vacation, your
  preferences, creating and calling off games; never a token restricted to one bot;
* ``PLAY_OR_BOT``: acting for a seat, your own (``play``) or your bot's (``bot``); the view
  then checks which seat (``games.api.permissions``);
* ``BOT``: acting for a bot (``bot``), a one-bot token included;
* ``BOT_OWNER``: managing your bots (``bot``), but not with a token restricted to one bot;
* ``SESSION``: only the site's logged-in session (making and revoking tokens).

Site sessions hold every scope.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from rest_framework.exceptions import NotAuthenticated
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


def signed_in_user(request: HttpRequest | Request) -> User:
    """The caller's account, in a view whose permission (or login_required) refused anonymous
    callers already."""
    user = request.user
    if not isinstance(user, User):
        raise NotAuthenticated()
    return user


def request_has_scope(request: Request, scope: str) -> bool:
    return scope in request_scopes(request)


def request_token(request: Request) -> ApiToken | None:
    """The API token the request came with, if any."""
    return request.auth if isinstance(request.auth, ApiToken) else None


def one_bot_of(request: Request) -> int | None:
    """The bot (its player id) a token made for one bot acts for; None for any other
    credential. Such a token sees that bot's business only."""
    token = request_token(request)
    return token.bot_id if token is not None else None


@dataclass(frozen=True)
class Need:
    """What one method of a view needs: any of ``any_of`` (all scopes for a session)."""

    name: str
    any_of: frozenset[str] = frozenset()
    public: bool = False
    one_bot_token: bool = True  # may a token restricted to one bot use it
    session_only: bool = False


PUBLIC = Need("public", public=True)
READ = Need("read", frozenset({"read", "play", "bot"}))
READ_OWN = Need("read own", frozenset({"read", "play", "bot"}), one_bot_token=False)
PLAY = Need("play", frozenset({"play"}), one_bot_token=False)
PLAY_OR_BOT = Need("play or bot", frozenset({"play", "bot"}))
BOT = Need("bot", frozenset({"bot"}))
BOT_OWNER = Need("bot owner", frozenset({"bot"}), one_bot_token=False)
SESSION = Need("session", session_only=True)

Scopes = Need | Mapping[str, Need]


def insufficient_scope(message: str, **extra: Any) -> DomainError:
    return DomainError("insufficient_scope", message, http_status=403, extra=extra)


def need_of(view: Any, method: str) -> Need | None:
    """The need a view declares for ``method`` (HEAD as GET; OPTIONS as the lightest)."""
    declared: Scopes | None = getattr(view, "scopes", None)
    if declared is None or isinstance(declared, Need):
        return declared
    method = "GET" if method == "HEAD" else method
    if method == "OPTIONS":
        return READ
    return declared.get(method)


def check_need(request: Request, need: Need) -> bool:
    """True when ``request`` meets ``need``; False when it should log in (401); raises
    403 ``insufficient_scope`` when it is logged in with too little."""
    if need.public:
        return True
    if not (request.user and request.user.is_authenticated):
        return False  # DRF answers 401 not_authenticated
    token = request_token(request)
    if token is None:
        return True  # the site session holds every scope
    if need.session_only:
        raise insufficient_scope(
            _("This needs the site's logged-in session, not an API token."), required="session"
        )
    if token.bot_id is not None and not need.one_bot_token:
        raise insufficient_scope(
            _("A token that acts for one bot cannot do this; use your own token."),
            required=sorted(need.any_of),
            granted=sorted(token.scopes),
        )
    held = frozenset(token.scopes)
    if not held & need.any_of:
        raise insufficient_scope(
            _("This token needs the %(value)s scope.")
            % {"value": " or ".join(repr(s) for s in sorted(need.any_of))},
            required=sorted(need.any_of),
            granted=sorted(held),
        )
    return True


class DeclaredScopes(BasePermission):
    """The default permission: the view's declared ``scopes`` for this method."""

    def has_permission(self, request: Request, view: Any) -> bool:
        need = need_of(view, request.method or "GET")
        if need is None:
            raise DomainError(
                "not_declared",
                _("This endpoint declares no scope and is closed."),
                http_status=403,
            )
        return check_need(request, need)


def Requires(need: Need) -> type[BasePermission]:  # noqa: N802 - reads like a class
    """A permission class for ``need``, for views that keep ``permission_classes``."""

    class _Requires(BasePermission):
        def has_permission(self, request: Request, view: Any) -> bool:
            return check_need(request, need)

    _Requires.__name__ = f"Requires_{need.name.replace(' ', '_')}"
    return _Requires


def HasScope(*scopes: str) -> type[BasePermission]:  # noqa: N802 - reads like a class
    """A permission class requiring every one of ``scopes`` (e.g. ``HasScope("read", "bot")``)."""
    unknown = set(scopes) - ALL_SCOPES
    if unknown or not scopes:
        raise ValueError(f"unknown scopes {sorted(unknown)}; known: {sorted(ALL_SCOPES)}")

    class _HasScope(BasePermission):
        def has_permission(self, request: Request, view: Any) -> bool:
            if not (request.user and request.user.is_authenticated):
                return False
            held = request_scopes(request)
            missing = [s for s in scopes if s not in held]
            if missing:
                raise insufficient_scope(
                    ngettext(
                        "This token lacks the %(scopes)s scope.",
                        "This token lacks the %(scopes)s scopes.",
                        len(missing),
                    )
                    % {"scopes": ", ".join(repr(s) for s in missing)},
                    required=list(scopes),
                    granted=sorted(held),
                )
            return True

    _HasScope.__name__ = "HasScope_" + "_".join(scopes)
    return _HasScope
