"""The installable app's files: the manifest, the service worker at the root, the offline page."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

pytestmark = pytest.mark.django_db


def png_size(path: str) -> tuple[int, int]:
    """Width and height from a PNG's header (its IHDR chunk comes first)."""
    head = Path(path).read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR"
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def test_the_manifest_names_the_app_its_icons_and_opens_standalone_on_my_games() -> None:
    response = Client().get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert data["name"] == "Back Alley Club" and data["short_name"]
    assert data["display"] == "standalone" and data["start_url"] == "/games/"
    assert data["scope"] == "/" and data["theme_color"].startswith("#")
    sizes = {(i["sizes"], i.get("purpose", "any")) for i in data["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in data["icons"]:
        path = finders.find(icon["src"].removeprefix("/static/"))
        assert path, icon["src"]
        if icon["type"] == "image/png":
            width, height = png_size(path)
            assert f"{width}x{height}" == icon["sizes"]


def test_the_manifest_speaks_the_visitors_language() -> None:
    english = json.loads(Client().get("/manifest.webmanifest").content)
    swedish = json.loads(Client().get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="sv").content)
    assert swedish["lang"] == "sv" and english["lang"] == "en"
    assert swedish["description"] != english["description"]


def test_the_service_worker_is_served_from_the_root_uncached() -> None:
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    assert '"/offline/"' in body
    for handler in ("install", "activate", "fetch", "push", "notificationclick"):
        assert f'addEventListener("{handler}"' in body


def test_every_page_links_the_manifest_and_registers_the_worker() -> None:
    page = Client().get("/").content.decode()
    assert 'rel="manifest" href="/manifest.webmanifest"' in page
    assert 'data-worker="/sw.js"' in page


def test_the_offline_page_stands_alone() -> None:
    response = Client().get("/offline/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "You are offline" in page
    # Nothing to fetch: it is shown when the network is down.
    assert '<link rel="stylesheet"' not in page and "src=" not in page
