"""Shared test fixtures.

A test about a real service (PostgreSQL, Redis, a Celery worker, Chromium) uses the
`require_service` helper: outside CI it skips with the reason; in CI it fails loudly.
"""

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from celery.result import allow_join_result
from django.db import connections

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def require_service(available: bool, reason: str) -> None:
    """Skip outside CI (with the reason) or fail in CI when a needed service is missing."""
    if available:
        return
    if IN_CI:
        pytest.fail(f"required service unavailable in CI: {reason}")
    pytest.skip(reason)


# --- The service's own moves ---------------------------------------------------------------
@pytest.fixture(autouse=True)
def _results_may_be_read() -> Iterator[None]:
    """Every test may read an eager task's result. Celery's guard against waiting on a
    result inside a task is one flag for the whole process, not one per thread: threads
    running eager tasks at once (the concurrency tests) can leave it set after they end,
    and a later test's ``.get()`` would then refuse as if it ran inside a task."""
    with allow_join_result():
        yield


@pytest.fixture(autouse=True)
def _autoplay_only_where_marked(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Forced actions and settled deals are played by the service only in tests marked
    ``autoplay`` (most tests count the moves they make); the environment carries the choice
    to the servers and workers a test starts."""
    on = request.node.get_closest_marker("autoplay") is not None
    monkeypatch.setenv("GAMES_AUTOPLAY", "1" if on else "0")
    from django.conf import settings

    monkeypatch.setattr(settings, "GAMES_AUTOPLAY", on, raising=False)


# --- The live server, under ASGI ------------------------------------------------------------
@pytest.fixture(scope="session")
def live_server(request: pytest.FixtureRequest) -> Iterator[Any]:
    """pytest-django's ``live_server``, served by the ASGI application (uvicorn in a thread).

    Same interface and database handling (a test that uses it gets the transactional test
    database through pytest-django's own helper); see tests/asgi_live_server.py for why.
    """
    from tests.asgi_live_server import AsgiLiveServer

    server = AsgiLiveServer()
    yield server
    server.stop()


@pytest.fixture
def asgi_server_factory(transactional_db: Any, tmp_path: Path) -> Iterator[Any]:
    """Start real ASGI server processes (``make(env)``) on the test database; all are stopped
    at the end. See tests/asgi_process.py."""
    from tests.asgi_process import AsgiServer, require_server_services

    require_server_services()
    started: list[AsgiServer] = []

    def make(env: dict[str, str] | None = None, workers: int = 2) -> AsgiServer:
        server = AsgiServer(tmp_path, env, workers)
        started.append(server)
        return server

    yield make
    for server in started:
        server.stop()


# --- Real headless Chromium, for the tests of the pages ------------------------------------
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# Screenshots go under test-output/ (ignored by git), one folder per suite.
TEST_OUTPUT = Path(__file__).resolve().parents[1] / "test-output"


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Debian's Chromium driven by Playwright (which cannot download a browser here)."""
    require_service(os.path.exists(CHROMIUM), f"Chromium is not installed at {CHROMIUM}")
    # Playwright's sync API runs an event loop in this thread; the ORM calls made here
    # between page actions are still plain synchronous calls.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()
        # ORM calls made while Playwright's loop runs may open a connection of their own
        # (asgiref's context-local storage); close it so the test database can be dropped.
        connections.close_all()


@pytest.fixture
def profile_browser(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[Callable[..., Any]]:
    """``open(**context_options)``: a Chromium with a profile of its own on disk (a
    persistent context), for what a browser refuses to an incognito window: the
    installability check, push subscriptions. Every one opened is closed at the end."""
    require_service(os.path.exists(CHROMIUM), f"Chromium is not installed at {CHROMIUM}")
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        opened: list[Any] = []

        def open_profile(**options: Any) -> Any:
            ctx = pw.chromium.launch_persistent_context(
                str(tmp_path / f"profile-{len(opened)}"),
                executable_path=CHROMIUM,
                args=CHROMIUM_ARGS,
                **options,
            )
            opened.append(ctx)
            return ctx

        yield open_profile
        for ctx in opened:
            ctx.close()
        connections.close_all()
