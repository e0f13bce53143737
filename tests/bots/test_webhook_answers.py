"""Whatever a webhook bot answers, its turn ends: with its legal move, or with a recorded fault
and the house move. Each answer comes from a real HTTP server on loopback."""

from __future__ import annotations

import json
import time
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest

from bots import services, turns
from bots.models import Bot, BotFault
from games.models import Game, Move
from tests.bots.helpers import game_with, hosted_bot, webhook_bot

pytestmark = pytest.mark.django_db

TIMEOUT_S = 1.5  # the allow_loopback fixture's turn deadline


@pytest.fixture
def table(hook_server, allow_loopback):  # type: ignore[no-untyped-def]
    bot, secret = webhook_bot("Hook-A", hook_server.url)
    hook_server.secret = secret
    game = game_with([bot.player, *(hosted_bot(f"House-{i}").player for i in range(3))])
    return game, bot


def play_webhook_turn(game: Game, bot: Bot) -> tuple[str, float]:
    """Play turns until the webhook seat has played once; its result and how long it took."""
    for _ in range(20):
        game.refresh_from_db()
        mine = game.seats.get(position=game.to_act).player_id == bot.player_id
        started = time.monotonic()
        result = turns.play_turn(game_id=game.pk, expected_seq=game.move_count)
        if mine:
            return result, time.monotonic() - started
    raise AssertionError("the webhook seat did not come up")


def _json(obj: Any) -> tuple[int, bytes, float]:
    return 200, json.dumps(obj).encode(), 0.0


def _bytes(raw: bytes) -> Any:
    return lambda p: (200, raw, 0.0)


def _ten_megabytes(handler: BaseHTTPRequestHandler) -> None:
    size = 10 * 1024 * 1024
    handler.wfile.write(
        f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {size}\r\n\r\n".encode()
    )
    handler.wfile.write(b'{"action": "')
    chunk = b"A" * 65536
    for _ in range(size // len(chunk)):
        handler.wfile.write(chunk)


def _drip_headers(handler: BaseHTTPRequestHandler) -> None:
    """Every byte arrives well within a read timeout, but the answer would take ~8 s."""
    handler.wfile.write(b"HTTP/1.1 200 OK\r\n")
    handler.wfile.flush()
    for i in range(40):
        handler.wfile.write(f"X-Pad-{i}: x\r\n".encode())
        handler.wfile.flush()
        time.sleep(0.2)
    handler.wfile.write(b'Content-Length: 16\r\n\r\n{"action":"AS"}\n')


def _drip_body(handler: BaseHTTPRequestHandler) -> None:
    handler.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n")
    for byte in b'{"action": "pass"' + b" " * 40 + b"}":
        handler.wfile.write(bytes([byte]))
        handler.wfile.flush()
        time.sleep(0.2)


def _illegal(p: dict[str, Any]) -> tuple[int, bytes, float]:
    legal = set(p["legal_actions"])
    wrong = next(a for a in ["pass", "board", "1", "2", "AS", "2C", "KH", "3D"] if a not in legal)
    return _json({"action": wrong})


ANSWERS: dict[str, tuple[Any, str]] = {
    "nul_in_card": (lambda p: _json({"action": {"card": "\u0000"}}), "malformed"),
    "nul_and_escapes_in_text": (lambda p: _json({"action": "A\u0000\u001b[2J\u202e"}), "malformed"),
    "lone_surrogate": (_bytes(b'{"action": {"card": "\\ud800"}}'), "malformed"),
    "invalid_utf8": (_bytes(b'{"action": "\xff\xfe\xc3"}'), "malformed"),
    "ten_megabytes": (lambda p: (200, _ten_megabytes, 0.0), "malformed"),
    "deep_json": (_bytes(b'{"action": ' + b"[" * 15000 + b"]" * 15000 + b"}"), "malformed"),
    "deep_json_unclosed": (_bytes(b"[" * 16000), "malformed"),
    "huge_number": (_bytes(b'{"action": {"bid": ' + b"9" * 5000 + b"}}"), "malformed"),
    "illegal_card": (_illegal, "illegal"),
    "redirect": (lambda p: (302, b"", 0.0), "http_status"),
    "gzip_claimed": (_bytes(b"\x1f\x8b\x08\x00garbage"), "malformed"),
    "slow_drip_headers": (lambda p: (200, _drip_headers, 0.0), "timeout"),
    "slow_drip_body": (lambda p: (200, _drip_body, 0.0), "timeout"),
}


@pytest.mark.parametrize("name", sorted(ANSWERS))
def test_every_answer_ends_the_turn_and_a_bad_one_is_a_recorded_fault(
    table, hook_server, name
) -> None:  # type: ignore[no-untyped-def]
    game, bot = table
    behaviour, kind = ANSWERS[name]
    hook_server.behaviour = behaviour
    before = game.move_count
    result, took = play_webhook_turn(game, bot)
    assert result == "substituted"
    # The whole exchange is bounded (a drip or a huge body cannot hold the turn).
    assert took < TIMEOUT_S + 2.0, took
    (fault,) = BotFault.objects.filter(bot=bot)
    assert fault.kind == kind
    assert "\x00" not in fault.detail and "\x1b" not in fault.detail
    assert len(fault.detail) <= 500
    game.refresh_from_db()
    assert game.status == "active" and game.move_count > before  # the game goes on
    assert Move.objects.filter(game=game, seat=0, submitted_by="system").count() == 1
    assert len(hook_server.turns) == 1  # a redirect was not followed


def test_a_redirect_to_a_good_answer_is_not_followed(table, hook_server) -> None:  # type: ignore[no-untyped-def]
    game, bot = table

    def redirect(handler: BaseHTTPRequestHandler) -> None:
        handler.wfile.write(
            f"HTTP/1.1 307 Temporary Redirect\r\nLocation: {hook_server.url}\r\n"
            "Content-Length: 0\r\n\r\n".encode()
        )

    hook_server.behaviour = lambda p: (307, redirect, 0.0)
    assert play_webhook_turn(game, bot)[0] == "substituted"
    assert len(hook_server.turns) == 1
    assert BotFault.objects.get(bot=bot).kind == "http_status"


def test_a_failure_while_recording_the_fault_still_ends_the_turn(
    table, hook_server, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    game, bot = table
    hook_server.behaviour = _illegal

    def broken(**kwargs: Any) -> None:
        raise RuntimeError("the fault log is unavailable")

    monkeypatch.setattr(services, "fault_record", broken)
    assert play_webhook_turn(game, bot)[0] == "substituted"
    assert BotFault.objects.count() == 0


def test_a_fault_detail_from_outside_is_stored_clean(table) -> None:  # type: ignore[no-untyped-def]
    game, bot = table
    fault = services.fault_record(
        bot_id=bot.pk, kind="illegal", detail="'\x00\ud800" + "x" * 900, game_id=game.pk, seq=0
    )
    assert fault is not None
    fault.refresh_from_db()
    assert fault.detail.startswith("'\ufffd\ufffd") and len(fault.detail) == 500


def test_a_good_answer_after_the_bad_ones_is_played(table, hook_server) -> None:  # type: ignore[no-untyped-def]
    game, bot = table
    hook_server.behaviour = lambda p: _json({"action": p["legal_actions"][0]})
    assert play_webhook_turn(game, bot)[0] == "played"
