"""The installable app: the web app manifest, the service worker and its offline page.

The service worker is served from the site's root (``/sw.js``) so that its scope is the
whole site. It keeps one page for itself, the offline page; everything else goes to the
network every time: a page (above all a table) is never answered from a stored copy, so a
board shown is never an old one, and the API, the event feed and the board fragments are
not even seen by it (docs/push.md, "The service worker").
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control, never_cache

THEME_COLOR = "#0b5d4b"  # the site's header green (static/css/site.css, --accent)
BACKGROUND_COLOR = "#fbfaf7"  # the page (--paper)
_TEMPLATES = Path(settings.BASE_DIR) / "templates"


def manifest_data() -> dict[str, object]:
    """The manifest, in the active language."""
    return {
        "id": "/",
        "name": "Back Alley Club",
        "short_name": "Back Alley",
        "description": _(
            "Back Alley by correspondence: play your move when it suits you, against "
            "friends or bots."
        ),
        "lang": translation.get_language() or settings.LANGUAGE_CODE,
        "dir": "rtl" if translation.get_language_bidi() else "ltr",
        "start_url": reverse("my-games"),
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "background_color": BACKGROUND_COLOR,
        "theme_color": THEME_COLOR,
        "categories": ["games"],
        "icons": [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("icons/maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
            {"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
        "shortcuts": [
            {"name": _("My games"), "url": reverse("my-games")},
            {"name": _("New game"), "url": reverse("new-game")},
        ],
    }


@cache_control(public=True, max_age=3600)
def manifest(request: HttpRequest) -> HttpResponse:
    body = json.dumps(manifest_data(), ensure_ascii=False, indent=1)
    return HttpResponse(body, content_type="application/manifest+json")


@cache
def worker_version() -> str:
    """Changes whenever the worker or its offline page changes, so browsers install anew
    (they compare the worker's bytes; the offline page is stored at install)."""
    digest = hashlib.sha256()
    for name in ("pwa/sw.js", "pwa/offline.html"):
        digest.update((_TEMPLATES / name).read_bytes())
    return digest.hexdigest()[:12]


@never_cache
def service_worker(request: HttpRequest) -> HttpResponse:
    context = {
        "version": worker_version(),
        "offline_url": reverse("offline"),
        "icon_url": static("icons/icon-192.png"),
        "badge_url": static("icons/icon-192.png"),
        "fallback_title": json.dumps("Back Alley Club"),
    }
    response = HttpResponse(
        render_to_string("pwa/sw.js", context), content_type="text/javascript; charset=utf-8"
    )
    # Its own address is the root already; said outright for proxies that rewrite paths.
    response["Service-Worker-Allowed"] = "/"
    return response


@cache_control(no_cache=True)
def offline(request: HttpRequest) -> HttpResponse:
    """What the service worker shows for a page when the network is down."""
    return render(request, "pwa/offline.html", {"theme_color": THEME_COLOR})
