"""Outbound webhook URLs: every resolved address must be public unless the operator allows."""

from __future__ import annotations

import socket

import pytest

from bots import netguard


def _resolves_to(monkeypatch: pytest.MonkeyPatch, *addresses: str) -> None:
    def fake(host: str, port: int, *args: object, **kwargs: object) -> list[tuple]:
        out = []
        for a in addresses:
            family = socket.AF_INET6 if ":" in a else socket.AF_INET
            out.append((family, socket.SOCK_STREAM, 6, "", (a, port)))
        return out

    monkeypatch.setattr(netguard.socket, "getaddrinfo", fake)


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/hook",
        "http://localhost/hook",
        "http://[::1]/hook",
        "http://10.1.2.3/hook",
        "http://192.168.0.10/hook",
        "http://172.16.5.5/hook",
        "http://169.254.169.254/latest/meta-data",
        "http://[fe80::1]/hook",
        "http://[::ffff:127.0.0.1]/hook",
        "http://0.0.0.0/hook",
        "http://100.64.0.1/hook",
    ],
)
def test_private_loopback_and_link_local_urls_are_refused(url: str) -> None:
    with pytest.raises(netguard.WebhookUrlError) as info:
        netguard.check_url(url.replace("http://", "https://"), allow_private=False)
    assert info.value.code == "bad_webhook_url"
    assert info.value.extra == {}


@pytest.mark.parametrize(
    "address",
    [
        "2002:7f00:1::",  # 6to4 around 127.0.0.1
        "2002:a00:1::1",  # 6to4 around 10.0.0.1
        "2002:808:808::1",  # 6to4 around a public address: the whole range is refused
        "2001:0:4136:e378:8000:63bf:80ff:fffe",  # Teredo (client 127.0.0.1)
        "2001::1",  # Teredo
        "64:ff9b::7f00:1",  # NAT64 around 127.0.0.1
        "64:ff9b::808:808",  # NAT64 around a public address
        "64:ff9b:1::a00:1",  # local-use NAT64
        "::ffff:127.0.0.1",  # IPv4-mapped
        "::ffff:8.8.8.8",  # IPv4-mapped public: still a translation form
        "::127.0.0.1",  # IPv4-compatible
        "fc00::1",  # unique-local
        "fd12:3456::1",  # unique-local
        "fe80::1",  # link-local
        "fec0::1",  # site-local
        "ff02::1",  # multicast
        "100::1",  # discard-only
        "2001:db8::1",  # documentation
        "::",
        "::1",
        "198.18.0.1",  # benchmarking
        "192.0.0.8",
        "240.0.0.1",
        "255.255.255.255",
    ],
)
def test_every_special_purpose_address_form_is_refused(
    monkeypatch: pytest.MonkeyPatch, address: str
) -> None:
    _resolves_to(monkeypatch, address)
    with pytest.raises(netguard.WebhookUrlError) as info:
        netguard.check_url("https://bots.example.com/hook", allow_private=False)
    assert info.value.message == netguard.REFUSED_MESSAGE


def test_plain_http_is_refused_unless_private_webhooks_are_allowed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _resolves_to(monkeypatch, "93.184.216.34")
    with pytest.raises(netguard.WebhookUrlError) as info:
        netguard.check_url("http://bots.example.com/hook", allow_private=False)
    assert "https" in info.value.message
    assert netguard.check_url("http://bots.example.com/hook", allow_private=True).scheme == "http"


def test_an_unknown_name_and_a_private_address_are_refused_alike(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(netguard.WebhookUrlError) as unknown:
        netguard.check_url("https://no-such-host.invalid/hook", allow_private=False)
    _resolves_to(monkeypatch, "10.0.0.7")
    with pytest.raises(netguard.WebhookUrlError) as private:
        netguard.check_url("https://bots.example.com/hook", allow_private=False)
    assert (unknown.value.code, unknown.value.message, unknown.value.extra) == (
        private.value.code,
        private.value.message,
        private.value.extra,
    )


def test_a_name_with_one_private_address_among_public_ones_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _resolves_to(monkeypatch, "93.184.216.34", "10.0.0.7")
    with pytest.raises(netguard.WebhookUrlError) as info:
        netguard.check_url("https://bots.example.com/hook", allow_private=False)
    assert "10.0.0.7" not in info.value.message


def test_a_public_name_is_accepted_and_its_addresses_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    _resolves_to(monkeypatch, "93.184.216.34")
    checked = netguard.check_url("https://bots.example.com:8443/hook", allow_private=False)
    assert checked.addresses == ("93.184.216.34",)
    assert (checked.host, checked.port, checked.scheme) == ("bots.example.com", 8443, "https")


def test_loopback_is_allowed_when_the_operator_setting_is_on(settings) -> None:  # type: ignore[no-untyped-def]
    settings.BOTS_ALLOW_PRIVATE_WEBHOOKS = True
    assert netguard.check_url("http://127.0.0.1:9/hook").addresses == ("127.0.0.1",)
    settings.BOTS_ALLOW_PRIVATE_WEBHOOKS = False
    with pytest.raises(netguard.WebhookUrlError):
        netguard.check_url("http://127.0.0.1:9/hook")


@pytest.mark.parametrize(
    "url", ["ftp://example.com/x", "not a url", "http:///nohost", "http://u:p@example.com/"]
)
def test_malformed_urls_are_refused(url: str) -> None:
    with pytest.raises(netguard.WebhookUrlError) as info:
        netguard.check_url(url, allow_private=True)
    assert info.value.code == "bad_webhook_url"


def test_unresolvable_host_is_refused() -> None:
    with pytest.raises(netguard.WebhookUrlError) as info:
        netguard.check_url("http://no-such-host.invalid/hook", allow_private=True)
    assert info.value.code == "bad_webhook_url"
