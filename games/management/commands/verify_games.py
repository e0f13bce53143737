"""``manage.py verify_games``: replay every game from its seed and log; report disagreements.

Exits non-zero when any game's stored deals, state or result disagree with the replay.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Game
from games.verify import verify_game


class Command(BaseCommand):
    help = "Replay every game from its seed and move log and report games that disagree."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("games", nargs="*", help="public ids (default: every game)")

    def handle(self, *args: Any, **options: Any) -> None:
        qs = Game.objects.all()
        if options["games"]:
            qs = qs.filter(public_id__in=options["games"])
        checked = bad = 0
        for game in qs.order_by("pk").iterator(chunk_size=50):
            checked += 1
            problems = verify_game(game)
            if problems:
                bad += 1
                for problem in problems:
                    self.stdout.write(f"{game.public_id}: {problem}")
        self.stdout.write(f"verified {checked} game(s): {bad} with problems")
        if bad:
            raise CommandError(f"{bad} game(s) disagree with their replay")
