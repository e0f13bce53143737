"""Actions as ints: 0..53 play that card, 54 pass, 54+k bid k (1..12), 67 board.

Claims (docs/rules.md §10) are actions too, so the move log replays them: ``claim_action(
seat, k)`` (68..123) claims k of the remaining tricks for the seat's team (k = 0 concedes),
``accept_action(seat)`` (124..127) and ``refuse_action(seat)`` (128..131) answer it, and
``LAPSE`` (132) records that the answer did not come in time. Any seat may make them, not
only the seat to act, so each carries its seat.

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
NUM_ACTIONS: Final = 68  # the turn's actions: cards and bids
CLAIM_BASE: Final = 68
ACCEPT_BASE: Final = 124
REFUSE_BASE: Final = 128
LAPSE: Final = 132
LAST_ACTION: Final = 132


def claim_action(seat: int, tricks: int) -> int:
    """The action of ``seat`` claiming ``tricks`` (0..13) of the remaining tricks."""
    if not 0 <= seat <= 3 or not 0 <= tricks <= 13:
        raise ActionParseError("A claim is a seat 0..3 and 0 to 13 tricks.", {})
    return CLAIM_BASE + seat * 14 + tricks


def accept_action(seat: int) -> int:
    return ACCEPT_BASE + seat


def refuse_action(seat: int) -> int:
    return REFUSE_BASE + seat


def claim_parts(action: int) -> tuple[str, int, int]:
    """("claim", seat, tricks), ("accept", seat, 0), ("refuse", seat, 0) or ("lapse", -1, 0).

    >>> claim_parts(claim_action(2, 3)), claim_parts(LAPSE)
    (('claim', 2, 3), ('lapse', -1, 0))
    """
    if CLAIM_BASE <= action < ACCEPT_BASE:
        return ("claim", (action - CLAIM_BASE) // 14, (action - CLAIM_BASE) % 14)
    if ACCEPT_BASE <= action < REFUSE_BASE:
        return ("accept", action - ACCEPT_BASE, 0)
    if REFUSE_BASE <= action < LAPSE:
        return ("refuse", action - REFUSE_BASE, 0)
    if action == LAPSE:
        return ("lapse", -1, 0)
    raise ActionParseError(f"Not a claim action: {action!r}.", {})


def bid_action(k: int) -> int:
    """The action of a numeric bid of k tricks (1..12)."""
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_BID:
        raise ActionParseError(f"A numeric bid is 1 to {MAX_BID} tricks.", {"bid": repr(k)})
    return PASS + k


def _check(action: int) -> None:
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action <= LAST_ACTION:
        raise ActionParseError(f"Not an action: {action!r}.", {"action": repr(action)})


def action_str(action: int) -> str:
    """Text of an action: ``"pass"``, ``"board"``, ``"3"`` or a card such as ``"AS"``."""
    _check(action)
    if action < NUM_CARDS:
        return card_str(action)
    if action >= NUM_ACTIONS:
        kind, seat, tricks = claim_parts(action)
        return (
            f"claim:{seat}:{tricks}" if kind == "claim" else kind if seat < 0 else f"{kind}:{seat}"
        )
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
    if action >= NUM_ACTIONS:
        kind, seat, tricks = claim_parts(action)
        if kind == "claim":
            return {"claim": tricks}
        return {"claim_answer": kind}
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
