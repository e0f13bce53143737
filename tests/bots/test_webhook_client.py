"""The webhook client connects to the address it checked, and refuses what it must."""

from __future__ import annotations

import socket

import pytest

from bots import netguard, webhook


def test_the_call_goes_to_the_checked_address_with_the_original_host(
    hook_server, allow_loopback, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    port = hook_server.server.server_address[1]
    real = socket.getaddrinfo

    def fake(host, *args, **kwargs):  # type: ignore[no-untyped-def]
        if host == "bots.example.test":  # a name no resolver knows: only the check resolves it
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port))]
        return real(host, *args, **kwargs)

    monkeypatch.setattr(netguard.socket, "getaddrinfo", fake)
    webhook.ping(f"http://bots.example.test:{port}/hook", "s3cret", timeout_s=5)
    (request,) = hook_server.requests
    assert request["host"] == f"bots.example.test:{port}"


def test_a_url_re_pointed_at_a_private_address_is_refused_at_call_time(settings) -> None:  # type: ignore[no-untyped-def]
    settings.BOTS_ALLOW_PRIVATE_WEBHOOKS = False
    with pytest.raises(webhook.WebhookFault) as info:
        webhook.post_signed("https://127.0.0.1:9/hook", ["s"], {"type": "turn"}, timeout_s=1)
    assert info.value.kind == "refused_url"


def test_the_url_is_posted_exactly_as_registered(hook_server, allow_loopback) -> None:  # type: ignore[no-untyped-def]
    url = hook_server.url.replace("/hook", "") + "?x=/a&token=t%2Fk"
    webhook.post_signed(url, ["s"], {"type": "turn", "legal_actions": ["AS"]}, timeout_s=2)
    webhook.post_signed(
        hook_server.url + "/deep/path?q=1",
        ["s"],
        {"type": "turn", "legal_actions": ["AS"]},
        timeout_s=2,
    )
    assert [r["path"] for r in hook_server.requests] == [
        "/?x=/a&token=t%2Fk",
        "/hook/deep/path?q=1",
    ]


def test_redirects_are_not_followed(hook_server, allow_loopback) -> None:  # type: ignore[no-untyped-def]
    hook_server.behaviour = lambda p: (302, b"", 0.0)
    with pytest.raises(webhook.WebhookFault) as info:
        webhook.post_signed(hook_server.url, ["s"], {"type": "turn"}, timeout_s=2)
    assert info.value.kind == "http_status"


def test_an_oversized_answer_is_malformed(hook_server, allow_loopback) -> None:  # type: ignore[no-untyped-def]
    hook_server.behaviour = lambda p: (200, b'{"action": "' + b"x" * 40000 + b'"}', 0.0)
    with pytest.raises(webhook.WebhookFault) as info:
        webhook.post_signed(hook_server.url, ["s"], {"type": "turn"}, timeout_s=2)
    assert info.value.kind == "malformed"


@pytest.mark.parametrize(
    "answer, kind",
    [
        ({"action": "AS"}, None),
        ({"action": {"card": "AS"}}, None),
        ({"action": "ZZ"}, "malformed"),
        ({"action": 5}, "malformed"),
        ({"action": "KH"}, "illegal"),
        ({}, "malformed"),
    ],
)
def test_answers_are_read_strictly(answer, kind) -> None:  # type: ignore[no-untyped-def]
    from backalley_engine.actions import parse_action

    legal = [parse_action("AS"), parse_action("2S")]
    if kind is None:
        assert webhook.parse_answer(answer, legal) == parse_action("AS")
    else:
        with pytest.raises(webhook.WebhookFault) as info:
            webhook.parse_answer(answer, legal)
        assert info.value.kind == kind
