"""Clients of the event feed for the server tests: token holders reading streams and long
polls over real HTTP (httpx), each in a thread of its own."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

from accounts.tokens import token_create


def token_for(user: Any, scopes: tuple[str, ...] = ("play",), name: str = "live") -> str:
    return token_create(user=user, name=name, scopes=list(scopes))[1]


def auth(token: str, **headers: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", **headers}


@dataclass
class StreamReader:
    """Reads one NDJSON or SSE stream in a thread: ``events`` as they come, ``ended`` when
    the server closed it (cleanly: ``error`` stays None)."""

    url: str
    token: str
    sse: bool = False
    headers: dict[str, str] = field(default_factory=dict)
    events: list[dict[str, Any]] = field(default_factory=list)
    arrived: list[float] = field(default_factory=list)
    status: int | None = None
    body: bytes = b""
    error: BaseException | None = None
    opened: threading.Event = field(default_factory=threading.Event)
    ended: threading.Event = field(default_factory=threading.Event)
    heartbeats: int = 0

    def start(self) -> StreamReader:
        threading.Thread(target=self._run, daemon=True).start()
        return self

    def _run(self) -> None:
        accept = "text/event-stream" if self.sse else "application/x-ndjson"
        try:
            with httpx.stream(
                "GET",
                self.url,
                headers=auth(self.token, Accept=accept, **self.headers),
                timeout=httpx.Timeout(10, read=120),
            ) as r:
                self.status = r.status_code
                self.opened.set()
                if r.status_code != 200:
                    self.body = r.read()
                    return
                for line in r.iter_lines():
                    if self.sse:
                        if line.startswith("data: "):
                            self._got(json.loads(line[6:]))
                        elif line.startswith(":"):
                            self.heartbeats += 1
                    elif line.strip():
                        self._got(json.loads(line))
                    else:
                        self.heartbeats += 1
        except BaseException as exc:  # noqa: BLE001 - reported to the test
            self.error = exc
        finally:
            self.opened.set()
            self.ended.set()

    def _got(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        self.arrived.append(time.monotonic())

    def wait_for_seq(self, seq: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(e["seq"] >= seq for e in self.events):
                return True
            if self.ended.is_set():
                return False
            time.sleep(0.02)
        return False


@dataclass
class LongPoll:
    url: str
    token: str
    result: dict[str, Any] | None = None
    status: int | None = None
    done_at: float | None = None
    error: BaseException | None = None
    done: threading.Event = field(default_factory=threading.Event)

    def start(self) -> LongPoll:
        threading.Thread(target=self._run, daemon=True).start()
        return self

    def _run(self) -> None:
        try:
            r = httpx.get(self.url, headers=auth(self.token), timeout=120)
            self.status, self.result = r.status_code, r.json()
            self.done_at = time.monotonic()
        except BaseException as exc:  # noqa: BLE001 - reported to the test
            self.error = exc
        finally:
            self.done.set()
