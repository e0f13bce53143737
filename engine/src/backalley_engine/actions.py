"""Actions as ints: 0..53 play that card, 54 pass, 54+k bid k (1..12), 67 board.

Text and JSON forms round-trip:

>>> action_str(parse_action("board")), action_str(bid_action(3)), action_str(parse_action("as"))
('board', '3', 'AS')
>>> action_to_json(PASS), action_from_json({"bid": 3}) == bid_action(3)
({'bid': 'pass'}, True)
"""

from __future__ import annotations

from typing import Any, Final

from backalley_engine.cards import NUM_CARDS, card_str, parse_card
from backalley_engine.errors import ActionParseError, CardParseError

PASS: Final = 54
BOARD: Final = 67
MAX_BID: Final = 12
NUM_ACTIONS: Final = 68


def bid_action(k: int) -> int:
    """The action of a numeric bid of k tricks (1..12)."""
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_BID:
        raise ActionParseError(f"A numeric bid is 1 to {MAX_BID} tricks.", {"bid": repr(k)})
    return PASS + k


def _check(action: int) -> None:
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        raise ActionParseError(f"Not an action: {action!r}.", {"action": repr(action)})


def action_str(action: int) -> str:
    """Text of an action: ``"pass"``, ``"board"``, ``"3"`` or a card such as ``"AS"``."""
    _check(action)
    if action < NUM_CARDS:
        return card_str(action)
    if action == PASS:
        return "pass"
    if action == BOARD:
        return "board"
    return str(action - PASS)


def bid_json(action: int) -> str | int:
    """A bid as it appears in JSON: ``"pass"``, ``"board"`` or the number."""
    if action == PASS:
        return "pass"
    if action == BOARD:
        return "board"
    return action - PASS


def parse_bid(value: object) -> int:
    """A bid from its JSON form (``"pass"``, ``"board"``, an int or a numeric string)."""
    if isinstance(value, bool):
        raise ActionParseError("A bid is 'pass', 'board' or a number of tricks.", {})
    if isinstance(value, int):
        return bid_action(value)
    if isinstance(value, str):
        key = value.strip().lower()
        if key == "pass":
            return PASS
        if key == "board":
            return BOARD
        if key.isdigit() and len(key) <= 2:
            return bid_action(int(key))
    shown = repr(value)[:20]
    raise ActionParseError(
        f"{shown} is not a bid: bid 'pass', 'board' or a number of tricks.", {"bid": shown}
    )


def parse_action(text: str) -> int:
    """An action from text: a bid (``pass``, ``board``, ``3``) or a card (``AS``, ``10d``)."""
    if not isinstance(text, str):
        raise ActionParseError("An action must be given as text.", {})
    key = text.strip().lower()
    if key in ("pass", "board") or (key.isdigit() and len(key) <= 2):
        return parse_bid(key)
    try:
        return parse_card(text)
    except CardParseError as e:
        raise ActionParseError(
            "Not an action: bid 'pass', 'board' or a number, or play a card such as 'TD'.",
            e.extra,
        ) from None


def action_to_json(action: int) -> dict[str, Any]:
    """``{"bid": "pass"|"board"|k}`` or ``{"card": "AS"}``."""
    _check(action)
    if action < NUM_CARDS:
        return {"card": card_str(action)}
    return {"bid": bid_json(action)}


def action_from_json(obj: object) -> int:
    """Inverse of :func:`action_to_json`; raises ``ActionParseError`` on malformed input."""
    if not isinstance(obj, dict) or len(obj) != 1:
        raise ActionParseError('An action is {"bid": "pass"|"board"|n} or {"card": "AS"}.', {})
    if "bid" in obj:
        return parse_bid(obj["bid"])
    if "card" in obj:
        try:
            return parse_card(obj["card"])
        except CardParseError as e:
            raise ActionParseError(e.message, e.extra) from None
    raise ActionParseError('An action is {"bid": "pass"|"board"|n} or {"card": "AS"}.', {})
