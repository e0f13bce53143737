"""A request id for every request, carried into the tasks it causes; each request's time by
route (docs/deployment.md, "Metrics" and "Logs").

* **The request id** comes from the ``X-Request-ID`` header when the balancer (or a client)
  sends a plain one (up to 64 of ``A-Z a-z 0-9 . _ : -``), else it is made here; it is
  answered in ``X-Request-ID`` and set in a context variable for the request's work. Every
  task enqueued meanwhile carries it in a message header (``request_id``), and the worker
  sets it again while the task runs, so the tasks' own tasks carry it on.
* **Logs**: :class:`ContextFilter` puts ``request_id`` (and, in a worker, ``task_id`` and
  ``task``) on every record, so with ``LOG_FORMAT=json`` each line names the request that
  caused it. With ``LOG_REQUESTS`` every answered request is one line too
  (``backalley.request``: route, method, status, duration).
* **Latency**: :class:`RequestTelemetryMiddleware` observes each request's time in
  ``backalley_http_request_duration_seconds`` by the route's name (the URL pattern's
  ``view_name``, never the raw path: ids would make a label per game).
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from celery import current_task, signals
from django.conf import settings
from django.http import HttpRequest, HttpResponseBase

from backalley_site import metrics

HEADER = "X-Request-ID"
TASK_HEADER = "request_id"
_META = "HTTP_X_REQUEST_ID"
_PLAIN = re.compile(r"[A-Za-z0-9._:-]{1,64}")

request_id: ContextVar[str | None] = ContextVar("backalley_request_id", default=None)
requests_log = logging.getLogger("backalley.request")


def current_request_id() -> str | None:
    return request_id.get()


def new_request_id() -> str:
    return uuid.uuid4().hex


def _incoming(request: HttpRequest) -> str:
    given = request.META.get(_META, "")
    return given if isinstance(given, str) and _PLAIN.fullmatch(given) else new_request_id()


def route_of(request: HttpRequest) -> str:
    """The route's name for a metric label: the URL pattern's view name, or its pattern."""
    match = getattr(request, "resolver_match", None)
    if match is None:
        return "unmatched"
    return str(match.view_name or match.route or "unnamed")


class RequestTelemetryMiddleware:
    """First in MIDDLEWARE (and in the event feed's chain): the request id, the latency
    metric and, with ``LOG_REQUESTS``, the request's log line. Sync and async alike."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self._async = iscoroutinefunction(get_response)
        if self._async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self._async:
            return self._acall(request)
        rid, token, started = self._begin(request)
        try:
            response: HttpResponseBase = self.get_response(request)
        finally:
            request_id.reset(token)
        return self._end(request, response, rid, started)

    async def _acall(self, request: HttpRequest) -> HttpResponseBase:
        rid, token, started = self._begin(request)
        try:
            pending: Awaitable[HttpResponseBase] = self.get_response(request)
            response = await pending
        finally:
            request_id.reset(token)
        return self._end(request, response, rid, started)

    @staticmethod
    def _begin(request: HttpRequest) -> tuple[str, Any, float]:
        rid = _incoming(request)
        request.META["backalley.request_id"] = rid
        return rid, request_id.set(rid), time.perf_counter()

    @staticmethod
    def _end(
        request: HttpRequest, response: HttpResponseBase, rid: str, started: float
    ) -> HttpResponseBase:
        elapsed = time.perf_counter() - started
        response[HEADER] = rid
        route = route_of(request)
        metrics.observe_request(route, request.method or "GET", response.status_code, elapsed)
        if settings.LOG_REQUESTS:
            requests_log.info(
                "%s %s %s %.1f ms",
                request.method,
                route,
                response.status_code,
                elapsed * 1000,
                extra={
                    "request_id": rid,
                    "route": route,
                    "method": request.method,
                    "status": response.status_code,
                    "duration_ms": round(elapsed * 1000, 2),
                },
            )
        return response


class ContextFilter(logging.Filter):
    """Puts ``request_id`` (and, inside a Celery task, ``task_id`` and ``task``) on every
    record, for the formatter to show."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = request_id.get()
        if not hasattr(record, "task_id"):
            task = current_task
            if task is not None and getattr(task, "request", None) is not None and task.request.id:
                record.task_id = task.request.id
                record.task = task.name
        return True


# --- Celery: the id travels in a message header ---------------------------------------------
def on_before_task_publish(headers: dict[str, Any] | None = None, **kwargs: Any) -> None:
    rid = request_id.get()
    if rid is not None and headers is not None:
        headers.setdefault(TASK_HEADER, rid)


_task_tokens: dict[str, Any] = {}


def on_task_prerun(task_id: str | None = None, task: Any = None, **kwargs: Any) -> None:
    rid = getattr(getattr(task, "request", None), TASK_HEADER, None)
    if task_id is not None:
        _task_tokens[task_id] = request_id.set(rid if isinstance(rid, str) else None)


def on_task_postrun(task_id: str | None = None, **kwargs: Any) -> None:
    token = _task_tokens.pop(task_id or "", None)
    if token is not None:
        try:
            request_id.reset(token)
        except ValueError:  # set in another context (a thread pool): leave it to lapse
            request_id.set(None)


def connect_celery() -> None:
    """Called once, by the Celery app's module."""
    signals.before_task_publish.connect(on_before_task_publish, weak=False)
    signals.task_prerun.connect(on_task_prerun, weak=False)
    signals.task_postrun.connect(on_task_postrun, weak=False)
