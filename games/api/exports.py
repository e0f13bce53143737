"""A player's finished games as NDJSON records: ``GET /api/v1/players/{name}/games/export/``.

The view reads the page's ids (at most ``limit``) and answers at once with the headers (the
next cursor among them); the records are then written a chunk of games at a time while the
client reads, gzip-compressed when the client accepts it. Under ASGI the body is an
asynchronous iterator whose chunks are built in the request's thread, so the event loop is
never blocked and a page never sits whole in memory; under WSGI it is a plain iterator.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, time
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db.models.functions import Lower
from django.http import StreamingHttpResponse
from django.utils.cache import patch_vary_headers
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from accounts.models import Player
from accounts.permissions import PUBLIC
from backalley_site.clientip import client_ip
from games import exports
from games.api.serializers import ErrorSerializer
from games.api.views import _int_param
from games.errors import InvalidFilter, PlayerNotFound

DEFAULT_LIMIT = 100
MAX_LIMIT = 1000
CONTENT_TYPE = "application/x-ndjson"
_ZERO_Q = re.compile(r"q\s*=\s*0(?:\.0{0,3})?$")

EXAMPLE_LINES = (
    '{"format":"backalley-record","version":2,"game":"g_Q3xY8vK2mD",'
    '"players":["alice","bob","carol","house-heuristic"],"commitment":"9f2c…","seed":"41d0…",'
    '"first_dealer":2,"deals":[…],"result":{"totals":[212,187],"winner":0}}\n'
    '{"format":"backalley-record","version":2,"game":"g_7hTq2LmW0a",'
    '"players":["dave","alice","erin","frank"],"commitment":"c01d…","seed":"8e3a…",'
    '"first_dealer":0,"deals":[…],"result":{"totals":[96,140],"winner":1}}\n'
)


def accepts_gzip(header: str) -> bool:
    """Whether an Accept-Encoding header takes gzip (and not at ``q=0``).

    >>> accepts_gzip("gzip, deflate, br"), accepts_gzip("gzip;q=0, br"), accepts_gzip("")
    (True, False, False)
    """
    for part in header.lower().split(","):
        coding, *params = (p.strip() for p in part.split(";"))
        if coding in ("gzip", "x-gzip"):
            return not any(_ZERO_Q.match(p) for p in params)
    return False


def _time(request: Request, name: str) -> datetime | None:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return None
    try:
        value = parse_datetime(raw)
        if value is None and (day := parse_date(raw)) is not None:
            value = datetime.combine(day, time(0), tzinfo=UTC)
    except ValueError:  # well formed but not a time: 2026-02-30, 25:00
        value = None
    if value is None:
        raise InvalidFilter(
            message=_("'%(name)s' must be an ISO 8601 time, such as 2026-11-30T20:15:00Z.")
            % {"name": name},
            extra={"name": name, "value": raw[:100]},
        )
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _flag(request: Request, name: str) -> bool | None:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return None
    if raw.lower() in ("true", "false"):
        return raw.lower() == "true"
    raise InvalidFilter(
        message=_("'%(name)s' must be true or false.") % {"name": name},
        extra={"name": name, "value": raw[:100]},
    )


def _filters(request: Request) -> exports.Filters:
    filters = exports.Filters(
        since=_time(request, "since"),
        until=_time(request, "until"),
        rated=_flag(request, "rated"),
        with_bots=_flag(request, "with_bots"),
    )
    if filters.since and filters.until and filters.since >= filters.until:
        raise InvalidFilter(
            message=_("'since' must be earlier than 'until'."), extra={"name": "until"}
        )
    return filters


def _player(name: str) -> Player:
    player = Player.objects.alias(lower_name=Lower("name")).filter(lower_name=name.lower()).first()
    if player is None:
        raise PlayerNotFound(
            message=_("There is no player called %(name)s.") % {"name": repr(name)},
            extra={"name": name},
        )
    return player


def _chunks(ids: list[int], compress: bool) -> Iterator[bytes]:
    """The body, a chunk of games at a time (each chunk flushed through gzip, so the
    client reads whole records as they are written)."""
    packer = zlib.compressobj(wbits=31) if compress else None  # 31: the gzip container
    for start in range(0, len(ids), exports.CHUNK):
        data = b"".join(
            exports.record_line(r) for r in exports.records(ids[start : start + exports.CHUNK])
        )
        if packer is not None:
            data = packer.compress(data) + packer.flush(zlib.Z_SYNC_FLUSH)
        if data:
            yield data
    if packer is not None:
        yield packer.flush()


async def _async_chunks(ids: list[int], compress: bool) -> AsyncIterator[bytes]:
    # Every chunk is built in the request's own thread (thread-sensitive), its database
    # connection included; the event loop only passes the bytes on.
    chunks = _chunks(ids, compress)
    take = sync_to_async(lambda: next(chunks, None))
    while (chunk := await take()) is not None:
        yield chunk


PARAMETERS = [
    OpenApiParameter("name", str, OpenApiParameter.PATH, description="Player name (any case)."),
    OpenApiParameter(
        "since", OpenApiTypes.DATETIME, description="Only games finished at or after this time."
    ),
    OpenApiParameter(
        "until", OpenApiTypes.DATETIME, description="Only games finished before this time."
    ),
    OpenApiParameter("rated", bool, description="Only rated games (true) or unrated ones (false)."),
    OpenApiParameter(
        "with_bots",
        bool,
        description="Only games with a bot at the table (true), or only people (false).",
    ),
    OpenApiParameter(
        "limit",
        int,
        description=f"Records in this page (1..{MAX_LIMIT}, default {DEFAULT_LIMIT}).",
    ),
    OpenApiParameter(
        "cursor",
        str,
        description="Where the previous page ended (its `X-Next-Cursor`); none: from the first.",
    ),
    OpenApiParameter(
        "X-Next-Cursor",
        str,
        location=OpenApiParameter.HEADER,
        response=[200],
        description="Where this page ends: pass it as `cursor` for the next page, now or later "
        "(absent when there is no record at all).",
    ),
    OpenApiParameter(
        "Link",
        str,
        location=OpenApiParameter.HEADER,
        response=[200],
        description='`<...>; rel="next"`: the next page, when more records were waiting.',
    ),
]


class ExportThrottle(SimpleRateThrottle):
    """Export pages per client address (each builds up to ``limit`` records):
    ``GAMES_EXPORT_RATE``, counted in the shared cache like every throttle."""

    scope = "games_export"

    def get_rate(self) -> str:
        # Read at request time, so tests and operators can tune it without a restart.
        return str(settings.GAMES_EXPORT_RATE)

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": client_ip(request)}


class ErrorsInJSON(BaseContentNegotiation):
    """The body is NDJSON whatever the client accepts, and an error is the one JSON error
    shape: never a 406 for a client that asks only for application/x-ndjson."""

    def select_parser(self, request: Request, parsers: Any) -> Any:
        return parsers[0] if parsers else None

    def select_renderer(
        self, request: Request, renderers: Any, format_suffix: str | None = None
    ) -> tuple[Any, str]:
        return renderers[0], renderers[0].media_type


class PlayerGamesExportView(APIView):
    scopes = PUBLIC
    renderer_classes = [JSONRenderer]
    content_negotiation_class = ErrorsInJSON
    throttle_classes = [ExportThrottle]

    @extend_schema(
        tags=["games"],
        parameters=PARAMETERS,
        responses={
            (200, CONTENT_TYPE): OpenApiResponse(
                OpenApiTypes.STR,
                description="One record per line (application/x-ndjson).",
                examples=[
                    OpenApiExample(
                        "A page of two records (shortened)",
                        value=EXAMPLE_LINES,
                        media_type=CONTENT_TYPE,
                        status_codes=["200"],
                        response_only=True,
                    )
                ],
            ),
            (400, "application/json"): ErrorSerializer,
            (404, "application/json"): ErrorSerializer,
        },
        summary="A player's finished games as NDJSON records",
        description=(
            "One game record per line (docs/record-format.md, the whole record with every "
            "hand and the seed), for every finished game the player sat in whose seed is "
            "public: a game dealt from cards that other tables still play is exported once "
            "they are all over. Records come in the order they became public, so the last "
            "`X-Next-Cursor` fetches later only what is new. Gzip-compressed with "
            "`Accept-Encoding: gzip`. Errors: 404 `player_not_found`; 400 `invalid_filter` "
            "(`extra.name` names it), `invalid_cursor`, `bad_parameter` (`limit`); 429 "
            "`throttled` past GAMES_EXPORT_RATE pages per client address (60 a minute)."
        ),
    )
    def get(self, request: Request, name: str) -> StreamingHttpResponse:
        filters = _filters(request)
        limit = _int_param(request, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT) or DEFAULT_LIMIT
        raw_cursor = request.query_params.get("cursor") or ""
        after = exports.Position.from_cursor(raw_cursor) if raw_cursor else None
        player = _player(name)
        page = exports.page(
            exports.player_games(player=player, filters=filters), after=after, limit=limit
        )
        compress = accepts_gzip(request.META.get("HTTP_ACCEPT_ENCODING", ""))
        body = (
            _async_chunks(page.ids, compress)
            if isinstance(request._request, ASGIRequest)
            else _chunks(page.ids, compress)
        )
        response = StreamingHttpResponse(body, content_type=CONTENT_TYPE)
        patch_vary_headers(response, ("Accept-Encoding",))
        if compress:
            response["Content-Encoding"] = "gzip"
        response["Cache-Control"] = "no-cache"
        if page.end is not None:
            cursor = page.end.cursor()
            response["X-Next-Cursor"] = cursor
            if page.more:
                query = request.query_params.copy()
                query["cursor"] = cursor
                url = request.build_absolute_uri(request.path) + "?" + query.urlencode()
                response["Link"] = f'<{url}>; rel="next"'
        return response
