"""The ASGI handler for the event feed's URLs: Django's request handling for the admission
only, then a wait that holds almost nothing.

Django's ASGIHandler keeps a request's whole stack alive until its response is over: the
request, the middleware's coroutines, the view's frame and a thread-sensitive context whose
first sync call starts a thread. For a client that waits an hour on a stream, or a minute
on a long poll, that is a few hundred objects that every full garbage collection walks,
and an idle thread. Here the middleware and the feed's view run as usual and *admit* the
request (authentication, scopes, parameters, the per-token cap); under this handler the view
answers with a :class:`Pending` instead of waiting. The handler then finishes the request
(Django's ``request_finished``: connections back to the pool), lets the request go, and
runs the wait with what the pending answer holds (the game, the seat, ``since``, the
slot, the headers the middleware set), racing the client's disconnect as Django does.

Sync hooks (signals, middleware) run on asgiref's one shared thread, briefly; the feed's
database reads run in the hub's small pool.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import HttpResponse, HttpResponseBase
from django.urls import set_script_prefix

# /api/v1/games/<id>/events/ and /api/v1/games/<id>/events/stream/
FEED_PATH = re.compile(r"^/api/v1/games/[^/]+/events/(?:stream/)?$")
# Set in the scope of a request this handler serves: its view may answer with a Pending.
DEFERRED = "backalley.feed.deferred"
_OWN_HEADERS = {"content-type", "content-length"}


class Pending(HttpResponse):
    """A feed view's answer once the request is admitted: ``respond()`` waits and builds
    the real response. Never sent as it is; the middleware's headers on it are copied."""

    def __init__(self, respond: Callable[[], Awaitable[HttpResponseBase]]) -> None:
        super().__init__(status=200)
        self.respond: Callable[[], Awaitable[HttpResponseBase]] | None = respond


def deferred(request: Any) -> bool:
    """Whether this request is served by :class:`FeedHandler` (so may answer a Pending)."""
    scope = getattr(request, "scope", None)
    return bool(scope and scope.get(DEFERRED))


class FeedHandler(ASGIHandler):
    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"The feed serves HTTP only, not {scope['type']}.")
        scope = {**scope, DEFERRED: True}
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        set_script_prefix(get_script_prefix(scope))
        await signals.request_started.asend(sender=self.__class__, scope=scope)
        request, refusal = self.create_request(scope, body_file)
        if request is None:
            assert refusal is not None  # Django's answer to a request it cannot build
            response: HttpResponseBase = refusal
        else:
            response = await self.get_response_async(request)
            response._handler_class = self.__class__  # type: ignore[attr-defined]
        del request
        body_file.close()
        respond = getattr(response, "respond", None)
        if respond is None:  # refused, or answered at once
            await self.send_response(response, send)
            await sync_to_async(response.close)()
            return
        headers = [(k, v) for k, v in response.items() if k.lower() not in _OWN_HEADERS]
        cookies = response.cookies
        assert isinstance(response, Pending)
        response.respond = None
        # The request is over for Django (request_finished: its connections go back to the
        # pool); what follows holds only the pending answer.
        await sync_to_async(response.close)()
        del response
        await self._answer(respond, headers, cookies, receive, send)

    async def _answer(
        self,
        respond: Callable[[], Awaitable[HttpResponseBase]],
        headers: list[tuple[str, str]],
        cookies: Any,
        receive: Any,
        send: Any,
    ) -> None:
        async def answer() -> None:
            final = await respond()
            for name, value in headers:
                final[name] = value
            final.cookies.update(cookies)
            await self.send_response(final, send)

        # As Django does: the client's disconnect ends the wait (and frees its slot).
        tasks = [
            asyncio.ensure_future(self.listen_for_disconnect(receive)),
            asyncio.ensure_future(answer()),
        ]
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in tasks:
            if not task.done():
                task.cancel()
            with contextlib.suppress(RequestAborted, asyncio.CancelledError):
                await task


def route(site: Any) -> Any:
    """An ASGI application: the feed's URLs to :class:`FeedHandler`, the rest to ``site``."""
    feed = FeedHandler()

    async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and FEED_PATH.match(scope.get("path", "")):
            await feed(scope, receive, send)
        else:
            await site(scope, receive, send)

    return application
