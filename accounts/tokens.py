"""Personal API tokens: making, hashing, finding and revoking them.

A token is ``bac_`` followed by 43 URL-safe characters (32 random bytes). Only its SHA-256
hash is stored: the secret cannot be recovered from the database, and because the secret
has 256 bits of entropy a plain (unsalted) fast hash is enough.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.credentials import credentials_changed_after_commit
from accounts.models import ALL_SCOPES, ApiToken, Player
from backalley_site.errors import DomainError, NotFoundError

TOKEN_PREFIX = "bac_"
PREFIX_SHOWN = 12  # "bac_" and 8 characters of the secret: enough to tell tokens apart
MAX_ACTIVE_TOKENS = 50
# Writing last_used_at on every request would add a write to every read; a minute is plenty.
LAST_USED_RESOLUTION = timedelta(minutes=1)


def token_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def _check_scopes(scopes: Iterable[str]) -> list[str]:
    scopes = list(scopes)
    unknown = sorted(set(scopes) - ALL_SCOPES)
    if unknown or not scopes:
        raise DomainError(
            "invalid_scopes",
            _("Scopes must be a non-empty subset of %(value)s.")
            % {"value": ", ".join(sorted(ALL_SCOPES))},
            extra={"unknown": unknown, "allowed": sorted(ALL_SCOPES)},
        )
    return sorted(set(scopes))


def token_create(
    *, user: User, name: str, scopes: Iterable[str], bot: Player | None = None
) -> tuple[ApiToken, str]:
    """Make a token for ``user``; return it and its secret, which is never available again."""
    name = (name or "").strip()
    if not name or len(name) > 100:
        raise DomainError("invalid_name", _("A token name is 1 to 100 characters."))
    clean = _check_scopes(scopes)
    if bot is not None:
        if not bot.is_bot or bot.owner_id != user.pk:
            raise DomainError(
                "not_your_bot", _("You can only make tokens for your own bots."), http_status=403
            )
        if "bot" not in clean:
            raise DomainError(
                "invalid_scopes",
                _("A token for a bot needs the 'bot' scope."),
                extra={"scopes": clean},
            )
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    with transaction.atomic():
        # Lock the user's row so two concurrent requests cannot both pass the limit.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        active = ApiToken.objects.filter(user=user, revoked_at__isnull=True).count()
        if active >= MAX_ACTIVE_TOKENS:
            raise DomainError(
                "too_many_tokens",
                _("You already have %(max_active_tokens)s active tokens; revoke one first.")
                % {"max_active_tokens": MAX_ACTIVE_TOKENS},
                http_status=409,
                extra={"limit": MAX_ACTIVE_TOKENS},
            )
        token = ApiToken.objects.create(
            user=user,
            name=name,
            scopes=clean,
            bot=bot,
            prefix=secret[:PREFIX_SHOWN],
            key_hash=token_hash(secret),
        )
    return token, secret


def token_revoke(*, user: User, token_id: int) -> ApiToken:
    """Revoke one of ``user``'s tokens; revoking a revoked token changes nothing."""
    token = ApiToken.objects.filter(user=user, pk=token_id).first()
    if token is None:
        # Someone else's token is "not found" too: ids of other users' tokens stay private.
        raise NotFoundError(message=_("You have no token with this id."), extra={"id": token_id})
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        ApiToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(
            revoked_at=token.revoked_at
        )
        credentials_changed_after_commit()
    return token


def token_list(*, user: User) -> QuerySet[ApiToken]:
    return ApiToken.objects.filter(user=user).select_related("bot").order_by("-created_at", "-pk")


def token_find(secret: str) -> ApiToken | None:
    """The token whose secret is ``secret`` (revoked or not), or None.

    The look-up is by hash through a unique index, so its timing depends on the hash, not on
    how much of a guessed secret is right; the final comparison is constant-time as well.
    """
    digest = token_hash(secret)
    token = ApiToken.objects.select_related("user", "bot").filter(key_hash=digest).first()
    if token is None or not hmac.compare_digest(token.key_hash, digest):
        return None
    return token


def token_touch(token: ApiToken) -> None:
    """Record that the token was used (at most once per LAST_USED_RESOLUTION)."""
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_RESOLUTION:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
