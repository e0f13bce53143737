"""Request guards that run before any view."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse

from backalley_site.exception_handler import body_too_large_body


class ApiBodySizeLimitMiddleware:
    """Refuse API requests whose declared body exceeds ``DATA_UPLOAD_MAX_MEMORY_SIZE``.

    Why: DRF's parsers read the raw request stream, which bypasses Django's own body-size
    check (that check guards only ``request.body`` and form parsing). Django's WSGI stream
    never reads past ``Content-Length``, so checking the declared length is enough.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path.startswith("/api/"):
            limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            if limit is not None and length > limit:
                return JsonResponse(body_too_large_body(), status=413)
        return self.get_response(request)


# Control characters never belong in a path, a query or a header value; PostgreSQL cannot
# even store NUL. Tab is allowed in header values (HTTP permits it).
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f\ud800-\udfff]")
_CONTROL_IN_PATH = re.compile(r"[\x00-\x1f\x7f]")


class RequestSanityMiddleware:
    """Answer unreadable requests before any view runs, so no input can become a 500.

    A path with a control character names nothing (404); a query string or a header value
    with one is a bad request (400). Both in the one error shape under ``/api/``.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        from backalley_site import error_views

        if _CONTROL_IN_PATH.search(request.path):
            return error_views.not_found(request)
        for key, values in request.GET.lists():
            if _CONTROL.search(key) or any(_CONTROL.search(v) for v in values):
                return error_views.bad_request(request, message="The query string is not text.")
        for name, value in request.META.items():
            if name.startswith("HTTP_") and isinstance(value, str) and _CONTROL.search(value):
                header = name[5:].replace("_", "-").title()
                return error_views.bad_request(
                    request, message=f"The {header} header holds control characters."
                )
        return self.get_response(request)
