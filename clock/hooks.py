"""The clock follows each game through the games app's after-commit hooks."""

from __future__ import annotations

import logging

from games import hooks as game_hooks
from games import invitation_hooks

logger = logging.getLogger(__name__)


def follow_game(event: game_hooks.GameEvent) -> None:
    """Start (or stop) the running clock for the turn the game has reached.

    Runs after the move's commit, in the mover's request; it is one short transaction.
    Should it fail or be lost, the sweeper finds the clock behind the log and syncs it.
    """
    from clock.services import clock_sync

    clock_sync(game_id=event.game_id)


def notify_invitation(event: invitation_hooks.InvitationEvent) -> None:
    """Tell the invitee (or the invited bot's owner) of an invitation, and the inviter of
    the answer, in the app and by e-mail as their preferences allow."""
    from clock.invitations import invitation_notify

    invitation_notify(event)


def install() -> None:
    game_hooks.on_game_started(follow_game)
    game_hooks.on_move_committed(follow_game)
    invitation_hooks.on_invitation(notify_invitation)
