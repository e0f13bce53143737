"""A small Back Alley API bot: it plays its bot's seat in a game through the public API.

    python examples/api_bot.py --base https://club.example --token bac_... --bot MyBot --game g_abc

It follows the game's event stream (NDJSON, one event per line, pushed as each move
commits), asks for its legal actions whenever the game moved, and submits a move with
``expected_seq`` (the moves it has seen) and an ``Idempotency-Key`` derived from the game
and that seq, so a retried request after a network error can never play twice. When the
stream ends (its time limit, or the server restarting) it reconnects with ``since`` = the
last seq it handled, so no event is lost. Only the standard library is used.
"""

from __future__ import annotations

import argparse
import json
import random
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any


class Api:
    def __init__(self, base: str, token: str) -> None:
        self.base = base.rstrip("/") + "/api/v1"
        self.token = token

    def call(
        self, method: str, path: str, body: Any = None, key: str | None = None
    ) -> tuple[int, Any]:
        """One request, retried with backoff on network errors and 5xx (same key each time)."""
        headers = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}
        if key:
            headers["Idempotency-Key"] = key
        data = None if body is None else json.dumps(body).encode()
        for attempt in range(6):
            request = urllib.request.Request(self.base + path, data, headers, method=method)
            try:
                with urllib.request.urlopen(request, timeout=70) as response:
                    return response.status, json.loads(response.read() or b"null")
            except urllib.error.HTTPError as err:
                if err.code < 500:
                    return err.code, json.loads(err.read() or b"null")
            except (urllib.error.URLError, TimeoutError, ConnectionError):
                pass
            time.sleep(min(0.2 * 2**attempt, 5))
        raise RuntimeError(f"{method} {path} kept failing")

    def events(self, game: str, seat: int) -> Iterator[dict[str, Any]]:
        """Every event of ``game`` that ``seat`` may see, as it happens, until the game ends.

        One NDJSON stream, reopened from the last seq seen whenever it ends (its time limit,
        a server restart, a network error), so no event is lost or repeated."""
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/x-ndjson"}
        since, failures = -1, 0
        while True:
            url = f"{self.base}/games/{game}/events/stream/?seat={seat}&since={since}&timeout=600"
            try:
                request = urllib.request.Request(url, None, headers)
                with urllib.request.urlopen(request, timeout=60) as stream:
                    failures = 0
                    for line in stream:
                        if not line.strip():
                            continue  # a heartbeat (sent after 15 s of silence)
                        event = json.loads(line)
                        since = event["seq"]
                        yield event
                status, body = self.call("GET", f"/games/{game}/")
                if status == 200 and body["status"] in ("finished", "aborted"):
                    return
            except urllib.error.HTTPError as err:
                if err.code != 429 and err.code < 500:  # 429: too many open streams
                    raise RuntimeError(f"feed error: {err.read()!r}") from None
                failures += 1
            except (urllib.error.URLError, TimeoutError, ConnectionError):
                failures += 1
            if failures > 6:
                raise RuntimeError("the event stream kept failing")
            time.sleep(min(0.2 * 2**failures, 5) if failures else 0)


def choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A legal action. A real bot would look at the view (its hand, bids, the trick) here."""
    return rng.choice(legal)


def play(base: str, token: str, bot: str, game: str, seed: int = 0, max_moves: int = 10**6) -> int:
    """Play ``bot``'s seat in ``game`` until it ends (or ``max_moves``); returns its move count."""
    api, rng, made = Api(base, token), random.Random(seed), 0
    _, state = api.call("GET", f"/games/{game}/")
    seat = next(s["position"] for s in state["seats"] if s and s["player"].lower() == bot.lower())
    feed = api.events(game, seat)
    while True:
        status, legal = api.call("GET", f"/games/{game}/legal/?seat={seat}")
        if status == 200 and legal["actions"]:
            seq = legal["seq"]
            status, answer = api.call(
                "POST",
                f"/games/{game}/moves/",
                {"action": choose(legal["actions"], rng), "expected_seq": seq, "seat": seat},
                key=f"{bot}:{game}:{seq}",
            )
            if status == 201:
                made += 1
                if made >= max_moves:
                    return made
            elif answer and answer.get("code") not in ("stale_state", "not_your_turn"):
                raise RuntimeError(f"move refused: {answer}")
            continue  # a stale state just means: look again
        # Not our turn: follow the stream until something public happens at the table.
        for event in feed:
            if event["type"] == "game_end":
                return made
            if event.get("private_to") is None:
                break
        else:
            return made  # the stream ends only with the game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the club's address")
    parser.add_argument("--token", required=True, help="an API token for the bot (scope 'bot')")
    parser.add_argument("--bot", required=True, help="the bot's name")
    parser.add_argument("--game", required=True, help="the game's id (g_...)")
    args = parser.parse_args()
    print(f"{args.bot} made {play(args.base, args.token, args.bot, args.game)} moves")


if __name__ == "__main__":
    main()
