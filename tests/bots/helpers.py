"""Test helpers for bots: a webhook bot server on loopback, and games with bots seated."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from accounts.models import Player
from bots import signing
from bots.models import Bot, BotKind
from games.models import Game
from games.services import game_create
from tests.factories import PlayerFactory, UserFactory

# A behaviour gets the decoded request and returns (status, body, delay in seconds). The body
# is bytes, or a function that writes the whole raw HTTP answer itself (status line included).
RawAnswer = Callable[[BaseHTTPRequestHandler], None]
Behaviour = Callable[[dict[str, Any]], tuple[int, "bytes | RawAnswer", float]]


def first_legal(payload: dict[str, Any]) -> tuple[int, bytes, float]:
    return 200, json.dumps({"action": payload["legal_actions"][0]}).encode(), 0.0


@dataclass
class WebhookServer:
    """A webhook bot on 127.0.0.1 that checks signatures and answers as ``behaviour`` says."""

    behaviour: Behaviour = first_legal
    secret: str | None = None  # set after registration; pings are answered before that
    requests: list[dict[str, Any]] = field(default_factory=list)
    bad_signatures: int = 0
    server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def start(self) -> WebhookServer:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                ts = self.headers.get(signing.TIMESTAMP_HEADER)
                sig = self.headers.get(signing.SIGNATURE_HEADER)
                delivery = self.headers.get(signing.DELIVERY_HEADER)
                signed = {
                    signing.TIMESTAMP_HEADER: ts,
                    signing.SIGNATURE_HEADER: sig,
                    signing.DELIVERY_HEADER: delivery,
                }
                if owner.secret is not None and not signing.verify(owner.secret, signed, body):
                    owner.bad_signatures += 1
                    self._send(401, b'{"error":"bad signature"}')
                    return
                payload = json.loads(body)
                owner.requests.append(
                    {
                        "payload": payload,
                        "timestamp": ts,
                        "signature": sig,
                        "delivery": delivery,
                        "headers": signed,
                        "path": self.path,
                        "host": self.headers.get("Host"),
                    }
                )
                if payload.get("type") == "ping":
                    self._send(200, json.dumps({"challenge": payload["challenge"]}).encode())
                    return
                status, answer, delay = owner.behaviour(payload)
                if delay:
                    time.sleep(delay)
                if callable(answer):
                    # The caller may stop reading (a size or deadline test).
                    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                        answer(self)
                    self.close_connection = True
                    return
                self._send(status, answer)

            def _send(self, status: int, answer: bytes) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(answer)))
                    self.end_headers()
                    self.wfile.write(answer)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the caller gave up (a timeout test)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()

    @property
    def turns(self) -> list[dict[str, Any]]:
        return [r["payload"] for r in self.requests if r["payload"].get("type") == "turn"]


def hosted_bot(name: str, strategy: str = "random", owner: Any = None) -> Bot:
    owner = owner or UserFactory()
    player = Player.objects.create(name=name, is_bot=True, owner=owner)
    return Bot.objects.create(player=player, kind=BotKind.HOSTED, strategy=strategy, params={})


def webhook_bot(name: str, url: str, owner: Any = None) -> tuple[Bot, str]:
    """A webhook bot row made directly (registration is tested through the API)."""
    from django.conf import settings

    owner = owner or UserFactory()
    player = Player.objects.create(name=name, is_bot=True, owner=owner)
    nonce = signing.new_nonce()
    bot = Bot.objects.create(
        player=player, kind=BotKind.WEBHOOK, webhook_url=url, secret_nonce=nonce
    )
    return bot, signing.derive_secret(settings.BOTS_WEBHOOK_KEY, nonce)


def game_with(players: list[Player], **options: Any) -> Game:
    """A started game with ``players`` in seats 0..3 (created by a person); rated unless
    ``rated=False`` is given."""
    creator = next((p for p in players if not p.is_bot), None) or PlayerFactory()
    return game_create(creator=creator, seats=players, options=options)
