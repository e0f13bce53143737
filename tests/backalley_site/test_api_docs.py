"""The API docs: every operation described with an example, served from our own files."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from backalley_site.api_examples import _has_example

pytestmark = pytest.mark.django_db

METHODS = ("get", "post", "put", "patch", "delete")


def test_every_operation_has_a_description_and_an_example(client: Client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    operations = [
        (method, path, op)
        for path, ops in schema["paths"].items()
        for method, op in ops.items()
        if method in METHODS
    ]
    assert len(operations) > 30
    for method, path, op in operations:
        text = (op.get("description") or "").strip()
        assert text and not text.startswith("Scope:"), f"{method} {path} has no description"
        assert _has_example(op) or "Example:" in text, f"{method} {path} has no example"
    moves = schema["paths"]["/api/v1/games/{public_id}/moves/"]["post"]
    body = moves["requestBody"]["content"]["application/json"]["examples"]["example"]["value"]
    assert body == {"action": {"card": "QH"}, "expected_seq": 42}


def test_the_docs_page_loads_swagger_ui_from_our_static_files(client: Client) -> None:
    html = client.get("/api/docs/").content.decode()
    assert "swagger-ui-bundle.js" in html and "/static/drf_spectacular_sidecar/" in html
    assert "cdn." not in html and "unpkg" not in html


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_api_docs_render_with_the_network_blocked(browser: Any, live_server: Any) -> None:
    from tests.conftest import TEST_OUTPUT

    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    outside: list[str] = []

    def only_ours(route: Any) -> None:
        if route.request.url.startswith(live_server.url):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", only_ours)
    page.goto(f"{live_server.url}/api/docs/")
    page.locator(".swagger-ui .opblock").first.wait_for(timeout=30_000)
    assert page.locator(".swagger-ui .opblock").count() > 30
    assert not outside, f"the docs page asked the network for {outside}"
    TEST_OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(TEST_OUTPUT / "api-docs-offline.png"))
    ctx.close()
