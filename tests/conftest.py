"""Shared test fixtures.

A test about a real service (PostgreSQL, Redis, a Celery worker, Chromium) uses the
`require_service` helper: outside CI it skips with the reason; in CI it fails loudly.
"""

import os

import pytest

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def require_service(available: bool, reason: str) -> None:
    """Skip outside CI (with the reason) or fail in CI when a needed service is missing."""
    if available:
        return
    if IN_CI:
        pytest.fail(f"required service unavailable in CI: {reason}")
    pytest.skip(reason)
