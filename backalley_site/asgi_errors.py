"""Django's ASGI handler, with the request body capped and its own refusals in the error shape.

* Django's handler reads a whole request body (into a temporary file) before any middleware
  runs, however large; the site takes no uploads, so a body over
  ``DATA_UPLOAD_MAX_MEMORY_SIZE`` is refused with a 413 as soon as it is declared or
  streamed past the limit, and never stored.
* Django answers a query string that is not UTF-8 with a bare ``400`` before any error view
  runs; under ``/api/`` that answer, and the 413, leave as ``{"code", "message", "extra"}``.
"""

from __future__ import annotations

from typing import Any

import django
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler, ASGIRequest
from django.http import HttpResponse, HttpResponseBase, JsonResponse

from backalley_site.errors import error_body


class ShapedASGIHandler(ASGIHandler):
    def load_middleware(self, is_async: bool = False) -> None:
        """The middleware chain built sync and entered once per request, in its thread.

        Why: Django's async chain runs each sync middleware hook (every ``MiddlewareMixin``:
        sessions, CSRF, auth, messages, …) through ``sync_to_async``, a round trip between
        the event loop and the request's thread per hook: about 15 per request here. With
        thousands of clients waiting on the same loop, each round trip waits its turn,
        and a page or a move took tens of milliseconds longer than its work. The site's
        views are sync; the event feed's async views have their own handler
        (``games.api.asgi``), whose waits must never hold a thread.
        """
        super().load_middleware(is_async=False)
        chain: Any = getattr(self, "_middleware_chain")  # noqa: B009 - set just above
        self._middleware_chain = sync_to_async(chain, thread_sensitive=True)

    async def handle(self, scope: Any, receive: Any, send: Any) -> None:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is None:
            await super().handle(scope, receive, send)
            return
        declared = _declared_length(scope)
        if declared is not None and declared > limit:
            await _send(send, _too_big(scope))
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # the client left before its request was complete
            body += message.get("body", b"")
            if len(body) > limit:
                await _send(send, _too_big(scope))
                return
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> dict[str, Any]:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return dict(await receive())  # later reads wait for the disconnect, as Django does

        await super().handle(scope, replay, send)

    def create_request(
        self, scope: Any, body_file: Any
    ) -> tuple[ASGIRequest, None] | tuple[None, HttpResponseBase]:
        created = super().create_request(scope, body_file)
        response = created[1]
        if response is None or not str(scope.get("path", "")).startswith("/api/"):
            return created
        if response.status_code == 413:
            # Its module needs DRF and Django set up; this one is imported before (asgi.py).
            from backalley_site.exception_handler import body_too_large_body

            return None, JsonResponse(body_too_large_body(), status=413)
        return None, JsonResponse(
            error_body("bad_request", "The request could not be read."),
            status=response.status_code,
        )


def _declared_length(scope: Any) -> int | None:
    for name, value in scope.get("headers", []):
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def _too_big(scope: Any) -> HttpResponse:
    if str(scope.get("path", "")).startswith("/api/"):
        # Its module needs DRF and Django set up; this one is imported before (asgi.py).
        from backalley_site.exception_handler import body_too_large_body

        return JsonResponse(body_too_large_body(), status=413)
    return HttpResponse("Request body too large.", status=413, content_type="text/plain")


async def _send(send: Any, response: HttpResponse) -> None:
    headers = [(b"content-type", response["Content-Type"].encode("latin-1"))]
    headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": response.status_code, "headers": headers})
    await send({"type": "http.response.body", "body": response.content})


def get_shaped_asgi_application() -> ShapedASGIHandler:
    """Like ``django.core.asgi.get_asgi_application``, with the handler above."""
    django.setup(set_prefix=False)
    return ShapedASGIHandler()
