"""The nightly dump: every public record (:mod:`games.exports`) in one gzip-compressed NDJSON
file, with its SHA-256 beside it, in ``GAMES_DUMP_DIR`` (docs/api.md, "The nightly dump").

A dump is named for the day it was written (``games-2026-12-02.ndjson.gz``) and its checksum
file (``games-2026-12-02.ndjson.gz.sha256``) is in ``sha256sum`` format, so ``sha256sum -c``
checks a download. Both are written to a temporary file in the same directory and renamed
into place, the checksum last: a dump is listed only once its checksum is there, so nobody
is ever served a half-written file, and a dump written again the same day replaces the old
one whole. The ids are read a page at a time from one query and the records written a
chunk of games at a time, so memory does not grow with the number of games. The last ``GAMES_DUMP_KEEP`` dumps
are kept.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, cast

from django.conf import settings
from django.utils import timezone

from games import exports

PAGE = 1000
_NAME = re.compile(r"games-([0-9]{4}-[0-9]{2}-[0-9]{2})\.ndjson\.gz")
CHECKSUM_SUFFIX = ".sha256"


@dataclass(frozen=True)
class Dump:
    """One complete dump on disk."""

    name: str
    path: Path
    size: int
    sha256: str
    written_at: datetime
    games: int | None = None  # known when just written

    @property
    def checksum_name(self) -> str:
        return self.name + CHECKSUM_SUFFIX


def directory() -> Path:
    return Path(settings.GAMES_DUMP_DIR)


def _replace_atomically(final: Path, write: Callable[[IO[bytes]], object]) -> None:
    """Write ``final`` through a temporary file in its directory, then rename it into place
    (``write(file)`` writes the content)."""
    fd, tmp = tempfile.mkstemp(dir=final.parent, prefix=f".{final.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as raw:
            write(raw)
            raw.flush()
            os.fsync(raw.fileno())
        os.replace(tmp, final)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class _Hashing:
    """A write-only file that hashes what passes through it."""

    def __init__(self, raw: IO[bytes]) -> None:
        self.raw = raw
        self.hash = hashlib.sha256()
        self.size = 0

    def write(self, data: bytes) -> int:
        self.hash.update(data)
        self.size += len(data)
        return self.raw.write(data)

    def flush(self) -> None:
        self.raw.flush()


def dump_write(*, now: datetime | None = None, into: Path | None = None) -> Dump:
    """Write today's dump of every public record (replacing one written earlier today),
    then its checksum, and drop dumps beyond ``GAMES_DUMP_KEEP``."""
    now = now or timezone.now()
    folder = into or directory()
    folder.mkdir(parents=True, exist_ok=True)
    name = f"games-{now.astimezone(UTC).date().isoformat()}.ndjson.gz"
    qs = exports.public_games(now=now)
    counted = 0
    sinks: list[_Hashing] = []

    def write(raw: IO[bytes]) -> None:
        nonlocal counted
        sink = _Hashing(raw)
        sinks.append(sink)
        # mtime=0 and no file name: the same records make the same bytes.
        with gzip.GzipFile(filename="", mode="wb", fileobj=cast(IO[bytes], sink), mtime=0) as out:
            # One query for the ids, read PAGE at a time from a server-side cursor: the
            # dump is the records public at one moment, and reading it is linear.
            ids = qs.values_list("pk", flat=True).iterator(chunk_size=PAGE)
            for record in exports.records(ids):
                out.write(exports.record_line(record))
                counted += 1

    _replace_atomically(folder / name, write)
    sink = sinks[-1]
    digest = sink.hash.hexdigest()
    # The checksum last: its presence says the dump beside it is complete.
    _replace_atomically(
        folder / (name + CHECKSUM_SUFFIX), lambda raw: raw.write(f"{digest}  {name}\n".encode())
    )
    _prune(folder)
    return Dump(
        name=name,
        path=folder / name,
        size=sink.size,
        sha256=digest,
        written_at=now,
        games=counted,
    )


def dumps_list(folder: Path | None = None) -> list[Dump]:
    """The complete dumps (those with their checksum file), newest first."""
    folder = folder or directory()
    if not folder.is_dir():
        return []
    out = []
    for path in folder.iterdir():
        if not _NAME.fullmatch(path.name):
            continue
        checksum = path.with_name(path.name + CHECKSUM_SUFFIX)
        try:
            digest = checksum.read_text(encoding="ascii").split()[0]
            stat = path.stat()
        except (OSError, IndexError, UnicodeDecodeError):
            continue
        out.append(
            Dump(
                name=path.name,
                path=path,
                size=stat.st_size,
                sha256=digest,
                written_at=datetime.fromtimestamp(stat.st_mtime, tz=UTC),
            )
        )
    return sorted(out, key=lambda d: d.name, reverse=True)


def dump_named(name: str, folder: Path | None = None) -> tuple[Dump, bool] | None:
    """The dump a file name names (``latest`` for the newest) and whether the name is of
    its checksum file; None when there is no such complete dump."""
    wanted, checksum = (
        (name[: -len(CHECKSUM_SUFFIX)], True) if name.endswith(CHECKSUM_SUFFIX) else (name, False)
    )
    found = dumps_list(folder)
    if wanted == "latest.ndjson.gz":
        return (found[0], checksum) if found else None
    for dump in found:
        if dump.name == wanted:
            return dump, checksum
    return None


def _prune(folder: Path) -> None:
    keep = max(1, int(settings.GAMES_DUMP_KEEP))
    for old in dumps_list(folder)[keep:]:
        old.path.with_name(old.checksum_name).unlink(missing_ok=True)  # unlisted first
        old.path.unlink(missing_ok=True)
