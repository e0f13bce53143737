"""Request guards that run before any view."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import translation
from django.utils.deprecation import MiddlewareMixin
from whitenoise.middleware import WhiteNoiseMiddleware

from backalley_site import error_views
from backalley_site.exception_handler import body_too_large_body
from backalley_site.text import CONTROL_IN_HEADER_CLASS


class _SyncAndAsync:
    """Runs in the request stack as it is: sync under WSGI, async under ASGI.

    Why: under ASGI one sync-only middleware makes Django run everything below it, the
    async event feed included, in a thread per request; a waiting client must stay a
    coroutine.
    """

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self._async = iscoroutinefunction(get_response)
        if self._async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        early = self.answer(request)
        if self._async:
            return self._acall(request, early)
        return early if early is not None else self.get_response(request)

    async def _acall(self, request: HttpRequest, early: HttpResponse | None) -> HttpResponse:
        if early is not None:
            return early
        response: Awaitable[HttpResponse] = self.get_response(request)
        return await response

    def answer(self, request: HttpRequest) -> HttpResponse | None:
        """A response that stops the request here, or None to go on."""
        raise NotImplementedError


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    """WhiteNoise, usable by an async request stack (WhiteNoise itself is sync-only)."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any], **kwargs: Any) -> None:
        super().__init__(get_response, **kwargs)
        self._async = iscoroutinefunction(get_response)
        if self._async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if not self._async:
            return super().__call__(request)
        return self._acall(request)

    async def _acall(self, request: HttpRequest) -> HttpResponse:
        path = request.path_info
        static_file = self.find_file(path) if self.autorefresh else self.files.get(path)
        if static_file is not None:
            served: HttpResponse = await sync_to_async(self.serve, thread_sensitive=False)(
                static_file, request
            )
            return served
        response: HttpResponse = await self.get_response(request)
        return response


class ApiBodySizeLimitMiddleware(_SyncAndAsync):
    """Refuse API requests whose declared body exceeds ``DATA_UPLOAD_MAX_MEMORY_SIZE``.

    Why: DRF's parsers read the raw request stream, which bypasses Django's own body-size
    check (that check guards only ``request.body`` and form parsing). Django's WSGI stream
    never reads past ``Content-Length``, so checking the declared length is enough.
    """

    def answer(self, request: HttpRequest) -> HttpResponse | None:
        if request.path.startswith("/api/"):
            limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            if limit is not None and length > limit:
                return JsonResponse(body_too_large_body(), status=413)
        return None


# Control characters never belong in a path, a query or a header value; PostgreSQL cannot
# even store NUL. Tab is allowed in header values (HTTP permits it).
_CONTROL = re.compile(f"[{CONTROL_IN_HEADER_CLASS}\\ud800-\\udfff]")
_CONTROL_IN_PATH = re.compile(r"[\x00-\x1f\x7f]")


class RequestSanityMiddleware(_SyncAndAsync):
    """Answer unreadable requests before any view runs, so no input can become a 500.

    A path with a control character names nothing (404); a query string or a header value
    with one is a bad request (400). Both in the one error shape under ``/api/``.
    """

    def answer(self, request: HttpRequest) -> HttpResponse | None:
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
        return None


class LanguageQueryMiddleware(MiddlewareMixin):
    """``?lang=sv`` shows one page in that language without changing anyone's choice.

    Why: the pages' addresses carry no language prefix, so the ``hreflang`` alternates
    of a page (templates/base.html) are its own address with ``?lang=``; a search engine
    or a shared link then gets the language it names. Runs after ``LocaleMiddleware``,
    whose choice (cookie, then ``Accept-Language``) it overrides for this request only.
    """

    def process_request(self, request: HttpRequest) -> None:
        code = request.GET.get("lang", "")
        if code and code in dict(settings.LANGUAGES):
            translation.activate(code)
            request.LANGUAGE_CODE = code

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if "lang" in request.GET:
            response.headers.setdefault("Content-Language", translation.get_language() or "")
        return response
