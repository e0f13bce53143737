"""The event stream with resume: one NDJSON stream, reopened where it broke.

``GET /games/<id>/events/stream/`` sends one JSON event per line as each move commits (an
empty line is a heartbeat) and ends when the game is over, at its ``timeout``, or when the
server restarts. :class:`EventStream` reopens it with ``Last-Event-ID`` (and ``since``) =
the last seq it yielded, so no event is lost or repeated; a network error, a 5xx or a
``429 too_many_streams`` is retried with backoff (``Retry-After`` for the 429), a run of
failures ends in :class:`~backalley_bot.errors.TransportError`. It stops after the game's
end: a ``game_end`` or ``game_called_off`` event, or a stream that ends on a finished game.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any, Protocol

import httpx

from backalley_bot.errors import ApiError, TooManyStreams, TransportError, error_from
from backalley_bot.retry import backoff

Event = dict[str, Any]

END_EVENTS = frozenset({"game_end", "game_called_off"})
OVER = frozenset({"finished", "aborted"})
MAX_FAILURES = 8
# A heartbeat comes every 15 s of silence: a read waiting longer means a dead connection.
_STREAM_TIMEOUT = httpx.Timeout(10.0, read=60.0)


class Caller(Protocol):
    """What the stream needs of :class:`~backalley_bot.client.Client`."""

    api: str
    http: httpx.Client
    sleep: Callable[[float], None]

    def game(self, game: str, *, seat: int | None = None) -> dict[str, Any]: ...


class EventStream:
    """Iterate to get every event of ``game`` that ``seat`` may see, after ``since``.

    ``last_seq`` is the seq of the last event yielded (what a reconnection resumes from);
    ``reconnects`` counts the times the stream was opened again.
    """

    def __init__(
        self,
        client: Caller,
        game: str,
        *,
        seat: int | None = None,
        since: int = -1,
        timeout: int = 600,
        max_failures: int = MAX_FAILURES,
    ) -> None:
        self.client = client
        self.game = game
        self.seat = seat
        self.last_seq = since
        self.timeout = timeout
        self.max_failures = max_failures
        self.reconnects = -1

    def _request(self) -> tuple[dict[str, Any], dict[str, str]]:
        """The query and headers that resume after ``last_seq``."""
        params: dict[str, Any] = {"since": self.last_seq, "timeout": self.timeout}
        if self.seat is not None:
            params["seat"] = self.seat
        headers = {"Accept": "application/x-ndjson"}
        if self.last_seq >= 0:
            headers["Last-Event-ID"] = str(self.last_seq)
        return params, headers

    def __iter__(self) -> Iterator[Event]:
        failures = 0
        while True:
            self.reconnects += 1
            wait = 0.0
            params, headers = self._request()
            url = f"{self.client.api}/games/{self.game}/events/stream/"
            try:
                with self.client.http.stream(
                    "GET", url, params=params, headers=headers, timeout=_STREAM_TIMEOUT
                ) as r:
                    if r.status_code >= 400:
                        r.read()
                        raise error_from(r.status_code, _body(r), r.headers.get("Retry-After"))
                    failures = 0
                    for line in r.iter_lines():
                        if not line.strip():
                            continue  # a heartbeat
                        event: Event = json.loads(line)
                        seq = event.get("seq")
                        if isinstance(seq, int) and seq > self.last_seq:
                            self.last_seq = seq
                        yield event
                        if event.get("type") in END_EVENTS:
                            return
                # The stream ended cleanly: over, or only its time limit (or a restart)?
                if self.client.game(self.game, seat=self.seat).get("status") in OVER:
                    return
                continue
            except TooManyStreams as exc:
                failures += 1
                wait = exc.retry_after
            except ApiError as exc:
                if exc.status < 500:
                    raise
                failures += 1
            except (httpx.TransportError, httpx.StreamError, ValueError):
                failures += 1  # a broken connection, or a line cut short
            if failures > self.max_failures:
                raise TransportError(f"the event stream of {self.game} kept failing")
            self.client.sleep(max(wait, backoff(failures - 1)))


def _body(r: httpx.Response) -> Any:
    try:
        return r.json()
    except ValueError:
        return r.text
