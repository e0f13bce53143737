"""The engine's error messages, retold in the active language.

The engine is pure Python (no Django): its errors carry a stable ``code``, an English
``message`` and an ``extra`` of details. This module tells the same thing in the language
of the request (or of a page being drawn), from the code and the details, so a player
reads why a card may not be played, or why a move was refused, in their own language.
A message this module does not know is left as the engine wrote it.

>>> from django.utils import translation
>>> with translation.override("en"):
...     retell("must_follow_suit", "You must follow suit: you hold hearts.", {"led": "hearts"})
'You must follow suit: you hold hearts.'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from backalley_engine.errors import EngineError


def _led(extra: dict[str, Any]) -> str:
    """The suit that must be followed, in the words of "you hold …"."""
    return {
        "trumps": pgettext("you hold", "trumps"),
        "spades": pgettext("you hold", "spades"),
        "hearts": pgettext("you hold", "hearts"),
        "diamonds": pgettext("you hold", "diamonds"),
        "clubs": pgettext("you hold", "clubs"),
    }.get(str(extra.get("led")), str(extra.get("led")))


def _wrong_phase(message: str, extra: dict[str, Any]) -> str | None:
    if message == "The bidding is over: play a card.":
        return _("The bidding is over: play a card.")
    if message == "Bidding is not over yet: bid before playing a card.":
        return _("Bidding is not over yet: bid before playing a card.")
    if message == "This deal is over.":
        return _("This deal is over.")
    return None


def _illegal_bid(message: str, extra: dict[str, Any]) -> str | None:
    most = extra.get("max_number")
    if not isinstance(most, int):
        return None
    if most == 0:
        return _("On a 1-card deal a numeric bid is at most 0 (only pass or board are possible).")
    return ngettext(
        "On a %(cards)s-card deal a numeric bid is at most %(count)s.",
        "On a %(cards)s-card deal a numeric bid is at most %(count)s.",
        most,
    ) % {"cards": most + 1, "count": most}


def _not_your_turn(message: str, extra: dict[str, Any]) -> str | None:
    seat = extra.get("seat_to_act")
    if not isinstance(seat, int):
        return None
    return _("It is seat %(seat)s's turn.") % {"seat": seat}


def _fixed(text: str) -> Callable[[str, dict[str, Any]], str | None]:
    return lambda message, extra: text


def _parse(message: str, extra: dict[str, Any]) -> str | None:
    """The engine's messages for text that is not a card or an action (API clients)."""
    if message == "A bid is 'pass', 'board' or a number of tricks.":
        return _("A bid is 'pass', 'board' or a number of tricks.")
    if message == "An action must be given as text.":
        return _("An action must be given as text.")
    if message == 'An action is {"bid": "pass"|"board"|n} or {"card": "AS"}.':
        return _('An action is {"bid": "pass"|"board"|n} or {"card": "AS"}.')
    if message == "Not an action: bid 'pass', 'board' or a number, or play a card such as 'TD'.":
        return _("Not an action: bid 'pass', 'board' or a number, or play a card such as 'TD'.")
    if message == "A card must be written as text, e.g. 'TD' or 'BB'.":
        return _("A card must be written as text, e.g. 'TD' or 'BB'.")
    most = re.fullmatch(r"A numeric bid is 1 to (\d+) tricks\.", message)
    if most:
        return _("A numeric bid is 1 to %(most)s tricks.") % {"most": most.group(1)}
    if message.startswith("Not an action: ") and "action" in extra:
        return _("Not an action: %(action)s.") % {"action": extra["action"]}
    if message.endswith("is not a bid: bid 'pass', 'board' or a number of tricks.") and (
        "bid" in extra
    ):
        return _("%(bid)s is not a bid: bid 'pass', 'board' or a number of tricks.") % {
            "bid": extra["bid"]
        }
    if "is not a card: write rank then suit" in message and "text" in extra:
        return _(
            "'%(text)s' is not a card: write rank then suit (2-9, T, J, Q, K, A and S, H, "
            "D, C), e.g. 'TD', or 'BB'/'LB' for the Bloopers."
        ) % {"text": extra["text"]}
    if message.startswith("Not a card index: ") and "card" in extra:
        return _("Not a card index: %(card)s.") % {"card": extra["card"]}
    if message == "A seed is 64 lowercase hexadecimal digits.":
        return _("A seed is 64 lowercase hexadecimal digits.")
    return None


def _claim(message: str, extra: dict[str, Any]) -> str | None:
    """The engine's messages about claims (docs/rules.md §10)."""
    if message == "A claim is made between tricks, while the deal is played.":
        return _("A claim is made between tricks, while the deal is played.")
    if message == "A claim is already waiting for its answers.":
        return _("A claim is already waiting for its answers.")
    if isinstance(extra.get("remaining"), int):
        return _("Claim between 0 and %(remaining)s of the remaining tricks.") % {
            "remaining": extra["remaining"]
        }
    if message == "Your side's claim was refused: play a trick before claiming again.":
        return _("Your side's claim was refused: play a trick before claiming again.")
    if message.startswith("A claim waits for the opponents' answers"):
        return _("A claim waits for the opponents' answers: play goes on once it is answered.")
    if message in ("There is no claim to answer.", "There is no claim for this seat to answer."):
        return _("There is no claim for you to answer.")
    return None


_BY_CODE: dict[str, Callable[[str, dict[str, Any]], str | None]] = {
    "claim_not_allowed": _claim,
    "claim_refused": _claim,
    "claim_pending": _claim,
    "no_claim_pending": _claim,
    "illegal_card": lambda m, e: _("You do not hold that card."),
    "trump_not_broken": lambda m, e: _(
        "You may not lead a trump until trump has been played in an earlier trick (unless "
        "you bid board or hold only trumps)."
    ),
    "must_play_highest_trump": lambda m, e: _("The Big Blooper was led: play your highest trump."),
    "must_play_lowest_trump": lambda m, e: _("The Little Blooper was led: play your lowest trump."),
    "must_follow_suit": lambda m, e: (
        _("You must follow suit: you hold %(suit)s.") % {"suit": _led(e)} if "led" in e else None
    ),
    "wrong_phase": _wrong_phase,
    "illegal_bid": _illegal_bid,
    "not_your_turn": _not_your_turn,
    "game_over": lambda m, e: _("The game is over.") if m == "The game is over." else None,
    "bad_action": _parse,
    "bad_card": _parse,
    "bad_seed": _parse,
}


def retell(code: str, message: str, extra: dict[str, Any] | None = None) -> str:
    """``message`` (an engine error's, with its ``code`` and ``extra``) in the active
    language; unchanged when this module does not know it."""
    tell = _BY_CODE.get(code)
    told = tell(message, dict(extra or {})) if tell is not None else None
    return told if told is not None else message


def error_message(exc: Exception) -> str:
    """The message of an error for people, in the active language: an engine error's
    retold; any other's (a domain error's, translated where it was raised) as it is."""
    if isinstance(exc, EngineError):
        return retell(exc.code, exc.message, exc.extra)
    return str(getattr(exc, "message", "") or exc)
