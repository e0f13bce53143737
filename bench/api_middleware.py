"""Server-side time and queries of each request, for bench/api.py:
``Server-Timing: db;desc=queries;dur=<n>, app;dur=<ms>``.

Client-side latency under saturation is mostly waiting in the server's queue, which is the
same for every kind of request; the time Django spends on the request itself (all the
middleware, the view, its queries) is what tells a move's own cost.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from django.db import connection
from django.http import HttpRequest, HttpResponse


class ServerTimingMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        queries = 0

        def count(execute, sql, params, many, context):  # type: ignore[no-untyped-def]
            nonlocal queries
            queries += 1
            return execute(sql, params, many, context)

        started = time.perf_counter()
        with connection.execute_wrapper(count):  # the after-commit delivery included
            response = self.get_response(request)
        took = (time.perf_counter() - started) * 1000
        response["Server-Timing"] = f"db;desc=queries;dur={queries}, app;dur={took:.3f}"
        return response
