"""What a page did, for the browser tests' failure messages: its requests to the game's
API and board (with their status and timing), what it wrote to the console, and any
uncaught error. A wait that times out says what the page was doing instead of only
"Timeout 30000ms exceeded"."""

from __future__ import annotations

import time
from collections import deque
from typing import Any

_WATCHED = ("/moves/", "/board/", "/events/")


class PageLog:
    def __init__(self, page: Any, keep: int = 60) -> None:
        self.page = page
        self.lines: deque[str] = deque(maxlen=keep)
        self.started = time.monotonic()
        page.on("request", self._request)
        page.on("requestfinished", self._finished)
        page.on("requestfailed", self._failed)
        page.on("console", lambda msg: self._add(f"console {msg.type}: {msg.text}"))
        page.on("pageerror", lambda err: self._add(f"page error: {err}"))

    def _add(self, line: str) -> None:
        self.lines.append(f"{time.monotonic() - self.started:8.2f}s {line}")

    def _note(self, request: Any, what: str) -> None:
        """A line for a request to the game's moves, board or feed (others are left out)."""
        if any(part in request.url for part in _WATCHED):
            self._add(f"{what} {request.method} {request.url.split('/games/')[-1]}")

    def _request(self, request: Any) -> None:
        self._note(request, "->")

    def _finished(self, request: Any) -> None:
        response = request.response()
        self._note(request, f"<- {response.status if response else '?'}")

    def _failed(self, request: Any) -> None:
        self._note(request, f"x  {request.failure}")

    def board_state(self) -> str:
        return str(
            self.page.evaluate(
                """() => { const b = document.getElementById('board');
                  const n = document.getElementById('notice');
                  return b ? `board seq=${b.dataset.seq} status=${b.dataset.status} ` +
                    `class="${b.className}" notice="${n && !n.hidden ? n.textContent : ''}"` : 'no board'; }"""
            )
        )

    def wait_for(self, script: str, what: str, timeout: float) -> None:
        """``page.wait_for_function`` that, on a timeout, fails with what the page did."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        try:
            self.page.wait_for_function(script, timeout=timeout)
        except PlaywrightTimeout:
            detail = "\n".join(self.lines)
            raise AssertionError(
                f"waited {timeout / 1000:.0f} s for {what}; {self.board_state()}\n"
                f"the page's last requests and messages:\n{detail}"
            ) from None
