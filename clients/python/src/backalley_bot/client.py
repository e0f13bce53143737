"""The API client: every call a bot makes, over httpx, with the service's errors typed.

>>> client = Client("https://club.example", token="bac_...")
>>> client.api
'https://club.example/api/v1'

Writes that may be retried (a move, a premove, a claim) carry an ``Idempotency-Key``; a
network error or a 5xx is retried with backoff under the same key, so a retry never plays
twice. A refusal (4xx) is raised at once as the :mod:`backalley_bot.errors` class of its
code. The event stream is :meth:`Client.events` (:mod:`backalley_bot.stream`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import httpx

import backalley_engine as ba
from backalley_bot.errors import ApiError, TransportError, error_from
from backalley_bot.retry import backoff
from backalley_bot.stream import Event, EventStream

Action = str | Mapping[str, Any]

RETRIES = 5
TIMEOUT_S = 30.0


class Client:
    """One token's view of the club. ``http``: an ``httpx.Client`` to use instead of the
    client's own (tests pass one with a mock transport); ``sleep`` waits between retries."""

    def __init__(
        self,
        base_url: str,
        token: str,
        *,
        http: httpx.Client | None = None,
        timeout: float = TIMEOUT_S,
        retries: int = RETRIES,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.api = base_url.rstrip("/") + "/api/v1"
        self.token = token
        self.retries = retries
        self.sleep = sleep
        self.http = http or httpx.Client(timeout=timeout)
        self.http.headers["Authorization"] = f"Bearer {token}"

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- one request -------------------------------------------------------------------
    def request(
        self,
        method: str,
        path: str,
        *,
        json: Any = None,
        params: Mapping[str, Any] | None = None,
        key: str | None = None,
    ) -> Any:
        """The decoded answer of one call (retried on network errors and 5xx with the same
        ``key``); raises the typed :class:`ApiError` of a refusal."""
        headers = {"Idempotency-Key": key} if key else {}
        retry = method == "GET" or key is not None
        for attempt in range(self.retries + 1):
            try:
                r = self.http.request(
                    method, self.api + path, json=json, params=params, headers=headers
                )
            except httpx.TransportError as exc:
                if not retry or attempt == self.retries:
                    raise TransportError(f"{method} {path}: {exc}") from exc
            else:
                if r.status_code < 400:
                    return r.json() if r.content else None
                if r.status_code < 500 or not retry or attempt == self.retries:
                    raise error_from(r.status_code, _json_or_text(r), r.headers.get("Retry-After"))
            self.sleep(backoff(attempt))
        raise TransportError(f"{method} {path} kept failing")  # pragma: no cover

    # -- games -------------------------------------------------------------------------
    def game(self, game: str, *, seat: int | None = None) -> dict[str, Any]:
        """The game as ``seat`` sees it (``view`` is the engine's view of that seat)."""
        return dict(self.request("GET", f"/games/{game}/", params=_seat(seat)))

    def my_games(self) -> list[dict[str, Any]]:
        return _items(self.request("GET", "/games/mine/"))

    def create_game(
        self, seats: list[Mapping[str, Any] | None], options: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """A new game: ``seats`` like ``{"kind": "bot", "name": "house-heuristic"}``."""
        body = {"seats": seats, "options": dict(options or {})}
        return dict(self.request("POST", "/games/", json=body))

    def join(self, game: str, *, bot: str | None = None, position: int | None = None) -> Any:
        body: dict[str, Any] = {}
        if bot is not None:
            body["bot"] = bot
        if position is not None:
            body["position"] = position
        return self.request("POST", f"/games/{game}/seats/", json=body)

    def legal(self, game: str, *, seat: int | None = None) -> dict[str, Any]:
        """``{"seat", "seq", "to_act", "actions", "text"}``: empty unless it is the turn."""
        return dict(self.request("GET", f"/games/{game}/legal/", params=_seat(seat)))

    def move(
        self,
        game: str,
        action: Action,
        *,
        expected_seq: int,
        seat: int | None = None,
        key: str | None = None,
    ) -> dict[str, Any]:
        """Play ``action`` (text such as ``"AS"``, ``"pass"``, ``"3"``, or the JSON form
        ``{"card": "AS"}``, ``{"bid": 3}``).
        The key defaults to one derived from the game, the seat and ``expected_seq``."""
        body: dict[str, Any] = {"action": action_json(action), "expected_seq": expected_seq}
        if seat is not None:
            body["seat"] = seat
        key = key or f"move:{game}:{seat}:{expected_seq}"
        return dict(self.request("POST", f"/games/{game}/moves/", json=body, key=key))

    def record(self, game: str, *, seat: int | None = None) -> dict[str, Any]:
        return dict(self.request("GET", f"/games/{game}/record/", params=_seat(seat)))

    def poll(
        self, game: str, *, seat: int | None = None, since: int = -1, wait: int = 30
    ) -> dict[str, Any]:
        """A long poll: ``{"seq", "status", "events", "clock"}`` as soon as there is news."""
        params = {**_seat(seat), "since": since, "wait": wait}
        return dict(self.request("GET", f"/games/{game}/events/", params=params))

    def events(
        self, game: str, *, seat: int | None = None, since: int = -1, timeout: int = 600
    ) -> Iterator[Event]:
        """Every event ``seat`` may see from ``since`` on, until the game ends, reopened
        (``Last-Event-ID``, with backoff) whenever the stream breaks."""
        return iter(EventStream(self, game, seat=seat, since=since, timeout=timeout))

    # -- premoves and claims -----------------------------------------------------------
    def premove(self, game: str, action: Action, *, seat: int | None = None) -> Any:
        body = {"action": action_json(action), **_seat(seat)}
        return self.request("PUT", f"/games/{game}/premove/", json=body)

    def premove_get(self, game: str, *, seat: int | None = None) -> Any:
        return self.request("GET", f"/games/{game}/premove/", params=_seat(seat))

    def premove_cancel(self, game: str, *, seat: int | None = None) -> Any:
        return self.request("DELETE", f"/games/{game}/premove/", params=_seat(seat))

    def claim(self, game: str, tricks: int, *, seat: int | None = None) -> Any:
        return self.request("POST", f"/games/{game}/claim/", json={"tricks": tricks, **_seat(seat)})

    def claim_accept(self, game: str, *, seat: int | None = None) -> Any:
        return self.request("POST", f"/games/{game}/claim/accept/", json=_seat(seat))

    def claim_refuse(self, game: str, *, seat: int | None = None) -> Any:
        return self.request("POST", f"/games/{game}/claim/refuse/", json=_seat(seat))

    # -- bots and tokens ---------------------------------------------------------------
    def bots(self) -> list[dict[str, Any]]:
        return _items(self.request("GET", "/bots/"))

    def bot(self, name: str) -> dict[str, Any]:
        return dict(self.request("GET", f"/bots/{name}/"))

    def register_bot(self, name: str, kind: str, **fields: Any) -> dict[str, Any]:
        """Register a bot (``kind``: ``api``, ``webhook`` with ``webhook_url``, ``hosted``);
        a webhook bot's ``secret`` is in this answer only."""
        return dict(self.request("POST", "/bots/", json={"name": name, "kind": kind, **fields}))

    def update_bot(self, name: str, **fields: Any) -> dict[str, Any]:
        return dict(self.request("PATCH", f"/bots/{name}/", json=fields))

    def rotate_secret(self, name: str, *, keep_previous_hours: int | None = None) -> dict[str, Any]:
        body = {} if keep_previous_hours is None else {"keep_previous_hours": keep_previous_hours}
        return dict(self.request("POST", f"/bots/{name}/rotate-secret/", json=body))

    def faults(self, name: str) -> list[dict[str, Any]]:
        return _items(self.request("GET", f"/bots/{name}/faults/"))

    def strategies(self) -> Any:
        return self.request("GET", "/bots/strategies/")

    def create_token(
        self, name: str, *, scopes: list[str], bot: str | None = None
    ) -> dict[str, Any]:
        """A token (``{"token": ...}`` shown once); ``bot``: a token for that bot alone."""
        body: dict[str, Any] = {"name": name, "scopes": scopes}
        if bot is not None:
            body["bot"] = bot
        return dict(self.request("POST", "/tokens/", json=body))


def action_json(action: Action) -> Mapping[str, Any]:
    """The JSON form the service takes (``{"card": "AS"}``, ``{"bid": 3}``) of an action
    given as text; the JSON form is passed as it is.

    >>> action_json("10h"), action_json("pass"), action_json({"bid": 2})
    ({'card': 'TH'}, {'bid': 'pass'}, {'bid': 2})
    """
    if isinstance(action, str):
        return dict(ba.action_to_json(ba.parse_action(action.strip())))
    return action


def _seat(seat: int | None) -> dict[str, Any]:
    return {} if seat is None else {"seat": seat}


def _items(body: Any) -> list[dict[str, Any]]:
    """A list answer, paginated (``results``) or not."""
    if isinstance(body, Mapping) and "results" in body:
        return list(body["results"])
    return list(body or [])


def _json_or_text(r: httpx.Response) -> Any:
    try:
        return r.json()
    except ValueError:
        return r.text


__all__ = ["Action", "ApiError", "Client", "backoff"]
