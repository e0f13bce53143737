"""The project's settings load and its URL configuration resolves."""

from django.urls import reverse


def test_api_docs_url_resolves() -> None:
    assert reverse("api-docs") == "/api/docs/"


def test_schema_is_served(client) -> None:  # type: ignore[no-untyped-def]
    response = client.get("/api/schema/")
    assert response.status_code == 200
    assert b"openapi" in response.content
