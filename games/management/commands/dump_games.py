"""``manage.py dump_games``: write the dump of every public record now (games.dumps).

The beat runs the same (``games.tasks.dump_games``) every night; this is for operators and
for a first dump on a new site.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games import dumps


class Command(BaseCommand):
    help = "Write the dump of every finished game's public record (gzip NDJSON and its SHA-256)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--dir", type=Path, default=None, help="where to write it (default: GAMES_DUMP_DIR)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        dump = dumps.dump_write(into=options["dir"])
        self.stdout.write(
            f"{dump.path}: {dump.games} games, {dump.size} bytes, sha256 {dump.sha256}"
        )
