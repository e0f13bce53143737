"""The clock follows each game through the games app's durable events.

The sync itself runs in a task (queue "clock", routed in settings), not in the mover's
request: the request commits and answers, and the clock catches up right after. The task
id is deterministic and ``clock_sync`` does nothing for a clock already in step, so a
repeated event changes nothing.
"""

from __future__ import annotations

from games import hooks as game_hooks
from games import invitation_hooks


def sync_task_id(game_id: int, seq: int) -> str:
    return f"clock-sync:{game_id}:{seq}"


def follow_game(event: game_hooks.GameEvent) -> None:
    """Start (or stop) the running clock for the turn the game has reached."""
    from clock.tasks import sync_clock

    sync_clock.apply_async(args=(event.game_id,), task_id=sync_task_id(event.game_id, event.seq))


def notify_invitation(event: invitation_hooks.InvitationEvent) -> None:
    """Tell the invitee (or the invited bot's owner) of an invitation, and the inviter of
    the answer, in the app and by e-mail as their preferences allow."""
    from clock.invitations import invitation_notify

    invitation_notify(event)


def install() -> None:
    game_hooks.on_game_started(follow_game, name="clock.follow_game")
    game_hooks.on_move_committed(follow_game, name="clock.follow_game")
    invitation_hooks.on_invitation(notify_invitation)
