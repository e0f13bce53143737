"""Site-wide pages that belong to no single app."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.cache import never_cache

from backalley_site.errors import error_body


def home(request: HttpRequest) -> HttpResponse:
    greeted = bool(request.session.pop("greeted", False))
    return render(request, "home.html", {"greeted": greeted})


def rules(request: HttpRequest) -> HttpResponse:
    """The rules of Back Alley for players, in plain words with examples, in the page's
    language: one page per language (templates/rules/<code>.html), each checked rule by
    rule against docs/rules.md; English where a language has none."""
    language = translation.get_language() or settings.LANGUAGE_CODE
    return render(request, [f"rules/{language}.html", "rules/en.html"])


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness for load balancers and container health checks: the process and its database."""
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
