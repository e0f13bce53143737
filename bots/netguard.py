"""Outbound URL checks: a webhook may not reach private, loopback or link-local addresses.

The host is resolved and *every* address it resolves to is checked, so a name that maps to
both a public and a private address is refused. The call then connects to a checked address
(see :mod:`bots.webhook`), so the name cannot be re-pointed between the check and the call.
``BOTS_ALLOW_PRIVATE_WEBHOOKS`` (an operator setting) lifts the address rule, e.g. for tests
on loopback.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

from backalley_site.errors import DomainError


class WebhookUrlError(DomainError):
    code = "bad_webhook_url"
    http_status = 400


@dataclass(frozen=True)
class CheckedUrl:
    url: str
    scheme: str
    host: str
    port: int
    addresses: tuple[str, ...]


def _refused(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return _refused(ip.ipv4_mapped)
    return (
        ip.is_private
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
        or not ip.is_global
    )


def resolve(host: str, port: int) -> list[str]:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise WebhookUrlError(
            message=f"The host {host!r} does not resolve.", extra={"host": host}
        ) from exc
    # IPv4 first: the call connects to the first address, and IPv6 reachability varies.
    return sorted({str(info[4][0]) for info in infos}, key=lambda a: (":" in a, a))


def check_url(url: str, *, allow_private: bool | None = None) -> CheckedUrl:
    """Parse ``url``, resolve its host and refuse it if any address is not public."""
    if allow_private is None:
        allow_private = bool(getattr(settings, "BOTS_ALLOW_PRIVATE_WEBHOOKS", False))
    parts = urlsplit(url or "")
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise WebhookUrlError(
            message="A webhook URL is an absolute http:// or https:// URL.", extra={"url": url}
        )
    if parts.username or parts.password:
        raise WebhookUrlError(message="A webhook URL may not carry credentials.", extra={})
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as exc:
        raise WebhookUrlError(message="The URL's port is not valid.", extra={"url": url}) from exc
    host = parts.hostname
    addresses = resolve(host, port)
    if not addresses:
        raise WebhookUrlError(message=f"The host {host!r} does not resolve.", extra={"host": host})
    if not allow_private:
        for text in addresses:
            ip = ipaddress.ip_address(text.split("%", 1)[0])
            if _refused(ip):
                raise WebhookUrlError(
                    "private_webhook_url",
                    f"The host {host!r} resolves to {text}, a private, loopback or link-local "
                    "address; webhooks must be reachable on the public internet.",
                    extra={"host": host, "address": text},
                )
    return CheckedUrl(
        url=url, scheme=parts.scheme, host=host, port=port, addresses=tuple(addresses)
    )
