"""Request guards that run before any view."""

from __future__ import annotations

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
