"""``manage.py verify_games``: replay every game from its seed and log; report disagreements.

Exits non-zero when any game's stored deals, state or result disagree with the replay.

Each game is read in a transaction of its own at REPEATABLE READ (on PostgreSQL): its row,
move log, deals and snapshot are one snapshot, so a game being played while it runs is
checked as it stood at one moment, never half before and half after a move. One game per
transaction keeps each snapshot short (a long one would hold back vacuum on a busy site).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction

from games.models import Game
from games.verify import verify_game


def verify_one(pk: int) -> tuple[str, list[str]] | None:
    """The public id and problems of game ``pk``, read in one snapshot (None: it is gone)."""
    # Inside a caller's transaction (a test's, say) the block below is a savepoint: the
    # isolation level is the caller's, and cannot change once it has read anything.
    own = not connection.in_atomic_block
    with transaction.atomic():
        if own and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        game = Game.objects.filter(pk=pk).first()
        return None if game is None else (game.public_id, verify_game(game))


class Command(BaseCommand):
    help = "Replay every game from its seed and move log and report games that disagree."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("games", nargs="*", help="public ids (default: every game)")

    def handle(self, *args: Any, **options: Any) -> None:
        qs = Game.objects.all()
        if options["games"]:
            qs = qs.filter(public_id__in=options["games"])
        checked = bad = 0
        for pk in list(qs.order_by("pk").values_list("pk", flat=True)):
            found = verify_one(pk)
            if found is None:
                continue
            checked += 1
            public_id, problems = found
            if problems:
                bad += 1
                for problem in problems:
                    self.stdout.write(f"{public_id}: {problem}")
        self.stdout.write(f"verified {checked} game(s): {bad} with problems")
        if bad:
            raise CommandError(f"{bad} game(s) disagree with their replay")
