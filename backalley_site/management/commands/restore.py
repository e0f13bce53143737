"""``manage.py restore FILE``: ``pg_restore`` a backup into a database (docs/deployment.md,
"Backups"). Into a fresh database by default; over the service's own only when told twice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from backalley_site import backups


class Command(BaseCommand):
    help = "Restore a backup made by `manage.py backup` (pg_restore)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="The .dump file.")
        parser.add_argument(
            "--to",
            default=None,
            help="postgres://… of the database to restore into (default: DATABASE_URL).",
        )
        parser.add_argument(
            "--create", action="store_true", help="Create the database first if it is missing."
        )
        parser.add_argument(
            "--clean",
            action="store_true",
            help="Drop the objects the backup holds before restoring them (a database in use).",
        )
        parser.add_argument(
            "--yes-overwrite",
            action="store_true",
            help="Needed to restore over a database that holds tables.",
        )
        parser.add_argument("--jobs", type=int, default=2, help="Parallel restore jobs.")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            target = backups.from_url(options["to"]) if options["to"] else backups.configured()
            if not backups.database_exists(target):
                if not options["create"]:
                    raise CommandError(f"No database {target.name}: pass --create to make it.")
                backups.create_database(target)
            elif not backups.database_is_empty(target) and not (
                options["clean"] and options["yes_overwrite"]
            ):
                raise CommandError(
                    f"{target.name} holds tables: restore into a fresh database, or pass "
                    "--clean --yes-overwrite to replace what the backup holds."
                )
            took = backups.restore(
                path=Path(options["file"]),
                target=target,
                clean=options["clean"],
                jobs=options["jobs"],
            )
        except backups.BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(
            f"restored {options['file']} into {target.name} in {took:.1f} s; next: "
            "`manage.py migrate` (a backup older than the code), then `manage.py verify_games`"
        )
