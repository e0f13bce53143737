"""The ASGI handler for the event feed's URLs: one trip to a thread per request, and no
thread while a client waits.

Django's ASGIHandler runs each sync middleware hook through ``sync_to_async``, one round
trip between the event loop and a thread per hook (about ten for a GET of the feed), and
gives every request a "thread-sensitive context" that can hold a thread for as long as the
response lasts: an hour, for a stream. Here a feed request is admitted in **one** call in
the hub's database threads: the feed's middleware, sync, around the view's DRF gate
(authentication, scopes, the game and its seats, the parameters). A refusal is sent as the
middleware left it. An admission (:class:`games.api.events.Admitted`) has been through the
middleware's response phase too; its ``proceed`` then waits as a coroutine and makes the
answer, which takes the headers and cookies the middleware set (``carry_to``).

A long poll comes back after every answer, so this path is run thousands of times a minute
on a busy server (docs/live.md, "Benchmark").
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any, cast

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.handlers.asgi import ASGIHandler, ASGIRequest
from django.core.handlers.exception import response_for_exception
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.test.utils import override_settings
from django.urls import set_urlconf
from django.utils.log import log_response

from games.api.events import MAX_WAIT, Admitted
from games.live import admissions
from games.live import hub as live_hub

# Where a long poll's scope carries its ticket key to the admission (games.live.admissions).
_TICKET_KEY = "backalley.admission_key"

# /api/v1/games/<id>/events/ and /api/v1/games/<id>/events/stream/
FEED_PATH = re.compile(r"^/api/v1/games/[^/]+/events/(?:stream/)?$")


# The site's middleware that a feed request needs: the request id and admission time, security
# headers, the request guards, and the session and user (for a browser's signed-in table page). The rest (static files, CSRF,
# messages, slash redirects, login lockouts) has nothing to do with a GET of the feed.
FEED_MIDDLEWARE = (
    "backalley_site.telemetry.RequestTelemetryMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "backalley_site.middleware.RequestSanityMiddleware",
    "backalley_site.middleware.ApiBodySizeLimitMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
)


def feed_middleware(site_middleware: list[str]) -> list[str]:
    """The feed's share of the site's middleware, in the site's order. Each of
    FEED_MIDDLEWARE must be in the site's list: one renamed there must not silently drop
    its guard from the feed."""
    missing = [m for m in FEED_MIDDLEWARE if m not in site_middleware]
    if missing:
        raise ImproperlyConfigured(
            f"The event feed's middleware is not in MIDDLEWARE: {', '.join(missing)}"
        )
    return [m for m in site_middleware if m in FEED_MIDDLEWARE]


class FeedHandler(ASGIHandler):
    def load_middleware(self, is_async: bool = False) -> None:
        # Django builds the chain from settings.MIDDLEWARE alone; this runs once, when the
        # application is built, before any request. Built sync: it runs in one thread call.
        with override_settings(MIDDLEWARE=feed_middleware(list(settings.MIDDLEWARE))):
            super().load_middleware(is_async=False)

    def resolve_request(self, request: HttpRequest) -> Any:
        """The view the chain calls is the feed view's gate (its ``admission``)."""
        match = super().resolve_request(request)
        admission = getattr(match.func, "admission", None)
        if admission is None:
            raise ImproperlyConfigured(f"{request.path} is not an event feed with a gate.")
        return admission, match.args, match.kwargs

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        set_urlconf(settings.ROOT_URLCONF)
        chain: Any = getattr(self, "_middleware_chain")  # noqa: B009 - set by load_middleware
        generation = admissions.tickets.generation
        response: HttpResponseBase = await live_hub.get().db(chain, request)
        if isinstance(response, Admitted):
            admitted = response
            key = request.scope.get(_TICKET_KEY) if isinstance(request, ASGIRequest) else None
            if key is not None and admitted.reusable and not admitted.cookies:
                admissions.tickets.remember(
                    key,
                    generation=generation,
                    game_id=admitted.game_id,
                    seat=admitted.seat,
                    holder=admitted.holder,
                    headers=admitted.middleware_headers(),
                )
            try:
                response = await admitted.proceed(inline=False)
            except Exception as exc:  # as Django's handler would answer it: logged, shaped
                response = await sync_to_async(response_for_exception, thread_sensitive=False)(
                    request, exc
                )
            admitted.carry_to(response)
        response._resource_closers.append(request.close)  # type: ignore[attr-defined]
        await _log_refusal(request, response)
        return response

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"The feed serves HTTP only, not {scope['type']}.")
        if settings.LIVE_ADMISSION_TTL > 0:
            polled = admissions.read(scope, MAX_WAIT)
            if polled is not None:
                ticket = admissions.tickets.get(polled.key)
                if ticket is not None:
                    await self._serve_ticket(ticket, polled, scope, receive, send)
                    return
                scope = {**scope, _TICKET_KEY: polled.key}  # kept if the gate admits it
        await self.handle(scope, receive, send)

    async def _serve_ticket(
        self,
        ticket: admissions.Ticket,
        polled: admissions.Request,
        scope: dict[str, Any],
        receive: Any,
        send: Any,
    ) -> None:
        """A returning long poll, admitted as last time: straight to its wait, in the loop."""
        if (await receive())["type"] == "http.disconnect":  # the (empty) request body
            return
        gate = Admitted(
            game_id=ticket.game_id,
            seat=ticket.seat,
            since=polled.since,
            wait=polled.wait,
            holder=ticket.holder,
            stream=False,
        )
        for name, value in ticket.headers:
            gate[name] = value
        answer = asyncio.ensure_future(gate.proceed(inline=False))
        left = asyncio.ensure_future(_disconnect(receive))
        try:
            await asyncio.wait({answer, left}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            left.cancel()
            answer.cancel()  # nothing when answered; else the client left: stop its wait
        try:
            response = await answer
        except asyncio.CancelledError:
            return
        except Exception as exc:
            response = await sync_to_async(response_for_exception, thread_sensitive=False)(
                ASGIRequest(scope, io.BytesIO()), exc
            )
        gate.carry_to(response)
        await self.send_response(response, send)
        if response.status_code >= 400:  # too_many_streams: logged as the gate's path does
            await _log_refusal(ASGIRequest(scope, io.BytesIO()), response)


async def _log_refusal(request: HttpRequest, response: HttpResponseBase) -> None:
    """Log an answer of 400 or more to django.request, as Django's handler does."""
    if response.status_code >= 400:
        await sync_to_async(log_response, thread_sensitive=False)(
            "%s: %s",
            response.reason_phrase,
            request.path,
            response=cast(HttpResponse, response),
            request=request,
        )


async def _disconnect(receive: Any) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


def route(site: Any) -> Any:
    """An ASGI application: the feed's URLs to :class:`FeedHandler`, the rest to ``site``."""
    feed = FeedHandler()

    async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and FEED_PATH.match(scope.get("path", "")):
            await feed(scope, receive, send)
        else:
            await site(scope, receive, send)

    return application
