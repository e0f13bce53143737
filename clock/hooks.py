"""The clock follows each game through the games app's durable events.

The sync itself runs in a task (queue "clock", routed in settings), not in the mover's
request: the request commits and answers, and the clock catches up right after. The task
id is deterministic and ``clock_sync`` does nothing for a clock already in step, so a
repeated event changes nothing.
"""

from __future__ import annotations

from functools import lru_cache

from clock.claims import claim_notify
from clock.invitations import invitation_notify
from clock.tasks import play_abandoned_seat, sync_clock
from games import hooks as game_hooks
from games import invitation_hooks
from games.models import Game


@lru_cache(maxsize=4096)
def _timed(game_id: int, public_id: str) -> bool:
    """Whether the game has a time control (fixed at creation, so cached per process; the
    public id guards against a reused pk)."""
    timed = Game.objects.filter(
        pk=game_id, public_id=public_id, options__time_control__isnull=False
    ).exclude(options__time_control=None)
    return timed.exists()


def sync_task_id(game_id: int, seq: int) -> str:
    return f"clock-sync:{game_id}:{seq}"


def follow_game(event: game_hooks.GameEvent) -> None:
    """Start (or stop) the running clock for the turn the game has reached; in an untimed
    game, only hand an abandoned seat's turn to the house bot."""
    if not _timed(event.game_id, event.public_id):
        if event.to_act_abandoned:  # told by the move itself: no query per move
            play_abandoned_seat.apply_async(
                args=(event.game_id, event.seq),
                task_id=f"clock-abandoned:{event.game_id}:{event.seq}",
            )
        return  # an untimed game has no clock: no task per move
    sync_clock.apply_async(args=(event.game_id,), task_id=sync_task_id(event.game_id, event.seq))


def notify_invitation(event: invitation_hooks.InvitationEvent) -> None:
    """Tell the invitee (or the invited bot's owner) of an invitation, and the inviter of
    the answer, in the app and by e-mail as their preferences allow."""
    invitation_notify(event)


def notify_claim(event: game_hooks.GameEvent) -> None:
    """Tell the opponents that a claim waits for their answer, and the claimant how it
    ended (clock.claims); nothing for the many moves that are not claims."""
    claim_notify(event)


def install() -> None:
    game_hooks.on_game_started(follow_game, name="clock.follow_game")
    game_hooks.on_move_committed(follow_game, name="clock.follow_game")
    game_hooks.on_move_committed(notify_claim, name="clock.notify_claim")
    invitation_hooks.on_invitation(notify_invitation)
