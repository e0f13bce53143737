"""The ASGI handler for the event feed's URLs: Django's, minus the thread per request.

Django's ASGIHandler gives every request a "thread-sensitive context": the first sync call
of the request (the request_started signal's receivers, a middleware hook) starts a thread
that lives until the response is over. For a client that waits an hour on a stream that is
an idle thread per client. The feed's views are async and do their database work in the
hub's small pool, so here the few sync hooks (signals, middleware) run on asgiref's one
shared thread instead, briefly, and a waiting client is only a coroutine.
"""

from __future__ import annotations

import re
from typing import Any

from django.core.handlers.asgi import ASGIHandler

# /api/v1/games/<id>/events/ and /api/v1/games/<id>/events/stream/
FEED_PATH = re.compile(r"^/api/v1/games/[^/]+/events/(?:stream/)?$")


# The site's middleware that a feed request needs: security headers, the request guards, and
# the session and user (for a browser's signed-in table page). The rest (static files, CSRF,
# messages, slash redirects, login lockouts) has nothing to do with a GET of the feed, and
# under the async handler each sync hook is a round trip through the loop that the waiting
# clients share (docs/live.md, "Benchmark").
FEED_MIDDLEWARE = (
    "django.middleware.security.SecurityMiddleware",
    "backalley_site.middleware.RequestSanityMiddleware",
    "backalley_site.middleware.ApiBodySizeLimitMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
)


class FeedHandler(ASGIHandler):
    def load_middleware(self, is_async: bool = False) -> None:
        from django.conf import settings
        from django.test.utils import override_settings

        # Django builds the chain from settings.MIDDLEWARE alone; this runs once, when the
        # application is built, before any request.
        kept = [m for m in settings.MIDDLEWARE if m in FEED_MIDDLEWARE]
        with override_settings(MIDDLEWARE=kept):
            super().load_middleware(is_async)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"The feed serves HTTP only, not {scope['type']}.")
        await self.handle(scope, receive, send)


def route(site: Any) -> Any:
    """An ASGI application: the feed's URLs to :class:`FeedHandler`, the rest to ``site``."""
    feed = FeedHandler()

    async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and FEED_PATH.match(scope.get("path", "")):
            await feed(scope, receive, send)
        else:
            await site(scope, receive, send)

    return application
