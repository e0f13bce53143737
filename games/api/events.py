"""The event feed of a game: long-poll JSON, and a stream (server-sent events or NDJSON).

Each event carries ``seq`` (the move count after the move that caused it; 0 for the
opening deal). Pass the last ``seq`` you handled as ``since`` (or, for server-sent events,
let the browser send ``Last-Event-ID``) to resume without gaps. A seat gets the public
events and its own private ones; a spectator only the public ones.

Waiting is a short sleep-and-check loop on the game row's ``move_count``: cheap, and it
needs nothing beyond the database. Each waiting client holds a server worker, so ``wait``
and ``timeout`` are capped.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from django.http import StreamingHttpResponse
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import extensions, feed
from games.api.permissions import CanRead
from games.api.serializers import ErrorSerializer, EventsSerializer
from games.api.views import SEAT_PARAM, GameAccess, _int_param
from games.models import Game, GameStatus

POLL_INTERVAL = 0.2
MAX_WAIT = 60
MAX_STREAM = 3600
HEARTBEAT = 15.0
DONE = (GameStatus.FINISHED, GameStatus.ABORTED)


def _since(request: Request) -> int:
    last_id = request.headers.get("Last-Event-ID")
    if request.query_params.get("since") is None and last_id and last_id.strip().isdigit():
        return int(last_id)
    value = _int_param(request, "since", -1, -1, 10**9)
    assert value is not None
    return value


def _refresh(game: Game) -> bool:
    """Re-read the row's counters; True when the game moved on."""
    row = Game.objects.filter(pk=game.pk).values("move_count", "status", "started_at").first()
    if row is None:
        return False
    changed = (row["move_count"], row["status"]) != (game.move_count, game.status)
    game.move_count, game.status, game.started_at = (
        row["move_count"],
        row["status"],
        row["started_at"],
    )
    return changed


class EventsView(APIView):
    permission_classes = [CanRead]

    @extend_schema(
        parameters=[
            SEAT_PARAM,
            OpenApiParameter("since", int, description="Last seq you handled (default: all)."),
            OpenApiParameter("wait", int, description=f"Seconds to wait for news (0..{MAX_WAIT})."),
        ],
        responses={200: EventsSerializer, 400: ErrorSerializer, 404: ErrorSerializer},
        summary="Events since a seq (long-poll)",
    )
    def get(self, request: Request, public_id: str) -> Response:
        a = GameAccess(request, public_id)
        since = _since(request)
        wait = _int_param(request, "wait", 0, 0, MAX_WAIT) or 0
        deadline = time.monotonic() + wait
        game = a.game
        events = feed.events_since(game, seat=a.seat, since=since)
        while not events and game.status not in DONE and time.monotonic() < deadline:
            time.sleep(POLL_INTERVAL)
            if _refresh(game):
                events = feed.events_since(game, seat=a.seat, since=since)
        # The deadline travels with the events (the clock's part), as of now.
        clock = extensions.game_parts(Game.objects.get(pk=game.pk)).get("clock")
        return Response(
            {"seq": game.move_count, "status": game.status, "events": events, "clock": clock}
        )


class EventStreamRenderer(BaseRenderer):
    media_type = "text/event-stream"
    format = "sse"
    charset = "utf-8"

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None
    ) -> bytes:
        return json.dumps(data).encode()  # errors only: the stream itself is written below


class NDJSONRenderer(EventStreamRenderer):
    media_type = "application/x-ndjson"
    format = "ndjson"


def _sse(events: list[dict[str, Any]]) -> str:
    return "".join(
        f"id: {ev['seq']}\nevent: {ev['type']}\ndata: {json.dumps(ev)}\n\n" for ev in events
    )


def _ndjson(events: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(ev) + "\n" for ev in events)


class EventStreamView(APIView):
    permission_classes = [CanRead]
    renderer_classes = [EventStreamRenderer, NDJSONRenderer, JSONRenderer]

    @extend_schema(
        parameters=[
            SEAT_PARAM,
            OpenApiParameter("since", int, description="Last seq you handled (default: all)."),
            OpenApiParameter(
                "timeout",
                int,
                description=f"Close the stream after this many seconds (0..{MAX_STREAM}).",
            ),
        ],
        responses={(200, "text/event-stream"): str, (200, "application/x-ndjson"): str},
        summary="Events as a stream (server-sent events, or NDJSON with Accept: application/x-ndjson)",
    )
    def get(self, request: Request, public_id: str) -> StreamingHttpResponse:
        a = GameAccess(request, public_id)
        since = _since(request)
        timeout = _int_param(request, "timeout", 300, 0, MAX_STREAM) or 0
        ndjson = getattr(request.accepted_renderer, "format", "") == "ndjson"
        write = _ndjson if ndjson else _sse
        stream = _stream(a.game, a.seat, since, timeout, write, heartbeat=not ndjson)
        response = StreamingHttpResponse(
            stream,
            content_type=NDJSONRenderer.media_type if ndjson else EventStreamRenderer.media_type,
        )
        response["Cache-Control"] = "no-cache"
        response["X-Accel-Buffering"] = "no"
        return response


def _stream(
    game: Game, seat: int | None, since: int, timeout: int, write: Any, *, heartbeat: bool
) -> Iterator[str]:
    deadline = time.monotonic() + timeout
    last_beat = time.monotonic()
    while True:
        events = feed.events_since(game, seat=seat, since=since)
        if events:
            since = events[-1]["seq"]
            yield write(events)
            last_beat = time.monotonic()
        if game.status in DONE or time.monotonic() >= deadline:
            return
        time.sleep(POLL_INTERVAL)
        _refresh(game)
        if heartbeat and time.monotonic() - last_beat >= HEARTBEAT:
            yield ": keep-alive\n\n"
            last_beat = time.monotonic()
