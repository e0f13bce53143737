"""Rate limits per client address, shared by the API and the site's forms.

DRF's throttles keep their counters in the default cache, which every process sees (Redis or
the database cache, see ``CACHES``), and find the client with ``NUM_PROXIES``. The site's
forms use the same classes, so an address has one sign-up budget however it signs up.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.throttling import SimpleRateThrottle

from backalley_site.clientip import client_ip


class _AddressThrottle(SimpleRateThrottle):
    setting = ""
    fallback = ""

    def get_rate(self) -> str:
        # Read at request time, so tests and operators can tune it without a restart.
        return str(getattr(settings, self.setting, self.fallback))

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": client_ip(request)}


class SignupThrottle(_AddressThrottle):
    """Sign-ups per client address (the site's form and ``POST /api/v1/auth/signup/``)."""

    scope = "signup"
    setting = "ACCOUNTS_API_SIGNUP_RATE"
    fallback = "20/hour"


class LoginThrottle(_AddressThrottle):
    """Login attempts per client address on the site (django-axes adds a lockout per user)."""

    scope = "login"
    setting = "ACCOUNTS_LOGIN_RATE"
    fallback = "60/hour"


def allowed(throttle: SimpleRateThrottle, request: Any) -> bool:
    """Count this request against ``throttle``; False when the address is over its rate."""
    # SimpleRateThrottle never reads the view, and these requests come from no API view.
    return bool(throttle.allow_request(request, None))  # type: ignore[arg-type]


class _AccountThrottle(SimpleRateThrottle):
    """Per signed-in account (these requests always have one)."""

    setting = ""
    fallback = ""

    def get_rate(self) -> str:
        return str(getattr(settings, self.setting, self.fallback))

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}


class ExportThrottle(_AccountThrottle):
    """Downloads of a person's whole archive (each reads all their games)."""

    scope = "account_export"
    setting = "ACCOUNTS_EXPORT_RATE"
    fallback = "10/hour"


class DeleteThrottle(_AccountThrottle):
    """Attempts to delete an account (each checks a password)."""

    scope = "account_delete"
    setting = "ACCOUNTS_DELETE_RATE"
    fallback = "5/hour"
