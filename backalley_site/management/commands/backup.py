"""``manage.py backup``: a custom-format ``pg_dump`` of the database, checked, into
``BACKUP_DIR`` (docs/deployment.md, "Backups")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from backalley_site import backups


class Command(BaseCommand):
    help = "Back the database up (pg_dump, custom format), check the file, prune old ones."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dir", default=None, help="Where to write it (default: BACKUP_DIR).")
        parser.add_argument(
            "--keep-days",
            type=float,
            default=None,
            help="Delete this service's backups there older than this (default: "
            "BACKUP_KEEP_DAYS; 0 keeps every one). The newest is always kept.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        folder = Path(options["dir"] or settings.BACKUP_DIR)
        keep = options["keep_days"]
        keep = settings.BACKUP_KEEP_DAYS if keep is None else keep
        try:
            made = backups.backup(folder=folder)
            pruned = backups.prune(folder=folder, keep_days=keep) if keep > 0 else []
        except backups.BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(
            f"{made.path} ({made.size / 1e6:.1f} MB, {made.entries} objects, "
            f"{made.seconds:.1f} s); {len(pruned)} older backup(s) deleted"
        )
