"""Notices about invitations (the games app fires the news; this app delivers it).

``invited`` goes to the invited person, or to the owner of an invited bot; ``accepted``,
``declined`` and ``expired`` go to whoever invited. Each notice is delivered once (keyed by
the invitation and the news, like reminders) in the app and by e-mail, as the recipient's
``invitation_inapp`` / ``invitation_email`` preferences allow.
"""

from __future__ import annotations

from accounts.models import Player
from clock.models import NotificationKind
from clock.reminders import _deliver, preferences_for
from games.invitation_hooks import InvitationEvent
from games.models import Game


def _recipient(player: Player) -> Player | None:
    """The person who answers for ``player``: itself, or a bot's owner."""
    if not player.is_bot:
        return player
    if player.owner_id is None:
        return None
    return Player.objects.filter(user_id=player.owner_id).select_related("user").first()


def invitation_notify(event: InvitationEvent) -> bool:
    invitee = Player.objects.filter(pk=event.player_id).first()
    game = Game.objects.filter(pk=event.game_id).first()
    if invitee is None or game is None:
        return False
    inviter = (
        Player.objects.filter(pk=event.invited_by_id).first()
        if event.invited_by_id is not None
        else None
    )
    by = inviter.name if inviter else "Someone"
    what = "rated" if game.rated else "unrated"
    if event.kind == "invited":
        to = _recipient(invitee)
        whom = "you" if not invitee.is_bot else f"your bot {invitee.name}"
        title = f"{by} invites {whom} to game {event.public_id}"
        body = (
            f"{by} invites {whom} to seat {event.position} of a {what} game "
            f"({event.public_id}). Accept or decline on My games, or through the API "
            f"(POST /api/v1/invitations/{event.invitation_id}/accept/ or .../decline/)."
        )
    else:
        to = inviter
        title = f"{invitee.name} {event.kind} your invitation to game {event.public_id}"
        body = (
            f"{invitee.name} {event.kind} your invitation to seat {event.position} of game "
            f"{event.public_id}."
            + ("" if event.kind == "accepted" else " That seat is now open to anyone.")
        )
    if to is None or to.user_id is None:
        return False
    prefs = preferences_for(to)
    return _deliver(
        to,
        NotificationKind.INVITATION,
        f"inv:{event.invitation_id}:{event.kind}",
        title,
        body,
        game=game,
        inapp=prefs.invitation_inapp,
        email=prefs.invitation_email,
    )
