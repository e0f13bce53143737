"""The one error shape of the service: ``{"code": ..., "message": ..., "extra": {...}}``.

Domain code raises a :class:`DomainError` (or a subclass) with a stable ``code``; the DRF
exception handler in :mod:`backalley_site.exception_handler` renders it, and every other
error DRF or Django raises, in that same shape.
"""

from __future__ import annotations

from typing import Any


class DomainError(Exception):
    """A business-rule failure with a stable code that clients and tests rely on.

    Raise it directly (``DomainError("name_taken", "That name is taken.")``) or subclass
    it to fix a code and status. ``message`` is for people; ``extra`` is JSON-able detail.
    """

    code: str = "error"
    http_status: int = 400

    def __init__(
        self,
        code: str | None = None,
        message: str = "",
        *,
        http_status: int | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        if code is not None:
            self.code = code
        if http_status is not None:
            self.http_status = http_status
        self.message = message or self.code.replace("_", " ").capitalize() + "."
        self.extra: dict[str, Any] = dict(extra or {})
        super().__init__(self.message)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, message={self.message!r})"


class NotFoundError(DomainError):
    code = "not_found"
    http_status = 404


class ConflictError(DomainError):
    code = "conflict"
    http_status = 409


def error_body(code: str, message: str, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The one error shape, for code outside DRF (middleware, plain Django views)."""
    return {"code": code, "message": message, "extra": dict(extra or {})}
