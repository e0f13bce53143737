"""OpenAPI: describe Bearer token authentication so /api/docs/ offers it."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension


# drf-spectacular registers extensions in its untyped __init_subclass__.
class BearerTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    target_class = "accounts.authentication.BearerTokenAuthentication"
    name = "bearerAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "http",
            "scheme": "bearer",
            "bearerFormat": "bac_…",
            "description": (
                "A personal API token (create one at POST /api/v1/tokens/), sent as "
                "`Authorization: Bearer bac_…`. Scopes: read, play, bot."
            ),
        }
