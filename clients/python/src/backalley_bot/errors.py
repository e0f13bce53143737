"""Typed errors: every refusal of the service carries its stable ``code`` (docs/api.md).

The service answers an error in one shape, ``{"code", "message", "extra"}``; the client
raises the :class:`ApiError` subclass registered for that code (``StaleState`` for
``stale_state``, ...), or :class:`ApiError` itself for a code this kit does not name:

>>> err = error_from(409, {"code": "stale_state", "message": "Moved on.", "extra": {}})
>>> type(err).__name__, err.code, err.status
('StaleState', 'stale_state', 409)
>>> isinstance(error_from(400, {"code": "must_follow_suit", "message": "Follow."}), IllegalMove)
True
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any, ClassVar


class BotKitError(Exception):
    """The base of every error this kit raises."""


class TransportError(BotKitError):
    """The service could not be reached, or kept failing (5xx) after the retries."""


class ApiError(BotKitError):
    """A refusal by the service: ``code`` (stable), ``message`` (for people), ``extra``."""

    codes: ClassVar[tuple[str, ...]] = ()

    def __init__(
        self, code: str, message: str, *, status: int, extra: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.status = status
        self.extra: Mapping[str, Any] = extra or {}


class StaleState(ApiError):
    """The game moved on since the ``expected_seq`` sent (the state is in ``extra``)."""

    codes = ("stale_state",)


class NotYourTurn(ApiError):
    codes = ("not_your_turn",)


class NotYourSeat(ApiError):
    codes = ("not_your_seat",)


class IllegalMove(ApiError):
    """The engine refused the action (the rule broken is the code)."""

    codes = (
        "illegal_move",
        "illegal_card",
        "illegal_bid",
        "must_follow_suit",
        "must_play_highest_trump",
        "must_play_lowest_trump",
        "trump_not_broken",
        "wrong_phase",
        "game_over",
        "bad_action",
    )


class TooManyStreams(ApiError):
    """The token holds as many open streams and long polls as it may (``retry_after`` s)."""

    codes = ("too_many_streams",)

    @property
    def retry_after(self) -> float:
        return float(self.extra.get("retry_after", 5))


class AuthError(ApiError):
    """No valid token, or a token without the scope the call needs."""

    codes = ("not_authenticated", "authentication_failed", "permission_denied", "missing_scope")


class NotFound(ApiError):
    codes = ("not_found", "game_not_found", "bot_not_found")


class RateLimited(ApiError):
    codes = ("throttled", "rate_limited")


_BY_CODE: dict[str, type[ApiError]] = {
    code: cls
    for cls in (StaleState, NotYourTurn, NotYourSeat, IllegalMove, TooManyStreams, AuthError)
    + (NotFound, RateLimited)
    for code in cls.codes
}


def error_from(status: int, body: Any, retry_after: str | None = None) -> ApiError:
    """The typed error for an answer with ``status`` and the service's error ``body``."""
    if not isinstance(body, Mapping) or not isinstance(body.get("code"), str):
        body = {"code": f"http_{status}", "message": str(body)[:200]}
    code = body["code"]
    extra = dict(body.get("extra") or {})
    if retry_after is not None:
        with contextlib.suppress(ValueError):
            extra.setdefault("retry_after", float(retry_after))
    cls = _BY_CODE.get(code)
    if cls is None:
        cls = NotFound if status == 404 else AuthError if status in (401, 403) else ApiError
        if status == 403 and code == "not_your_seat":
            cls = NotYourSeat
    return cls(code, str(body.get("message", "")), status=status, extra=extra)
