"""A committing process that dies between its commit and the delivery of its events.

Run as ``python -m tests.games.outbox_crash <game id>`` with ``DATABASE_URL`` set to the
test database: the seat to act makes a move through ``games.services.move_submit``, the
transaction commits, and the process SIGKILLs itself where the delivery would begin.
"""

from __future__ import annotations

import os
import signal
import sys

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backalley_site.settings")
django.setup()

from games import outbox, statecache  # noqa: E402
from games.models import Game  # noqa: E402
from games.services import move_submit  # noqa: E402
from tests.games import outbox_consumers  # noqa: E402,F401 - the same consumers everywhere


def die(*args: object, **kwargs: object) -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def main(game_id: int) -> None:
    outbox.deliver = die  # the on_commit callback looks it up when it runs
    game = Game.objects.get(pk=game_id)
    state = statecache.state_for(game)
    move_submit(
        game_id=game.pk,
        seats=[state.seat_to_act],
        action=state.legal_actions()[-1],
        expected_seq=game.move_count,
    )
    print("not killed", flush=True)  # reached only if the delivery never ran


if __name__ == "__main__":
    main(int(sys.argv[1]))
