"""The push app's refusals (codes are stable; messages are for people)."""

from __future__ import annotations

from backalley_site.errors import ConflictError, DomainError


class PushDisabled(ConflictError):
    code = "push_disabled"


class BadSubscription(DomainError):
    code = "bad_subscription"
    http_status = 400


class TooManySubscriptions(ConflictError):
    code = "too_many_subscriptions"
