"""A bot's seat played through the API: the event stream, the legal actions, the moves.

:func:`play` reads the game as its seat sees it; on its turn it asks the bot and submits
the move with ``expected_seq`` and an ``Idempotency-Key`` derived from the game, the seat
and that seq (a retry never plays twice; a ``stale_state`` only means: look again); else it
follows the event stream (resumed with ``Last-Event-ID`` when it breaks) until the table
moves. A claim put to its seat is answered with :meth:`Bot.accept_claim`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from backalley_bot.bot import Bot, log
from backalley_bot.client import Client
from backalley_bot.errors import NotYourTurn, StaleState
from backalley_bot.observation import Observation
from backalley_bot.stream import END_EVENTS, OVER, Event


def seat_of(state: dict[str, Any], name: str | None) -> int:
    """The seat of the bot ``name`` in a game's state (``your_seat`` when not named)."""
    if name is None:
        seat = state.get("your_seat")
        if not isinstance(seat, int):
            raise ValueError("this token holds no seat in the game: name the bot")
        return seat
    for s in state["seats"]:
        if s and str(s.get("player", "")).lower() == name.lower():
            return int(s["position"])
    raise ValueError(f"{name} has no seat in game {state['id']}")


def play(
    bot: Bot,
    client: Client,
    game: str,
    *,
    name: str | None = None,
    seat: int | None = None,
    max_moves: int | None = None,
    stream_timeout: int = 600,
) -> int:
    """Play the seat (``seat``, or that of the bot ``name``, or the token's own) until the
    game ends or ``max_moves`` moves are made; returns the number of moves made.
    ``stream_timeout``: how long one stream stays open before it is reopened."""
    state = client.game(game)
    if seat is None:
        seat = seat_of(state, name)
    made = 0
    feed: Iterator[Event] | None = None
    while True:
        state = client.game(game, seat=seat)
        seen = int(state["seq"])
        if state["status"] in OVER:
            return made
        view = state.get("view")
        legal = list(view.get("legal_actions") or []) if view else []
        if view and legal and view.get("seat_to_act") == seat:
            obs = Observation.from_view(view, game=game, seat=seat, legal=legal, seq=seen)
            try:
                if any(":" in a for a in legal):
                    _answer_claim(bot, client, obs)
                else:
                    client.move(game, bot.decide(obs), expected_seq=seen, seat=seat)
                    made += 1
            except (StaleState, NotYourTurn):
                log.info("%s: the table moved before our move at seq %s", bot.name, seen)
            if max_moves is not None and made >= max_moves:
                return made
            continue
        if feed is None:
            feed = client.events(game, seat=seat, since=seen, timeout=stream_timeout)
        for event in feed:
            if event.get("type") in END_EVENTS:
                return made
            if int(event.get("seq", -1)) > seen:
                break
        else:
            return made  # the stream stops only with the game


def _answer_claim(bot: Bot, client: Client, obs: Observation) -> None:
    if bot.accept_claim(obs):
        client.claim_accept(obs.game, seat=obs.seat)
    else:
        client.claim_refuse(obs.game, seat=obs.seat)
