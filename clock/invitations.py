"""Notices about invitations (the games app fires the news; this app delivers it).

``invited`` goes to the invited person, or to the owner of an invited bot; ``accepted``,
``declined`` and ``expired`` go to whoever invited. Each notice is delivered once (keyed by
the invitation and the news, like reminders) in the app and by e-mail, as the recipient's
``invitation_inapp`` / ``invitation_email`` preferences allow.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from accounts.languages import in_language_of
from accounts.models import Player
from clock.models import NotificationKind
from clock.reminders import deliver, preferences_for
from games.invitation_hooks import InvitationEvent
from games.models import Game


def _recipient(player: Player) -> Player | None:
    """The person who answers for ``player``: itself, or a bot's owner."""
    if not player.is_bot:
        return player
    if player.owner_id is None:
        return None
    return Player.objects.filter(user_id=player.owner_id).select_related("user").first()


def _words(
    event: InvitationEvent, *, invitee: Player, inviter: Player | None, rated: bool
) -> tuple[str, str]:
    """The notice's title and body in the active language, each one whole sentence."""
    words = {
        "by": inviter.name if inviter else _("Someone"),
        "bot": invitee.name,
        "name": invitee.name,
        "game": event.public_id,
        "seat": event.position,
        "id": event.invitation_id,
    }
    api = (
        _(
            "Accept or decline on My games, or through the API "
            "(POST /api/v1/invitations/%(id)s/accept/ or .../decline/)."
        )
        % words
    )
    if event.kind == "invited":
        if invitee.is_bot:
            title = _("%(by)s invites your bot %(bot)s to game %(game)s") % words
            body = (
                _("%(by)s invites your bot %(bot)s to seat %(seat)s of a rated game (%(game)s).")
                if rated
                else _(
                    "%(by)s invites your bot %(bot)s to seat %(seat)s of an unrated game "
                    "(%(game)s)."
                )
            ) % words
        else:
            title = _("%(by)s invites you to game %(game)s") % words
            body = (
                _("%(by)s invites you to seat %(seat)s of a rated game (%(game)s).")
                if rated
                else _("%(by)s invites you to seat %(seat)s of an unrated game (%(game)s).")
            ) % words
        return title, f"{body} {api}"
    if event.kind == "accepted":
        return (
            _("%(name)s accepted your invitation to game %(game)s") % words,
            _("%(name)s accepted your invitation to seat %(seat)s of game %(game)s.") % words,
        )
    if event.kind == "declined":
        return (
            _("%(name)s declined your invitation to game %(game)s") % words,
            _(
                "%(name)s declined your invitation to seat %(seat)s of game %(game)s. That "
                "seat is now open to anyone."
            )
            % words,
        )
    return (
        _("%(name)s let your invitation to game %(game)s expire") % words,
        _(
            "%(name)s did not answer your invitation to seat %(seat)s of game %(game)s in "
            "time. That seat is now open to anyone."
        )
        % words,
    )


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
    to = _recipient(invitee) if event.kind == "invited" else inviter
    if to is None or to.user_id is None:
        return False
    # Written in the recipient's language, whichever request or worker sent the news.
    with in_language_of(to):
        title, body = _words(event, invitee=invitee, inviter=inviter, rated=game.rated)
    prefs = preferences_for(to)
    return deliver(
        to,
        NotificationKind.INVITATION,
        f"inv:{event.invitation_id}:{event.kind}",
        title,
        body,
        game=game,
        inapp=prefs.invitation_inapp,
        email=prefs.invitation_email,
    )
