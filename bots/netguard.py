"""Outbound URL checks: a webhook may not reach private, loopback or link-local addresses,
nor any special-purpose IPv6 form that embeds or translates to another address.

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
from django.utils.translation import gettext as _

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


# Special-purpose IPv6 ranges that carry or reach another address: a transition form can
# smuggle a loopback or private IPv4 address past a check that looks only at the outer form.
_REFUSED_V6 = tuple(
    ipaddress.IPv6Network(net)
    for net in (
        "::/96",  # IPv4-compatible (deprecated)
        "::ffff:0:0/96",  # IPv4-mapped
        "::ffff:0:0:0/96",  # IPv4-translated (SIIT)
        "64:ff9b::/96",  # NAT64, well-known prefix
        "64:ff9b:1::/48",  # NAT64, local-use prefix
        "100::/64",  # discard-only
        "2001::/32",  # Teredo
        "2001:db8::/32",  # documentation
        "2002::/16",  # 6to4
        "3fff::/20",  # documentation
        "5f00::/16",  # segment routing (SRv6) SIDs
        "fc00::/7",  # unique-local
        "fe80::/10",  # link-local
        "fec0::/10",  # site-local (deprecated)
        "ff00::/8",  # multicast
    )
)

# IPv4 special-purpose ranges, listed here rather than trusting each Python version's tables.
_REFUSED_V4 = tuple(
    ipaddress.IPv4Network(net)
    for net in (
        "0.0.0.0/8",
        "100.64.0.0/10",  # shared address space (carrier-grade NAT)
        "192.0.0.0/24",  # IETF protocol assignments
        "192.0.2.0/24",  # documentation
        "192.88.99.0/24",  # 6to4 relay anycast (deprecated)
        "198.18.0.0/15",  # benchmarking
        "198.51.100.0/24",  # documentation
        "203.0.113.0/24",  # documentation
        "240.0.0.0/4",  # reserved, and the broadcast address
    )
)

# One message for every address-side refusal: it must not tell a caller how our resolver
# answered (no such name, or a private address), which would make it a probe of our network.
REFUSED_MESSAGE = (
    "This webhook URL cannot be used: its host must resolve to public internet addresses only."
)


def _refused(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(ip, ipaddress.IPv6Address):
        if any(ip in net for net in _REFUSED_V6):
            return True
        for embedded in (ip.ipv4_mapped, ip.sixtofour, *(ip.teredo or ())):
            if embedded is not None and _refused(embedded):
                return True
    elif any(ip in net for net in _REFUSED_V4):
        return True
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
    except (socket.gaierror, UnicodeError, OSError) as exc:
        raise WebhookUrlError(message=REFUSED_MESSAGE, extra={}) from exc
    # IPv4 first: the call connects to the first address, and IPv6 reachability varies.
    return sorted({str(info[4][0]) for info in infos}, key=lambda a: (":" in a, a))


def check_url(url: str, *, allow_private: bool | None = None) -> CheckedUrl:
    """Parse ``url``, resolve its host and refuse it if any address is not public.

    Without the operator's ``BOTS_ALLOW_PRIVATE_WEBHOOKS``, only ``https://`` is accepted:
    a turn carries the bot's hand, which must not cross the internet in clear text.
    """
    if allow_private is None:
        allow_private = bool(getattr(settings, "BOTS_ALLOW_PRIVATE_WEBHOOKS", False))
    try:
        parts = urlsplit(url or "")
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as exc:
        raise WebhookUrlError(message=_("The URL's port is not valid."), extra={}) from exc
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise WebhookUrlError(
            message=_("A webhook URL is an absolute https:// URL."), extra={"url": url}
        )
    if parts.scheme != "https" and not allow_private:
        raise WebhookUrlError(
            message=_("A webhook URL must use https://: turns carry a bot's hand."), extra={}
        )
    if parts.username or parts.password:
        raise WebhookUrlError(message=_("A webhook URL may not carry credentials."), extra={})
    host = parts.hostname
    addresses = resolve(host, port)
    if not addresses:
        raise WebhookUrlError(message=REFUSED_MESSAGE, extra={})
    if not allow_private:
        for text in addresses:
            if _refused(ipaddress.ip_address(text.split("%", 1)[0])):
                raise WebhookUrlError(message=REFUSED_MESSAGE, extra={})
    return CheckedUrl(
        url=url, scheme=parts.scheme, host=host, port=port, addresses=tuple(addresses)
    )
