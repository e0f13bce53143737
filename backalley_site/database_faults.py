"""When the database cannot be reached: a 503 ``database_unavailable``, never a 500 or a hang.

While PostgreSQL restarts (or its host is gone), every request that needs it fails with
Django's ``OperationalError`` or ``InterfaceError``. Those are not bugs of the request, so
they leave as ``503`` in the one error shape (a short page outside ``/api/``), with ``Retry-After`` (the client may simply
try again), and are counted in ``backalley_database_unavailable_total``
(docs/deployment.md, "Faults"). How long a request may wait first is bounded by settings:
``DB_CONNECT_TIMEOUT`` (libpq's ``connect_timeout``) and, with the pool, ``DB_POOL_TIMEOUT``.

Two doors, since Django turns an exception into a response at every layer of the middleware:

* :class:`DatabaseUnavailableMiddleware` answers what a view raised (its
  ``process_exception``: DRF's handler leaves these to Django);
* :func:`answer_for_current_exception` is asked by the site's 500 handler
  (``backalley_site.error_views.server_error``), which Django calls for what a middleware
  raised (a session saved after the view, say) and for the event feed's handler.

Only a lost or refused connection counts: a serialization failure, a deadlock or a
cancelled statement is an ``OperationalError`` too, but the database answered; those stay
errors of the request.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from backalley_site import metrics
from backalley_site.errors import error_body

logger = logging.getLogger(__name__)

CODE = "database_unavailable"
RETRY_AFTER_S = 5

# SQLSTATEs of a server that is going away or not yet back: class 08 (connection
# exception), and an administrator's or a crash's shutdown, or "the database is starting up".
_SHUTDOWN_STATES = frozenset({"57P01", "57P02", "57P03"})


def is_database_unavailable(exc: BaseException | None) -> bool:
    """Whether ``exc`` says the database could not be reached (not that it refused a query).

    >>> is_database_unavailable(InterfaceError("connection already closed"))
    True
    >>> is_database_unavailable(ValueError("no"))
    False
    """
    if isinstance(exc, InterfaceError):
        return True
    if not isinstance(exc, OperationalError):
        return False
    cause = exc.__cause__
    if cause is None or not hasattr(cause, "sqlstate"):
        return False  # not psycopg's (SQLite's "database is locked" is a request's error)
    state = cause.sqlstate
    # No SQLSTATE: the connection failed or broke (refused, reset, the pool's wait ran out).
    return state is None or str(state).startswith("08") or state in _SHUTDOWN_STATES


def unavailable_response(request: HttpRequest, exc: BaseException) -> HttpResponse:
    """The 503, counted and logged (a warning: the cause is the database, not this request)."""
    metrics.DATABASE_UNAVAILABLE.inc()
    logger.warning(
        "database unavailable: %s %s answered 503 (%s)",
        request.method,
        request.path,
        str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__,
    )
    message = _(
        "The service cannot reach its database just now. Please try again in a few seconds."
    )
    response: HttpResponse
    if request.path.startswith("/api/"):
        body = error_body(CODE, message, {"retry_after": RETRY_AFTER_S})
        response = JsonResponse(body, status=503)
    else:  # a page: no context processors (they would read the session and the user)
        page = render_to_string("503.html", {"message": message})
        response = HttpResponse(page, status=503)
    response["Retry-After"] = str(RETRY_AFTER_S)
    return response


def answer_for_current_exception(request: HttpRequest) -> HttpResponse | None:
    """The 503 when the exception being handled now is the database's absence, else None.
    For Django's 500 handler, which is called inside the ``except`` that caught it."""
    exc = sys.exc_info()[1]
    if exc is None or not is_database_unavailable(exc):
        return None
    return unavailable_response(request, exc)


class DatabaseUnavailableMiddleware:
    """A view that raised because the database is gone answers 503 ``database_unavailable``.
    Sync and async alike: it only adds ``process_exception``."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        if iscoroutinefunction(get_response):
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if is_database_unavailable(exception):
            return unavailable_response(request, exception)
        return None
