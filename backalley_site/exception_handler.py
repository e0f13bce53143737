"""The DRF exception handler: every API error leaves in one shape.

``{"code": "<stable id>", "message": "<for people>", "extra": {...}}``

Set as ``REST_FRAMEWORK["EXCEPTION_HANDLER"]``. It renders

* the engine's errors (``backalley_engine.errors.EngineError``) and any exception carrying
  ``code`` (str) and ``message`` attributes, such as
  :class:`backalley_site.errors.DomainError` and its subclasses (``extra`` is used when
  present). The status comes from :data:`STATUS_BY_CODE` (the engine and the games service
  know nothing of HTTP), else from the error's own ``http_status``, else 400;
* DRF's own exceptions (validation, authentication, permission, not found, parse errors,
  405, 406, 415, throttling) with stable codes;
* Django's ``Http404``, ``PermissionDenied``, ``ValidationError`` and ``RequestDataTooBig``.

Validation errors are ``invalid`` with the per-field messages in ``extra["fields"]``
(``{"expected_seq": ["..."]}``; nested serializers nest) or, for errors about the whole body,
``extra["errors"]`` (a list). Throttling gives ``extra["wait"]`` (seconds) and 405 gives
``extra["method"]``.

Anything else is a bug: it returns ``None`` so Django's 500 handling (and its logging) runs.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import exceptions as django_exceptions
from django.http import Http404
from rest_framework import exceptions as drf
from rest_framework.response import Response
from rest_framework.views import set_rollback

from backalley_site.errors import DomainError, error_body
from games.messages import error_message

# DRF's default codes, renamed where ours are clearer to clients.
_CODE_RENAMES = {"parse_error": "malformed_json"}

# The HTTP status of each engine and games error code (codes not listed are a 400 unless
# the error names its own status). 409: the request is fine but the game is not in a state
# that allows it; 403: not the caller's seat; 422: a key reused for another move.
STATUS_BY_CODE: dict[str, int] = {
    # backalley_engine.errors
    "not_your_turn": 409,
    "game_over": 409,
    "wrong_phase": 409,
    # games.errors
    "game_not_found": 404,
    "no_player": 403,
    "not_your_seat": 403,
    "seat_taken": 409,
    "already_seated": 409,
    "not_seated": 409,
    "game_not_waiting": 409,
    "game_not_started": 409,
    "game_aborted": 409,
    "stale_state": 409,
    "idempotency_key_reused": 422,
    # games: invitations and limits (games.invitations)
    "player_retired": 409,
    "invitation_not_found": 404,
    "invitation_closed": 409,
    "already_invited": 409,
    "too_many_invitations": 409,
    "creator_not_seated": 409,
    "too_many_waiting_games": 409,
    "too_many_new_games": 429,
    # games: premoves and claims (games.premoves, games.claims)
    "premove_not_allowed": 409,
    "premove_not_legal": 400,
    "claim_not_allowed": 409,
    "claim_pending": 409,
    "no_claim_pending": 409,
    "claim_refused": 409,
    # games: exports (games.exports)
    "player_not_found": 404,
    # games: forks (games.forks)
    "game_not_finished": 409,
    "record_not_public": 409,
    "invalid_move_number": 400,
    "fork_seat_not_allowed": 403,
    "dump_not_found": 404,
}


def status_for(exc: Exception) -> int:
    """The HTTP status of a domain or engine error."""
    code = getattr(exc, "code", None)
    if isinstance(code, str) and code in STATUS_BY_CODE:
        return STATUS_BY_CODE[code]
    own = getattr(exc, "http_status", None)
    return own if isinstance(own, int) else 400


def _is_domain_like(exc: Exception) -> bool:
    """An engine or domain error, or any error (say an app's own) shaped alike."""
    if isinstance(exc, drf.APIException | django_exceptions.ValidationError):
        return False
    return isinstance(getattr(exc, "code", None), str) and hasattr(exc, "message")


def _flatten(detail: Any) -> Any:
    """DRF's ErrorDetail tree to plain JSON: strings, lists, dicts."""
    if isinstance(detail, dict):
        return {str(k): _flatten(v) for k, v in detail.items()}
    if isinstance(detail, list):
        return [_flatten(v) for v in detail]
    return str(detail)


def _first_message(detail: Any, path: str = "") -> str:
    """The first human message in a validation tree, prefixed by its field path."""
    if isinstance(detail, dict):
        items = detail.items()
    elif isinstance(detail, list):
        items = ((f"{i}", v) for i, v in enumerate(detail))  # type: ignore[assignment]
    else:
        text = str(detail)
        return f"{path}: {text}" if path else text
    for key, value in items:
        if isinstance(detail, list) and not isinstance(value, dict | list):
            sub = path  # a list of messages for one field: no index in the path
        elif key == "non_field_errors":
            sub = path  # errors about the whole object
        else:
            sub = f"{path}.{key}" if path else str(key)
        found = _first_message(value, sub)
        if found:
            return found
    return ""


def _validation(detail: Any) -> tuple[str, dict[str, Any]]:
    flat = _flatten(detail)
    if isinstance(flat, dict):
        extra: dict[str, Any] = {"fields": flat}
    else:
        extra = {"errors": flat if isinstance(flat, list) else [flat]}
    first = _first_message(detail)
    message = f"Invalid input: {first}" if first else "Invalid input."
    return message, extra


def _from_api_exception(exc: drf.APIException, context: dict[str, Any]) -> Response:
    headers: dict[str, str] = {}
    if getattr(exc, "auth_header", None):
        headers["WWW-Authenticate"] = str(exc.auth_header)  # type: ignore[attr-defined]
    wait = getattr(exc, "wait", None)
    if wait:
        headers["Retry-After"] = str(int(wait))

    extra: dict[str, Any] = {}
    if isinstance(exc, drf.ValidationError):
        code = "invalid"
        message, extra = _validation(exc.detail)
    else:
        codes = exc.get_codes()
        raw = codes if isinstance(codes, str) else exc.default_code
        code = _CODE_RENAMES.get(raw, raw)
        message = str(exc.detail) if not isinstance(exc.detail, list | dict) else str(exc)
        if isinstance(exc, drf.ParseError):
            code = "malformed_json" if _is_json(context) else "malformed_body"
        elif isinstance(exc, drf.MethodNotAllowed):
            request = context.get("request")
            if request is not None:
                extra["method"] = request.method
        elif isinstance(exc, drf.PermissionDenied) and message.startswith("CSRF Failed"):
            # Session-authenticated writes need the CSRF token; API clients should use a token.
            code = "csrf_failed"
        elif isinstance(exc, drf.Throttled) and wait is not None:
            extra["wait"] = wait
    set_rollback()
    return Response(error_body(code, message, extra), status=exc.status_code, headers=headers)


def _is_json(context: dict[str, Any]) -> bool:
    request = context.get("request")
    content_type = getattr(request, "content_type", "") or ""
    return "json" in content_type or not content_type


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Render ``exc`` as ``{"code", "message", "extra"}``; ``None`` for unexpected errors."""
    if _is_domain_like(exc):
        set_rollback()
        extra = getattr(exc, "extra", None) or {}
        # An engine error's English message retold in the request's language (a domain
        # error's was translated where it was raised); the code never changes.
        body = error_body(exc.code, error_message(exc), extra)  # type: ignore[attr-defined]
        headers = {"Retry-After": str(extra["retry_after"])} if "retry_after" in extra else None
        return Response(body, status=status_for(exc), headers=headers)
    if isinstance(exc, Http404):
        exc = drf.NotFound()
    elif isinstance(exc, django_exceptions.PermissionDenied):
        exc = drf.PermissionDenied(*exc.args)
    elif isinstance(exc, django_exceptions.RequestDataTooBig):
        return _too_big()
    elif isinstance(exc, django_exceptions.SuspiciousOperation):
        # e.g. too many form fields: the message names no secret, only the limit.
        set_rollback()
        return Response(error_body("bad_request", str(exc) or "Bad request."), status=400)
    elif isinstance(exc, django_exceptions.ValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        exc = drf.ValidationError(detail)
    if isinstance(exc, drf.APIException):
        return _from_api_exception(exc, context)
    return None


def _too_big() -> Response:
    set_rollback()
    return Response(body_too_large_body(), status=413)


def body_too_large_body() -> dict[str, Any]:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return error_body(
        "body_too_large",
        f"The request body is larger than the limit of {limit} bytes.",
        {"limit": limit},
    )


__all__ = ["DomainError", "api_exception_handler", "body_too_large_body"]
