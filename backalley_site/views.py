"""Site-wide pages that belong to no single app."""

from __future__ import annotations

import functools
import hmac
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.cache import never_cache

from backalley_site import health, metrics
from backalley_site.errors import error_body
from daylong import selectors as daylong_selectors


def home(request: HttpRequest) -> HttpResponse:
    greeted = bool(request.session.pop("greeted", False))
    return render(request, "home.html", {"greeted": greeted, "daily": _daily()})


def _daily() -> dict[str, Any] | None:
    """Today's daylong for the home page: its title, entrants and when it closes."""
    event = daylong_selectors.current_daily()
    if event is None:
        return None
    return {
        "event": event,
        "title": daylong_selectors.event_title(event),
        "entries": event.entries.count(),
    }


def privacy(request: HttpRequest) -> HttpResponse:
    """What the club keeps about a person, why, and how they take it or have it erased."""
    return render(request, "privacy.html")


def rules(request: HttpRequest) -> HttpResponse:
    """The rules of Back Alley for players, in plain words with examples, in the page's
    language: one page per language (templates/rules/<code>.html), each checked rule by
    rule against docs/rules.md; English where a language has none."""
    language = translation.get_language() or settings.LANGUAGE_CODE
    return render(request, [f"rules/{language}.html", "rules/en.html"])


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness for load balancers and container health checks: the process and its database.

    ``?deep=1``: also Redis, a worker's heartbeat and the outbox's lag, each timed
    (:func:`backalley_site.health.deep_report` says what answers 503 and what 200
    ``degraded``)."""
    if request.GET.get("deep") in ("1", "true", "yes"):
        status, body = health.deep_report()
        return JsonResponse(body, status=status)
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return JsonResponse(error_body("unhealthy", "The database cannot be reached."), status=503)
    return JsonResponse({"status": "ok"})


def in_english(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """``view`` answered in English whatever the request's language, rendered inside the
    override (a DRF response renders later, when its language would be the request's)."""

    @functools.wraps(view)
    def english(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        with translation.override("en"):
            response = view(request, *args, **kwargs)
            render = getattr(response, "render", None)
            if callable(render):
                render()
        return response

    return english


def _metrics_allowed(request: HttpRequest) -> bool:
    token = settings.METRICS_TOKEN
    if not token:
        return False
    given = request.headers.get("Authorization", "")
    scheme, _, secret = given.partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(secret.strip(), token)


@never_cache
def metrics_view(request: HttpRequest) -> HttpResponse:
    """Prometheus' scrape of this node: ``Authorization: Bearer <METRICS_TOKEN>``. Without
    the token (or with none configured) the address answers 404, as if it were not there."""
    if not _metrics_allowed(request):
        return JsonResponse(
            error_body("not_found", "There is nothing at this address.", {"path": request.path}),
            status=404,
        )
    body, content_type = metrics.exposition()
    return HttpResponse(body, content_type=content_type)


metrics.register_scrape("celery_queues", health.scrape_queues)
metrics.register_scrape("workers", health.scrape_workers)
