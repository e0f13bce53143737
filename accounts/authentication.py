"""DRF authentication by personal API token: ``Authorization: Bearer bac_…``."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from accounts.models import ApiToken
from accounts.tokens import TOKEN_PREFIX, token_find, token_touch


class BearerTokenAuthentication(authentication.BaseAuthentication):
    """Authenticates ``Authorization: Bearer <token>``; ``request.auth`` is the ApiToken.

    Requests without a Bearer header are left to the next class (the site's session).
    Error codes (401): ``invalid_token`` (malformed or unknown), ``token_revoked``,
    ``user_inactive``.
    """

    keyword = "Bearer"

    def authenticate(self, request: Request) -> tuple[Any, ApiToken] | None:
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(
                _("Malformed Authorization header: use 'Bearer <token>'."), code="invalid_token"
            )
        try:
            secret = header[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed(
                _("The token contains invalid characters."), code="invalid_token"
            ) from None
        token = token_find(secret) if secret.startswith(TOKEN_PREFIX) else None
        if token is None:
            raise exceptions.AuthenticationFailed(_("Unknown API token."), code="invalid_token")
        if token.revoked_at is not None or (token.bot is not None and token.bot.retired_at):
            raise exceptions.AuthenticationFailed(
                _("This API token has been revoked."), code="token_revoked"
            )
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(
                _("The account of this token is disabled."), code="user_inactive"
            )
        token_touch(token)
        return token.user, token

    def authenticate_header(self, request: Request) -> str:
        return f'{self.keyword} realm="api"'
