"""The event feed of a game: long-poll JSON, and a stream (server-sent events or NDJSON).

Each event carries ``seq`` (the move count after the move that caused it; 0 for the
opening deal). Pass the last ``seq`` you handled as ``since`` (or, for server-sent events,
let the browser send ``Last-Event-ID``) to resume without gaps. A seat gets the public
events and its own private ones; a spectator only the public ones.

The views are async: a waiting client is a coroutine parked in this process's hub
(:mod:`games.live.hub`), woken by a push after each commit, not a worker in a sleep loop.
Authentication, scopes, parameters and errors are DRF's, run once per request by the
documented views below (:class:`EventsView`, :class:`EventStreamView`): each is the gate of
its URL, answering a refusal or an :class:`Admitted` that then waits as a coroutine. Under
ASGI the feed's handler (:mod:`games.api.asgi`) runs the gate inside the middleware, in one
call in a thread; elsewhere (the test client, WSGI) the async views below run it. The schema
documents the gates at the same URLs.

Limits (docs/live.md): a long poll waits at most ``MAX_WAIT`` s, a stream lasts at most
``MAX_STREAM`` s (no server timeout is shorter: uvicorn has none, gunicorn's is only the
worker's heartbeat); streams send a heartbeat every ``HEARTBEAT`` s of silence; a token (or
signed-in user) holds at most ``LIVE_MAX_STREAMS_PER_TOKEN`` open waits, beyond which the
answer is 429 ``too_many_streams``.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import AsyncIterator, Callable
from typing import Any

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.core.serializers.json import DjangoJSONEncoder
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    JsonResponse,
    StreamingHttpResponse,
)
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.views import APIView

from accounts.permissions import request_token
from backalley_site import metrics
from backalley_site.errors import DomainError, error_body
from games import extensions
from games.api.permissions import CanRead
from games.api.serializers import ErrorSerializer, EventsSerializer
from games.api.views import SEAT_PARAM, GameAccess, _int_param
from games.live import hub as live_hub
from games.live import presence as live_presence
from games.models import Game

MAX_WAIT = 60
SPREAD = 0.85  # a long poll without news answers after 85-100% of its wait (see _spread)
MAX_STREAM = 3600
DEFAULT_STREAM = 300
HEARTBEAT = 15.0
SLOT_TTL = 300.0  # a stream's slot lapses this long after its process died without a word
_DIGITS = re.compile(r"[0-9]{1,10}")  # ASCII only: int() would also take "٣" (and "²" fails)
_PASSED_HEADERS = ("WWW-Authenticate", "Retry-After", "Allow", "Vary")
# Clients waiting in this process, by kind (backalley_live_waiting_clients).
_POLLS = metrics.WAITING_CLIENTS.labels(kind="poll")
_STREAMS = metrics.WAITING_CLIENTS.labels(kind="stream")

STREAMS_PARAMS = "Open streams and long polls per token: LIVE_MAX_STREAMS_PER_TOKEN."
TOO_MANY = OpenApiResponse(
    ErrorSerializer, description=f"`too_many_streams`: {STREAMS_PARAMS} Close one, or retry."
)


def _since(request: Request) -> int:
    """``since``, or the ``Last-Event-ID`` a reconnecting EventSource sends (with the URL it
    first opened, ``since`` included): the later of the two, so a resumed stream never
    repeats what the browser already has."""
    since = _int_param(request, "since", -1, -1, 10**9)
    assert since is not None
    last_id = request.headers.get("Last-Event-ID")
    if last_id and last_id.strip():
        if not _DIGITS.fullmatch(last_id.strip()) or int(last_id) > 10**9:
            raise DomainError(
                "bad_last_event_id",
                _("Last-Event-ID must be the id of an event this feed sent: a whole number."),
                extra={"last_event_id": last_id[:40]},
            )
        return max(since, int(last_id))
    return since


def _holder(request: Request) -> str:
    """Whose open waits count together: the token's, or the signed-in user's."""
    token = request_token(request)
    return f"token:{token.pk}" if token is not None else f"user:{request.user.pk}"


class Admitted(HttpResponse):
    """The gate's answer for a request that may wait: what it waits for. Never sent as is:
    :meth:`proceed` makes the answer, and :meth:`carry_to` gives it the headers and cookies
    that the middleware set on this one on its way out (security headers, ``Vary``, a
    refreshed session cookie)."""

    def __init__(
        self,
        *,
        game_id: int,
        seat: int | None,
        since: int,
        wait: int,
        holder: str,
        stream: bool,
        ndjson: bool = False,
        reusable: bool = False,
    ) -> None:
        super().__init__(status=200)
        self.game_id, self.seat, self.since = game_id, seat, since
        self.wait, self.holder, self.stream, self.ndjson = wait, holder, stream, ndjson
        # Whether the same request, coming back, would be admitted the same way for as long
        # as the credential stands (games.live.admissions says when that is).
        self.reusable = reusable

    async def proceed(self, *, inline: bool) -> HttpResponseBase:
        """The answer: a long poll's JSON once there is news or the wait is over, or a stream."""
        if self.stream:
            return await _open_stream(self, inline=inline)
        return await _answer_poll(self, inline=inline)

    def middleware_headers(self) -> list[tuple[str, str]]:
        return [
            (name, value)
            for name, value in self.headers.items()
            if name.lower() not in ("content-type", "content-length")
        ]

    def carry_to(self, response: HttpResponseBase) -> None:
        for name, value in self.headers.items():
            if name.lower() == "vary":
                patch_vary_headers(response, [v.strip() for v in value.split(",")])
            elif name.lower() not in ("content-type", "content-length") and not response.has_header(
                name
            ):
                response[name] = value
        response.cookies.update(self.cookies)


class EventsView(APIView):
    """The long poll, as documented; serves as the gate of :func:`events`."""

    permission_classes = [CanRead]

    @extend_schema(
        parameters=[
            SEAT_PARAM,
            OpenApiParameter("since", int, description="Last seq you handled (default: all)."),
            OpenApiParameter("wait", int, description=f"Seconds to wait for news (0..{MAX_WAIT})."),
            OpenApiParameter(
                "Last-Event-ID",
                str,
                location=OpenApiParameter.HEADER,
                description="The last event id you have (a whole number): resumes after the later of it and `since`.",
            ),
        ],
        responses={
            200: EventsSerializer,
            400: ErrorSerializer,
            404: ErrorSerializer,
            429: TOO_MANY,
        },
        summary="Events since a seq (long-poll)",
        description=(
            "Answers at once when there are events after `since`; otherwise waits up to "
            "`wait` seconds for the next move (pushed, not polled), and answers with none "
            "if nothing happened (a wait of 10 s or more ends between 85% and 100% of it, "
            "so that polls begun together do not all come back together). A long poll "
            "counts as an open wait for the per-token cap."
        ),
    )
    def get(self, request: Request, public_id: str) -> HttpResponseBase:
        a = GameAccess(request, public_id)
        since = _since(request)
        wait = _int_param(request, "wait", 0, 0, MAX_WAIT) or 0
        return Admitted(
            game_id=a.game.pk,
            seat=a.seat,
            since=since,
            wait=wait,
            holder=_holder(request),
            stream=False,
            # A started game's seats never change hands; the seat must not depend on the turn.
            reusable=(
                request_token(request) is not None
                and a.game.started_at is not None
                and (a.requested is not None or len(a.controlled) <= 1)
            ),
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


class EventStreamView(APIView):
    """The stream, as documented; serves as the gate of :func:`event_stream`."""

    permission_classes = [CanRead]
    renderer_classes = [EventStreamRenderer, NDJSONRenderer, JSONRenderer]

    @extend_schema(
        parameters=[
            SEAT_PARAM,
            OpenApiParameter("since", int, description="Last seq you handled (default: all)."),
            OpenApiParameter(
                "timeout",
                int,
                description=(
                    f"Close the stream after this many seconds (0..{MAX_STREAM}, default "
                    f"{DEFAULT_STREAM}); reconnect with your last seq to go on."
                ),
            ),
            OpenApiParameter(
                "Last-Event-ID",
                str,
                location=OpenApiParameter.HEADER,
                description="Sent by browsers on reconnection: resume after the later of it and `since`.",
            ),
        ],
        responses={
            (200, "text/event-stream"): str,
            (200, "application/x-ndjson"): str,
            (400, "application/json"): ErrorSerializer,
            (429, "application/json"): TOO_MANY,
        },
        summary="Events as a stream (server-sent events, or NDJSON with Accept: application/x-ndjson)",
        description=(
            f"Each event as it happens. Server-sent events carry `id:` (the seq) and `event:` "
            f"(the type); an NDJSON stream has one event per line. In silence a heartbeat "
            f"is sent every {int(HEARTBEAT)} s (an SSE comment, or an empty NDJSON line: "
            f"skip it). The stream ends when the game is over, at `timeout`, or when the "
            f"server restarts: reconnect with `since` (or `Last-Event-ID`) and nothing is lost."
        ),
    )
    def get(self, request: Request, public_id: str) -> HttpResponseBase:
        a = GameAccess(request, public_id)
        since = _since(request)
        timeout = _int_param(request, "timeout", DEFAULT_STREAM, 0, MAX_STREAM) or 0
        return Admitted(
            game_id=a.game.pk,
            seat=a.seat,
            since=since,
            wait=timeout,
            holder=_holder(request),
            stream=True,
            ndjson=getattr(request.accepted_renderer, "format", "") == "ndjson",
        )


def gated_by(gate: type[APIView]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark an async feed view with its DRF gate: ``admission``, the gate as a view (the
    feed's ASGI handler runs it, with the middleware, in one call in a thread, then awaits
    :meth:`Admitted.proceed`), and ``cls``, for the schema generator to document the gate
    (its methods and extend_schema) at this URL."""

    def mark(view: Callable[..., Any]) -> Callable[..., Any]:
        view.admission = gate.as_view()  # type: ignore[attr-defined]
        view.cls = gate  # type: ignore[attr-defined]
        view.initkwargs = {}  # type: ignore[attr-defined]
        return view

    return mark


def _admit(gate: Callable[..., Any], request: HttpRequest, public_id: str) -> HttpResponseBase:
    """Run the DRF gate (sync, in a thread): an :class:`Admitted`, or the rendered refusal."""
    response = gate(request, public_id=public_id)
    if isinstance(response, Admitted):
        return response
    response.render()
    plain = HttpResponse(
        response.content, status=response.status_code, content_type=response["Content-Type"]
    )
    for name in _PASSED_HEADERS:
        if response.has_header(name):
            plain[name] = response[name]
    return plain


def _too_many() -> JsonResponse:
    limit = settings.LIVE_MAX_STREAMS_PER_TOKEN
    body = error_body(
        "too_many_streams",
        f"This token already holds {limit} open streams or long polls; close one first.",
        {"limit": limit},
    )
    return JsonResponse(body, status=429, headers={"Retry-After": "5"})


def _clock(game_id: int) -> Any:
    """The clock's part of the game (the deadline travels with the events), as of now."""
    return extensions.game_part("clock", Game.objects.get(pk=game_id))


@gated_by(EventsView)
async def events(request: HttpRequest, public_id: str) -> HttpResponseBase:
    return await _gate_then_proceed(events, request, public_id)


async def _gate_then_proceed(view: Any, request: HttpRequest, public_id: str) -> HttpResponseBase:
    """The async view's work outside the feed's ASGI handler (the test client, WSGI)."""
    inline = not isinstance(request, ASGIRequest)
    gate = await live_hub.get(inline=inline).db(_admit, view.admission, request, public_id)
    if not isinstance(gate, Admitted):
        return gate
    return await gate.proceed(inline=inline)


async def _answer_poll(gate: Admitted, *, inline: bool) -> HttpResponseBase:
    hub = live_hub.get(inline=inline)
    slot = None
    if gate.wait > 0:
        # Leased for as long as a stream's: the poll's returns reuse it (games.live.slots).
        slot = await hub.slots.acquire(gate.holder, ttl=gate.wait + 30, lease=SLOT_TTL)
        if slot is None:
            return _too_many()
    watch = hub.watch(gate.game_id)
    _POLLS.inc()
    answered = False
    try:
        found, snap = await hub.next_events(
            gate.game_id, watch, seat=gate.seat, since=gate.since, timeout=_spread(gate.wait)
        )
        answered = True
    finally:
        _POLLS.dec()
        hub.unwatch(gate.game_id)
        if slot is not None:
            # An answered poll comes straight back for another wait; one whose client left
            # gives its slot back at once.
            await slot.release(park=answered)
    if found:
        # The snapshot that brought the news carries the clock as of that read, and the
        # answer is the same for every waiter of the game at this since and seat.
        key = ("poll", gate.since, gate.seat)
        body = snap.rendered.get(key)
        if body is None:
            body = snap.rendered[key] = _json(snap, found, snap.clock)
        return HttpResponse(body, content_type="application/json")
    # Without news, the clock as of now, unless the game has none (thousands of idle long
    # polls time out each minute).
    clock = snap.clock if not snap.timed else await hub.db(_clock, gate.game_id)
    return HttpResponse(_json(snap, found, clock), content_type="application/json")


def _json(snap: live_hub.Snapshot, events: list[dict[str, Any]], clock: Any) -> bytes:
    """A long poll's answer (as JsonResponse would write it)."""
    body = {"seq": snap.seq, "status": snap.status, "events": events, "clock": clock}
    return json.dumps(body, cls=DjangoJSONEncoder).encode()


def _spread(wait: int) -> float:
    """How long a long poll waits for news: between SPREAD and all of ``wait``.

    Why: polls that began together (every client reconnecting after a restart, a crowd
    arriving at once) would otherwise all time out together, come back together, and do so
    again every ``wait`` seconds; spread, each cycle scatters them further."""
    return wait * random.uniform(SPREAD, 1.0) if wait >= 10 else float(wait)


def _sse(events: list[dict[str, Any]]) -> str:
    return "".join(
        f"id: {ev['seq']}\nevent: {ev['type']}\ndata: {json.dumps(ev)}\n\n" for ev in events
    )


def _ndjson(events: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(ev) + "\n" for ev in events)


@gated_by(EventStreamView)
async def event_stream(request: HttpRequest, public_id: str) -> HttpResponseBase:
    return await _gate_then_proceed(event_stream, request, public_id)


async def _open_stream(gate: Admitted, *, inline: bool) -> HttpResponseBase:
    hub = live_hub.get(inline=inline)
    slot = None
    if gate.wait > 0:
        slot = await hub.slots.acquire(gate.holder, ttl=SLOT_TTL)
        if slot is None:
            return _too_many()
    response = StreamingHttpResponse(
        _stream(gate, slot, inline=inline),
        content_type=(NDJSONRenderer if gate.ndjson else EventStreamRenderer).media_type,
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


async def _stream(gate: Admitted, slot: Any, *, inline: bool) -> AsyncIterator[str | bytes]:
    # The hub is looked up here: under WSGI, Django drains this iterator in a loop of its own.
    hub = live_hub.get(inline=inline)
    write, beat = (_ndjson, "\n") if gate.ndjson else (_sse, ": keep-alive\n\n")
    kind = "ndjson" if gate.ndjson else "sse"
    since, clock = gate.since, hub.loop.time
    deadline = clock() + gate.wait
    refreshed = clock()
    marked: float | None = None  # when this stream last marked its seat as there
    watch = hub.watch(gate.game_id)
    _STREAMS.inc()
    try:
        while True:
            if gate.seat is not None and (
                marked is None or clock() - marked >= live_presence.REFRESH_S
            ):
                marked = clock()
                await hub.presence.stream_open(gate.game_id, gate.seat)
            wait = max(0.0, min(HEARTBEAT, deadline - clock()))
            found, snap = await hub.next_events(
                gate.game_id, watch, seat=gate.seat, since=since, timeout=wait
            )
            if found:
                # Written once per snapshot for every stream at this since and seat.
                key = (kind, since, gate.seat)
                chunk = snap.rendered.get(key)
                if chunk is None:
                    chunk = snap.rendered[key] = write(found).encode()
                since = found[-1]["seq"]
                yield chunk
            if snap.done or hub.closing.is_set() or clock() >= deadline:
                return
            if not found:
                yield beat
            if slot is not None and clock() - refreshed >= SLOT_TTL / 3:
                refreshed = clock()
                await slot.refresh(SLOT_TTL)
    finally:
        _STREAMS.dec()
        hub.unwatch(gate.game_id)
        if slot is not None:
            await slot.release()
