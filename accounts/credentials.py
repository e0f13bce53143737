"""One signal for whoever remembers what a credential was allowed to do.

``credentials_changed`` is sent, after the commit, whenever a token, a user or a player may
have lost something it was allowed: a token revoked or edited, a bot retired, an account
disabled or deleted. It carries nothing: a receiver forgets all it remembers (the event
feed's admissions, :mod:`games.live.admissions`). Changes made through the ORM's ``save``
and ``delete`` are caught here; the services that write with ``update()`` call
:func:`credentials_changed_after_commit` themselves.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import Signal

from accounts.models import ApiToken, Player

credentials_changed = Signal()

# Saves that change nothing a credential allows: every sign-in writes last_login.
_HARMLESS_USER_FIELDS = frozenset({"last_login"})


def credentials_changed_after_commit() -> None:
    transaction.on_commit(lambda: credentials_changed.send(sender=None))


def _saved(sender: Any, instance: Any, created: bool, update_fields: Any, **kwargs: Any) -> None:
    if created:
        return  # a new token or account had nothing to lose
    if update_fields and set(update_fields) <= _HARMLESS_USER_FIELDS:
        return
    credentials_changed_after_commit()


def _deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
    credentials_changed_after_commit()


def connect() -> None:
    """Called once, from the accounts app's ready()."""
    for model in (ApiToken, Player, get_user_model()):
        post_save.connect(_saved, sender=model, dispatch_uid=f"credentials-saved-{model.__name__}")
        post_delete.connect(
            _deleted, sender=model, dispatch_uid=f"credentials-deleted-{model.__name__}"
        )
