"""Server-side time of each request, for bench/api.py: ``Server-Timing: app;dur=<ms>``.

Client-side latency under saturation is mostly waiting in the server's queue, which is the
same for every kind of request; the time Django spends on the request itself (all the
middleware, the view, its queries) is what tells a move's own cost.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse


class ServerTimingMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response = self.get_response(request)
        response["Server-Timing"] = f"app;dur={(time.perf_counter() - started) * 1000:.3f}"
        return response
