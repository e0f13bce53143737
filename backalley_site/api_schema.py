"""Pieces of the OpenAPI description shared by every app."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from accounts.permissions import need_of


class ErrorSerializer(serializers.Serializer[Any]):
    """The one error shape: use in ``extend_schema(responses={400: ErrorSerializer, ...})``."""

    code = serializers.CharField(help_text="A stable identifier, e.g. 'illegal_card'.")
    message = serializers.CharField(help_text="An explanation for people.")
    extra = serializers.DictField(help_text="Details that depend on the code.")


# Statuses any operation may answer in the error shape, whatever the view: bad input or
# query parameters (400), a missing object in the path (404), a method the path does not
# take (405), a throttle (429). Logged-in operations add 401/403 (the token and its scope),
# operations with a body add 413 (too large) and 415 (not JSON or a form).
_EVERY = ("400", "404", "405", "429")
_LOGGED_IN = ("401", "403")
_WITH_BODY = ("413", "415")
_REASONS = {
    "400": "Bad input: `invalid` (field errors in `extra.fields`), `malformed_json`, ...",
    "401": "`not_authenticated`, `invalid_token` or `token_revoked`.",
    "403": "`insufficient_scope` (the token lacks the scope this needs), or a rule of the "
    "operation (`not_your_seat`, ...).",
    "404": "Nothing there (`not_found`, `game_not_found`, ...).",
    "405": "`method_not_allowed`.",
    "409": "The state does not allow it now (see the operation's description).",
    "413": "`body_too_large`.",
    "415": "`unsupported_media_type`: send JSON.",
    "422": "See the operation's description.",
    "429": "`throttled` or a per-account limit; `Retry-After` says when to try again.",
}
_ERROR_REF = {"$ref": "#/components/schemas/Error"}


def _error_response(code: str) -> dict[str, Any]:
    return {
        "description": _REASONS.get(code, "An error in the one error shape."),
        "content": {"application/json": {"schema": _ERROR_REF}},
    }


def document_errors(result: dict[str, Any], generator: Any, **kwargs: Any) -> dict[str, Any]:
    """Spectacular post-processing hook: every operation lists every status it can answer,
    each error in the one shape, and says which scope it needs (``accounts.permissions``)."""
    needs: dict[tuple[str, str], Any] = {}
    for path, _regex, method, view in getattr(generator, "endpoints", None) or []:
        needs[(path, method.lower())] = need_of(getattr(view, "cls", view), method.upper())
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.setdefault(
        "Error",
        {
            "type": "object",
            "properties": {
                "code": {"type": "string"},
                "message": {"type": "string"},
                "extra": {"type": "object", "additionalProperties": {}},
            },
            "required": ["code", "message", "extra"],
        },
    )
    for path, operations in result.get("paths", {}).items():
        for method, op in operations.items():
            if not isinstance(op, dict) or "responses" not in op:
                continue
            need = needs.get((path, method))
            codes = list(_EVERY)
            if need is None or not need.public:
                codes += _LOGGED_IN
            if method in ("post", "put", "patch"):
                codes += _WITH_BODY
            responses = op["responses"]
            for code in codes:
                responses.setdefault(code, _error_response(code))
            for code, response in responses.items():
                if code.startswith(("4", "5")) and response.get("description", "x") in ("", None):
                    response["description"] = _REASONS.get(code, "")
            if need is not None:
                scope = "anyone" if need.public else need.name
                op["description"] = (op.get("description") or "") + f"\n\nScope: {scope}."
                if need.public:
                    op["security"] = [{}]
    return result
