"""After-commit news of invitations, for the app that notifies people (games imports none).

Register in your AppConfig.ready()::

    from games import invitation_hooks
    invitation_hooks.on_invitation(my_callback)

Each callback gets an :class:`InvitationEvent` after the transaction that made the change
commits: ``invited`` (tell the invitee, or the owner of an invited bot), ``accepted``,
``declined`` and ``expired`` (tell whoever invited). An exception in one callback is
logged and does not stop the others.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db import transaction

if TYPE_CHECKING:
    from games.models import Invitation

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class InvitationEvent:
    kind: str  # "invited" | "accepted" | "declined" | "expired"
    invitation_id: int
    game_id: int
    public_id: str
    position: int
    player_id: int  # the invitee
    invited_by_id: int | None


Callback = Callable[[InvitationEvent], None]
_callbacks: list[Callback] = []


def on_invitation(callback: Callback) -> Callback:
    if callback not in _callbacks:
        _callbacks.append(callback)
    return callback


def unregister(callback: Callback) -> None:
    if callback in _callbacks:
        _callbacks.remove(callback)


def fire(event: InvitationEvent) -> None:
    for callback in list(_callbacks):
        try:
            callback(event)
        except Exception:  # one broken listener must not hide the news from the others
            logger.exception("invitation hook %r failed for %s", callback, event)


def fire_on_commit(kind: str, invitation: Invitation) -> None:
    """Tell the listeners about ``invitation`` once the current transaction commits."""
    event = InvitationEvent(
        kind,
        invitation.pk,
        invitation.game_id,
        invitation.game.public_id,
        invitation.position,
        invitation.player_id,
        invitation.invited_by_id,
    )
    transaction.on_commit(lambda: fire(event))
