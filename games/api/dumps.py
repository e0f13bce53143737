"""The nightly dump, served: ``GET /api/v1/dumps/`` lists the dumps there are (the newest
first) and ``GET /api/v1/dumps/{name}`` serves one, or its checksum file (games.dumps).
``latest.ndjson.gz`` and ``latest.ndjson.gz.sha256`` name the newest.

A dump is read from disk in chunks as the client takes it: under ASGI through an
asynchronous iterator whose reads run in a thread, so a large file is never held in memory
and the event loop never waits on the disk.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import IO, Any

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.permissions import PUBLIC
from games import dumps
from games.api.exports import ErrorsInJSON
from games.api.serializers import ErrorSerializer
from games.errors import DumpNotFound

READ_SIZE = 256 * 1024


class DumpSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(help_text="games-YYYY-MM-DD.ndjson.gz (the UTC day written).")
    url = serializers.URLField()
    sha256 = serializers.CharField(help_text="SHA-256 of the file, 64 hex digits.")
    sha256_url = serializers.URLField(help_text="The checksum file, in sha256sum's format.")
    size = serializers.IntegerField(help_text="Bytes.")
    written_at = serializers.DateTimeField()


class DumpListSerializer(serializers.Serializer[Any]):
    latest = DumpSerializer(allow_null=True)
    dumps = DumpSerializer(many=True)


def _row(request: Request, dump: dumps.Dump) -> dict[str, Any]:
    def url(name: str) -> str:
        return request.build_absolute_uri(reverse("games-api:dump", kwargs={"name": name}))

    return {
        "name": dump.name,
        "url": url(dump.name),
        "sha256": dump.sha256,
        "sha256_url": url(dump.checksum_name),
        "size": dump.size,
        "written_at": dump.written_at,
    }


class DumpListView(APIView):
    scopes = PUBLIC

    @extend_schema(
        tags=["games"],
        responses={200: DumpListSerializer},
        summary="The nightly dumps of every finished game",
        description=(
            "Every finished game whose seed is public, one whole record per line "
            "(docs/record-format.md), gzip-compressed, written every night; each with its "
            "SHA-256 and a checksum file for `sha256sum -c`. The newest first; `latest` is "
            "null until the first dump is written."
        ),
    )
    def get(self, request: Request) -> Response:
        rows = [_row(request, d) for d in dumps.dumps_list()]
        return Response(
            DumpListSerializer({"latest": rows[0] if rows else None, "dumps": rows}).data
        )


def _reads(handle: IO[bytes]) -> Iterator[bytes]:
    with handle:
        while chunk := handle.read(READ_SIZE):
            yield chunk


async def _async_reads(handle: IO[bytes]) -> AsyncIterator[bytes]:
    read = sync_to_async(handle.read, thread_sensitive=False)
    try:
        while chunk := await read(READ_SIZE):
            yield chunk
    finally:
        handle.close()


class DumpFileView(APIView):
    scopes = PUBLIC
    renderer_classes = [JSONRenderer]
    content_negotiation_class = ErrorsInJSON

    @extend_schema(
        tags=["games"],
        parameters=[
            OpenApiParameter(
                "name",
                str,
                OpenApiParameter.PATH,
                description="A dump's name, or its name + `.sha256` for its checksum file; "
                "`latest.ndjson.gz` (`.sha256`) for the newest.",
            )
        ],
        responses={
            (200, "application/gzip"): OpenApiResponse(
                OpenApiTypes.BINARY, description="The dump: gzip-compressed NDJSON records."
            ),
            (200, "text/plain"): OpenApiResponse(
                OpenApiTypes.STR,
                description="The checksum file.",
                examples=[
                    OpenApiExample(
                        "A checksum file",
                        value=f"{'9f2c' * 16}  games-2026-12-02.ndjson.gz\n",
                        media_type="text/plain",
                        status_codes=["200"],
                        response_only=True,
                    )
                ],
            ),
            (404, "application/json"): ErrorSerializer,
        },
        summary="One nightly dump, or its checksum file",
        description="Errors: 404 `dump_not_found`.",
    )
    def get(self, request: Request, name: str) -> HttpResponseBase:
        found = dumps.dump_named(name)
        if found is None:
            raise DumpNotFound(
                message=_("There is no dump called %(name)s: the list is at /api/v1/dumps/.")
                % {"name": repr(name)},
                extra={"name": name},
            )
        dump, checksum = found
        response: HttpResponseBase
        if checksum:
            response = HttpResponse(
                f"{dump.sha256}  {dump.name}\n", content_type="text/plain; charset=utf-8"
            )
            filename = dump.checksum_name
        else:
            handle = dump.path.open("rb")  # open now: a dump replaced meanwhile stays whole
            body = (
                _async_reads(handle)
                if isinstance(request._request, ASGIRequest)
                else _reads(handle)
            )
            response = StreamingHttpResponse(body, content_type="application/gzip")
            response["Content-Length"] = str(dump.size)
            response["ETag"] = f'"{dump.sha256}"'
            filename = dump.name
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response
