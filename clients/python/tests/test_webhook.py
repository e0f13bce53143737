"""The webhook server: signatures, replays, the registration ping, the deadline."""

import json
import threading
import time

import httpx

import backalley_engine as ba
from backalley_bot import Bot
from backalley_bot.webhook import SeenDeliveries, serve, signature_ok
from backalley_engine.views import game_view
from tests_helpers import signed


class First(Bot):
    def choose(self, observation):  # type: ignore[no-untyped-def]
        return observation.legal[-1]


class Slow(Bot):
    def choose(self, observation):  # type: ignore[no-untyped-def]
        time.sleep(2)
        return observation.legal[-1]


def test_a_signature_is_checked_over_timestamp_delivery_and_body() -> None:
    body, now = b'{"type":"turn"}', int(time.time())
    good = signed(["sec"], body, now=now)
    assert signature_ok("sec", good, body)
    assert not signature_ok("other", good, body)
    assert not signature_ok("sec", good, body + b" ")
    assert not signature_ok("sec", {**good, "X-BackAlley-Delivery": "another"}, body)
    assert not signature_ok("sec", signed(["sec"], body, now=now - 3600), body)  # stale
    assert signature_ok("sec", signed(["new", "sec"], body, now=now), body)  # rotating
    assert signature_ok(["new", "sec"], signed(["sec"], body, now=now), body)
    assert not signature_ok("", good, body)


def test_a_delivery_is_accepted_once() -> None:
    seen = SeenDeliveries()
    assert seen.first_time("d1", 100.0)
    assert not seen.first_time("d1", 101.0)


def _turn(deadline_ms: int = 3000) -> bytes:
    g = ba.GameState.new("00" * 32)
    view = game_view(g, 0)
    msg = {"type": "turn", "game": "g_x", "seat": 0, "seq": 0, "view": view,
           "legal_actions": view["legal_actions"], "deadline_ms": deadline_ms}  # fmt: skip
    return json.dumps(msg).encode()


def _server(bot: Bot, secret: str = "sec"):  # type: ignore[no-untyped-def]
    server = serve(bot, port=0, secret=secret)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def test_turns_are_answered_and_replays_and_forgeries_refused() -> None:
    server = _server(First())
    try:
        body = _turn()
        headers = signed(["sec"], body)
        r = httpx.post(server.url, content=body, headers=headers)
        assert r.status_code == 200 and r.json() == {"action": "board"}
        assert httpx.post(server.url, content=body, headers=headers).status_code == 409
        forged = signed(["other"], body)
        assert httpx.post(server.url, content=body, headers=forged).status_code == 401
        ping = json.dumps({"type": "ping", "challenge": "c1"}).encode()
        r = httpx.post(server.url, content=ping, headers=signed(["sec"], ping))
        assert r.json() == {"challenge": "c1"}
    finally:
        server.shutdown()
        server.server_close()


def test_before_it_has_a_secret_it_answers_the_ping_only() -> None:
    server = _server(First(), secret="")
    try:
        ping = json.dumps({"type": "ping", "challenge": "c2"}).encode()
        assert httpx.post(server.url, content=ping).json() == {"challenge": "c2"}
        body = _turn()
        assert httpx.post(server.url, content=body, headers=signed(["x"], body)).status_code == 401
        server.set_secret("x")
        assert httpx.post(server.url, content=body, headers=signed(["x"], body)).status_code == 200
    finally:
        server.shutdown()
        server.server_close()


def test_a_slow_choice_gives_way_to_the_fallback_within_the_deadline() -> None:
    server = _server(Slow())
    try:
        body = _turn(deadline_ms=800)
        start = time.monotonic()
        r = httpx.post(server.url, content=body, headers=signed(["sec"], body))
        took = time.monotonic() - start
        assert r.json() == {"action": "pass"}  # the fallback: the first legal action
        assert took < 0.8
        assert server.late == 1
    finally:
        server.shutdown()
        server.server_close()
