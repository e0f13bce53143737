"""The client's address, as every throttle and the login lockout see it.

``X-Forwarded-For`` is trusted only as far as the operator says (``NUM_PROXIES``, from
``DJANGO_NUM_PROXIES``): each proxy in front appends the address it saw, so the client is the
N-th address from the right. With 0 (the default) the header is ignored, so a client cannot
claim a new address per request. DRF's throttles read the same setting (``NUM_PROXIES``).
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str:
    remote = str(request.META.get("REMOTE_ADDR") or "")
    proxies = int(getattr(settings, "NUM_PROXIES", 0) or 0)
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    if proxies <= 0 or not forwarded:
        return remote
    hops = [part.strip() for part in str(forwarded).split(",") if part.strip()]
    return hops[-min(proxies, len(hops))] if hops else remote
