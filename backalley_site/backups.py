"""Backups of the database: ``pg_dump`` and ``pg_restore`` in PostgreSQL's custom format
(docs/deployment.md, "Backups").

The custom format is compressed, restores selectively and in parallel (``--jobs``), and
``pg_restore --list`` reads it back without restoring: each backup is checked so before it
is called done. The connection comes from ``DATABASES["default"]`` (``DATABASE_URL``) or a
URL given for the restore's target, and is handed to the tools through libpq's environment
(``PGHOST``, ``PGPASSWORD``, …), never on a command line another user's ``ps`` could read.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from django.conf import settings

SUFFIX = ".dump"
_NAME = re.compile(r"^[A-Za-z0-9_-]{1,63}$")


class BackupError(Exception):
    """A tool failed or is missing; the message says which and why."""


@dataclass(frozen=True)
class Target:
    """Where a database is: enough for libpq."""

    name: str
    user: str = ""
    password: str = ""
    host: str = ""
    port: str = ""

    def env(self) -> dict[str, str]:
        out = {**os.environ, "PGDATABASE": self.name, "PGCONNECT_TIMEOUT": "10"}
        for key, value in (
            ("PGUSER", self.user),
            ("PGPASSWORD", self.password),
            ("PGHOST", self.host),
            ("PGPORT", self.port),
        ):
            if value:
                out[key] = value
            else:
                out.pop(key, None)
        return out

    def with_name(self, name: str) -> Target:
        return Target(name, self.user, self.password, self.host, self.port)


def configured() -> Target:
    """The service's own database (it must be PostgreSQL)."""
    db: dict[str, Any] = settings.DATABASES["default"]
    if not str(db["ENGINE"]).endswith("postgresql"):
        raise BackupError("Backups are made of PostgreSQL databases; DATABASE_URL names another.")
    return Target(
        str(db["NAME"]),
        str(db.get("USER") or ""),
        str(db.get("PASSWORD") or ""),
        str(db.get("HOST") or ""),
        str(db.get("PORT") or ""),
    )


def from_url(url: str) -> Target:
    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql", "pgsql"):
        raise BackupError(f"Not a PostgreSQL URL: {parts.scheme}://…")
    name = unquote(parts.path.lstrip("/"))
    if not name:
        raise BackupError("The URL names no database.")
    return Target(
        name,
        unquote(parts.username or ""),
        unquote(parts.password or ""),
        parts.hostname or "",
        str(parts.port or ""),
    )


def _tool(name: str) -> str:
    folder = getattr(settings, "PG_BIN_DIR", "")
    found = shutil.which(name, path=folder or None) if folder else shutil.which(name)
    if not found:
        raise BackupError(f"{name} is not installed (Debian: postgresql-client).")
    return found


def _run(args: list[str], target: Target, what: str) -> str:
    done = subprocess.run(args, env=target.env(), capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BackupError(f"{what} failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    return done.stdout


def backup_name(target: Target, now: datetime | None = None) -> str:
    now = now or datetime.now(UTC)
    return f"backalley-{target.name}-{now:%Y%m%dT%H%M%SZ}{SUFFIX}"


@dataclass(frozen=True)
class Made:
    path: Path
    size: int
    entries: int  # objects in the archive's table of contents (pg_restore --list)
    seconds: float


def backup(*, folder: Path, target: Target | None = None) -> Made:
    """Dump ``target`` (the service's database) into ``folder``: written to a temporary
    name, checked with ``pg_restore --list``, then renamed, so a file with the final name
    is always a whole backup."""
    target = target or configured()
    folder.mkdir(parents=True, exist_ok=True)
    final = folder / backup_name(target)
    partial = final.with_suffix(".partial")
    started = time.perf_counter()
    _run(
        [_tool("pg_dump"), "--format=custom", "--compress=6", "--no-owner", "--no-privileges",
         f"--file={partial}"],
        target,
        "pg_dump",
    )  # fmt: skip
    try:
        listing = _run([_tool("pg_restore"), "--list", str(partial)], target, "pg_restore --list")
    except BackupError:
        partial.unlink(missing_ok=True)
        raise
    entries = sum(1 for line in listing.splitlines() if line and not line.startswith(";"))
    partial.rename(final)
    return Made(final, final.stat().st_size, entries, time.perf_counter() - started)


def prune(*, folder: Path, keep_days: float, now: datetime | None = None) -> list[Path]:
    """Delete this service's backups in ``folder`` older than ``keep_days`` (by the time in
    their names); the newest one is always kept."""
    now = now or datetime.now(UTC)
    stamped: list[tuple[datetime, Path]] = []
    for path in folder.glob(f"backalley-*{SUFFIX}"):
        match = re.search(r"-(\d{8}T\d{6}Z)\.dump$", path.name)
        if match:
            stamped.append(
                (datetime.strptime(match.group(1), "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC), path)
            )
    stamped.sort()
    old = [p for at, p in stamped[:-1] if now - at > timedelta(days=keep_days)]
    for path in old:
        path.unlink()
    return old


def _maintenance(target: Target) -> Target:
    return target.with_name("postgres")


def database_exists(target: Target) -> bool:
    if not _NAME.fullmatch(target.name):
        raise BackupError(f"Not a database name this tool handles: {target.name!r}.")
    out = _run(
        [_tool("psql"), "-XAtq", "-v", "ON_ERROR_STOP=1", "-c",
         f"SELECT 1 FROM pg_database WHERE datname = '{target.name}'"],
        _maintenance(target),
        "psql",
    )  # fmt: skip
    return out.strip() == "1"


def database_is_empty(target: Target) -> bool:
    out = _run(
        [_tool("psql"), "-XAtq", "-v", "ON_ERROR_STOP=1", "-c",
         "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"],
        target,
        "psql",
    )  # fmt: skip
    return out.strip() == "0"


def create_database(target: Target) -> None:
    if not _NAME.fullmatch(target.name):
        raise BackupError(f"Will not create a database named {target.name!r}.")
    _run([_tool("createdb"), target.name], _maintenance(target), "createdb")


def restore(*, path: Path, target: Target, clean: bool = False, jobs: int = 2) -> float:
    """Restore the backup ``path`` into ``target``; returns the seconds it took.

    Into an empty database by default; ``clean`` drops the objects the backup holds first
    (restoring over a database in use: its other objects are left alone)."""
    if not path.is_file():
        raise BackupError(f"No backup at {path}.")
    started = time.perf_counter()
    args = [_tool("pg_restore"), "--no-owner", "--no-privileges", "--exit-on-error",
            f"--jobs={max(jobs, 1)}", f"--dbname={target.name}"]  # fmt: skip
    if clean:
        args += ["--clean", "--if-exists"]
        args.remove(f"--jobs={max(jobs, 1)}")  # --clean with --jobs may order drops badly
    _run([*args, str(path)], target, "pg_restore")
    return time.perf_counter() - started
