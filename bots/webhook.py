"""Calling a webhook bot: a signed POST with a tight deadline, and a strict reading of the answer.

Every way an answer can fail becomes a :class:`WebhookFault` with a kind from
:class:`bots.models.FaultKind`; the caller then lets the house strategy play the move.
The request goes to an address that :func:`bots.netguard.check_url` has just checked, with
the original host in the ``Host`` header (and as the TLS server name), so a DNS answer that
changes between the check and the connection cannot steer the call to a private address.
"""

from __future__ import annotations

import asyncio
import functools
import json
import ssl
import time
from collections.abc import Coroutine, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import certifi
import httpx
from django.conf import settings
from django.utils.translation import gettext as _

from backalley_engine.actions import action_from_json, action_str, parse_action
from backalley_engine.errors import EngineError
from backalley_site.text import clean_text
from bots import netguard, signing
from bots.models import FaultKind

MAX_ANSWER_BYTES = 16 * 1024
USER_AGENT = "BackAlleyClub-Webhook/1"
_T = TypeVar("_T")


class WebhookFault(Exception):
    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(detail)
        self.kind = kind
        # Details quote what the bot answered: cleaned before they are logged or stored.
        self.detail = clean_text(detail, max_length=500)


@dataclass(frozen=True)
class WebhookReply:
    body: dict[str, Any]
    elapsed_s: float


def turn_timeout_s() -> float:
    return float(getattr(settings, "BOTS_WEBHOOK_TIMEOUT_S", 3.0))


# The registration ping is interactive and may pay for a cold start (DNS, TLS): more lenient.
PING_TIMEOUT_S = 5.0


def _pinned_request(checked: netguard.CheckedUrl) -> tuple[str, dict[str, str], dict[str, Any]]:
    """URL rewritten to the checked address, plus the Host header and TLS server name.

    Only the authority changes: the path and query string are sent exactly as registered.
    """
    parts = urlsplit(checked.url)
    address = checked.addresses[0]
    host_part = f"[{address}]" if ":" in address else address
    default_port = 443 if checked.scheme == "https" else 80
    netloc_host = checked.host if ":" not in checked.host else f"[{checked.host}]"
    host_header = netloc_host if checked.port == default_port else f"{netloc_host}:{checked.port}"
    target = urlunsplit(
        (checked.scheme, f"{host_part}:{checked.port}", parts.path or "/", parts.query, "")
    )
    extensions = {"sni_hostname": checked.host} if checked.scheme == "https" else {}
    return target, {"Host": host_header}, extensions


def post_signed(
    url: str, secrets: Sequence[str], payload: dict[str, Any], *, timeout_s: float
) -> WebhookReply:
    """POST ``payload`` signed; return the JSON object answered, or raise a WebhookFault.

    ``timeout_s`` bounds the whole exchange (connecting, sending, the headers and every byte
    of the answer), not each read: a server that drips its answer cannot hold the turn.
    The answer is read with a cap and never decompressed, so its size cannot exhaust memory.
    """
    try:
        checked = netguard.check_url(url)
    except netguard.WebhookUrlError as exc:
        raise WebhookFault(FaultKind.REFUSED_URL, exc.message) from exc
    body = json.dumps(payload, separators=(",", ":")).encode("utf-8")
    headers = signing.signed_headers(secrets, body)
    headers["User-Agent"] = USER_AGENT
    headers["Accept-Encoding"] = "identity"
    pinned_url, host_header, extensions = _pinned_request(checked)
    headers.update(host_header)
    started = time.monotonic()
    try:
        status, raw = _run_with_deadline(
            _exchange(pinned_url, headers, body, extensions, timeout_s), timeout_s
        )
    except (TimeoutError, httpx.TimeoutException) as exc:
        raise WebhookFault(
            FaultKind.TIMEOUT,
            _("No answer within %(timeout_s)s s.") % {"timeout_s": format(timeout_s, "g")},
        ) from exc
    except httpx.HTTPError as exc:
        raise WebhookFault(
            FaultKind.UNREACHABLE, _("%(name)s: %(exc)s") % {"name": type(exc).__name__, "exc": exc}
        ) from exc
    elapsed = time.monotonic() - started
    if not 200 <= status < 300:
        raise WebhookFault(
            FaultKind.HTTP_STATUS, _("Answered HTTP %(status)s.") % {"status": status}
        )
    return WebhookReply(body=read_answer(raw), elapsed_s=elapsed)


@functools.cache
def _tls_context() -> ssl.SSLContext:
    """Built once per process: loading the CA bundle costs tens of ms, not the bot's time."""
    return ssl.create_default_context(cafile=certifi.where())


async def _exchange(
    url: str, headers: dict[str, str], body: bytes, extensions: dict[str, Any], timeout_s: float
) -> tuple[int, bytes]:
    timeout = httpx.Timeout(timeout_s, connect=min(timeout_s, 1.0))
    async with (
        httpx.AsyncClient(
            timeout=timeout, follow_redirects=False, trust_env=False, verify=_tls_context()
        ) as client,
        client.stream("POST", url, content=body, headers=headers, extensions=extensions) as resp,
    ):
        raw = bytearray()
        # Raw bytes: a compressed answer is not inflated (it is then simply not JSON).
        async for chunk in resp.aiter_raw():
            raw += chunk
            if len(raw) > MAX_ANSWER_BYTES:
                raise WebhookFault(
                    FaultKind.MALFORMED,
                    _("The answer is larger than %(max_answer_bytes)s bytes.")
                    % {"max_answer_bytes": MAX_ANSWER_BYTES},
                )
        return resp.status_code, bytes(raw)


def _run_with_deadline(coro: Coroutine[Any, Any, _T], timeout_s: float) -> _T:
    """Run ``coro`` to completion or cancel it after ``timeout_s`` (``TimeoutError``).

    The web and worker code calling this is synchronous; should an event loop already run in
    this thread, the exchange gets a thread of its own rather than nesting loops.
    """

    async def bounded() -> _T:
        async with asyncio.timeout(timeout_s):
            return await coro

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(bounded())
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, bounded()).result()


def read_answer(raw: bytes) -> dict[str, Any]:
    """The JSON object in ``raw``; any other bytes (bad encoding, too deep) are a fault."""
    try:
        answer = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise WebhookFault(FaultKind.MALFORMED, _("The answer is not JSON (UTF-8).")) from exc
    if not isinstance(answer, dict):
        raise WebhookFault(FaultKind.MALFORMED, _("The answer is not a JSON object."))
    return answer


def parse_answer(answer: dict[str, Any], legal: Iterable[int]) -> int:
    """The action in ``{"action": "AS"}`` (or ``{"action": {"card": "AS"}}``), if legal."""
    if "action" not in answer:
        raise WebhookFault(FaultKind.MALFORMED, _('The answer has no "action".'))
    value = answer["action"]
    try:
        if isinstance(value, str):
            action = parse_action(value)
        elif isinstance(value, dict):
            action = action_from_json(value)
        else:
            raise WebhookFault(
                FaultKind.MALFORMED, _('The "action" is neither text nor an object.')
            )
    except (EngineError, TypeError, ValueError) as exc:
        reason = exc.message if isinstance(exc, EngineError) else "unreadable"
        raise WebhookFault(
            FaultKind.MALFORMED, _("Not an action: %(reason)s") % {"reason": reason}
        ) from exc
    legal_set = set(legal)
    if action not in legal_set:
        raise WebhookFault(
            FaultKind.ILLEGAL,
            # Only the bot's own answer is named: a fault log must not reveal a hand.
            _("%(value)s is not a legal action at this turn.")
            % {"value": repr(action_str(action))},
        )
    return action


def ping(url: str, secret: str, *, timeout_s: float | None = None) -> None:
    """The registration check: the bot must echo the challenge of a signed ping."""
    challenge = signing.new_nonce()
    reply = post_signed(
        url,
        [secret],
        {"type": "ping", "challenge": challenge},
        timeout_s=timeout_s if timeout_s is not None else max(PING_TIMEOUT_S, turn_timeout_s()),
    )
    if reply.body.get("challenge") != challenge:
        raise WebhookFault(FaultKind.MALFORMED, _("The ping answer did not echo the challenge."))
