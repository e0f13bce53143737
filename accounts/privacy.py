"""A person's data: the archive of everything of theirs, and deleting their account
(docs/privacy.md).

Each app hands over and erases its own part (:mod:`accounts.personal_data`); this module
runs them, and holds the accounts app's own part: the account, its sign-in, its tokens.

Deleting an account, in one transaction: the password is checked; every app's eraser runs
(bots retired and renamed, waiting games left, running games' seats handed to the house
bot, notices and preferences dropped, names quoted in others' notices replaced); then the
account itself: the player's name becomes a stable pseudonym, the e-mail and the sign-in
(password, sessions, login attempts) are gone, every token is deleted. Finished games stay,
under the pseudonym, so everyone else's records and ratings stay valid.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
from typing import Any

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.conf import settings
from django.contrib.admin.models import LogEntry
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import personal_data
from accounts.credentials import credentials_changed_after_commit
from accounts.models import ApiToken, Player
from accounts.services import player_for_user
from backalley_site.errors import DomainError

logger = logging.getLogger("backalley.privacy")

EXPORT_FORMAT = "backalley-export"
EXPORT_VERSION = 1
PSEUDONYM_PREFIX = "gone-"


class WrongPassword(DomainError):
    code = "wrong_password"
    http_status = 403


class AccountGone(DomainError):
    code = "account_deleted"
    http_status = 409


def _player_of(user: User) -> Player:
    return player_for_user(user)


# --- the archive ----------------------------------------------------------------------------
def archive_filename(name: str) -> str:
    return f"backalley-{name}-{timezone.now():%Y-%m-%d}.json"


def account_export(*, user: User) -> dict[str, Any]:
    """Everything the service holds of ``user``, one section per app, as plain JSON."""
    player = _player_of(user)
    subject = personal_data.Subject(user=user, player=player)
    archive: dict[str, Any] = {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "exported_at": timezone.now().isoformat(),
    }
    for name, export in personal_data.exporters():
        archive[name] = dict(export(subject))
    return archive


def export_account(subject: personal_data.Subject) -> dict[str, Any]:
    """The accounts app's section: the account, the player, the tokens' metadata."""
    user, player = subject.user, subject.player
    tokens = ApiToken.objects.filter(user=user).select_related("bot").order_by("created_at")
    return {
        "username": user.get_username(),
        "email": user.email,
        "date_joined": user.date_joined.isoformat(),
        "last_login": user.last_login.isoformat() if user.last_login else None,
        "player": {
            "name": player.name,
            "created_at": player.created_at.isoformat(),
            "language": player.language,
            "autoplay": player.autoplay,
        },
        "tokens": [
            {
                "name": t.name,
                "prefix": t.prefix,
                "scopes": t.scopes,
                "bot": t.bot.name if t.bot else None,
                "created_at": t.created_at.isoformat(),
                "last_used_at": t.last_used_at.isoformat() if t.last_used_at else None,
                "revoked_at": t.revoked_at.isoformat() if t.revoked_at else None,
            }
            for t in tokens
        ],
    }


# --- deleting -------------------------------------------------------------------------------
def pseudonym_for(player: Player) -> str:
    """A stable pseudonym: the same for a player every time, unrelated to their name, and
    not derivable from their id without the site's key."""
    digest = hmac.new(
        settings.SECRET_KEY.encode(), f"player:{player.pk}".encode(), hashlib.sha256
    ).digest()
    code = base64.b32encode(digest).decode().lower().rstrip("=")
    for length in (8, 12, 16, 24):
        name = PSEUDONYM_PREFIX + code[:length]
        if not Player.objects.filter(name__iexact=name).exclude(pk=player.pk).exists():
            return name
    raise DomainError("name_taken", "Could not find a free pseudonym.", http_status=409)


def account_delete(*, user: User, password: str) -> personal_data.Erasure:
    """Delete ``user``'s account once ``password`` is theirs (raises 403 ``wrong_password``).

    What is erased, kept and why: docs/privacy.md. Logged (``backalley.privacy``) with the
    pseudonym and what each app erased, never the old name.
    """
    if not user.is_active:
        raise AccountGone(message=_("This account has been deleted."))
    if not user.check_password(password):
        raise WrongPassword(message=_("That is not your password."))
    with transaction.atomic():
        locked = get_user_model().objects.select_for_update().get(pk=user.pk)
        if not locked.is_active:
            raise AccountGone(message=_("This account has been deleted."))
        player = _player_of(locked)
        erasure = personal_data.Erasure(
            user=locked,
            player=player,
            pseudonym=pseudonym_for(player),
            old_name=player.name,
            old_username=locked.get_username(),
            at=timezone.now(),
        )
        for _name, erase in personal_data.erasers():
            erase(erasure)
        credentials_changed_after_commit()
    logger.warning(
        "account deleted: player %s is now %s; erased %s",
        player.pk,
        erasure.pseudonym,
        erasure.erased,
        extra={"player_id": player.pk, "pseudonym": erasure.pseudonym},
    )
    return erasure


def erase_account(erasure: personal_data.Erasure) -> None:
    """The accounts app's eraser (last of all): the name, the e-mail, the sign-in, the tokens."""
    user, player = erasure.user, erasure.player
    erasure.count("tokens", ApiToken.objects.filter(user=user).delete()[0])
    Player.objects.filter(pk=player.pk).update(
        name=erasure.pseudonym, language="", erased_at=erasure.at
    )
    player.name, player.language, player.erased_at = erasure.pseudonym, "", erasure.at
    user.username = erasure.pseudonym
    user.email = ""
    user.first_name = user.last_name = ""
    user.set_unusable_password()
    user.is_active = user.is_staff = user.is_superuser = False
    user.last_login = None
    user.save()
    user.groups.clear()
    user.user_permissions.clear()
    # Sessions hold the user's id: those of this account are deleted (the others' kept).
    mine = [
        s.session_key
        for s in Session.objects.filter(expire_date__gt=erasure.at).iterator()
        if str(s.get_decoded().get("_auth_user_id")) == str(user.pk)
    ]
    erasure.count("sessions", Session.objects.filter(session_key__in=mine).delete()[0])
    # Sign-in attempts name the username and the address they came from.
    for model in (AccessAttempt, AccessLog, AccessFailureLog):
        erasure.count(
            "login_records", model.objects.filter(username=erasure.old_username).delete()[0]
        )
    # The admin's history names the account in its entries about it.
    LogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(type(user)), object_id=str(user.pk)
    ).update(object_repr=erasure.pseudonym, change_message="")
    LogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(Player), object_id=str(player.pk)
    ).update(object_repr=erasure.pseudonym, change_message="")


def install() -> None:
    personal_data.register("account", export=export_account, erase=erase_account, order=1000)
