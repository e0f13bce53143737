"""Typed engine errors with stable codes.

Codes are identifiers that clients and tests rely on; messages are for people and never
name a card that the actor could not see.

>>> e = NotYourTurn("It is seat 2's turn.")
>>> e.code, e.as_dict()["message"]
('not_your_turn', "It is seat 2's turn.")
"""

from __future__ import annotations

from typing import Any


class EngineError(Exception):
    """Base of every engine error: ``code``, ``message`` and ``extra`` (no transport detail:
    the web layer maps codes to HTTP statuses)."""

    code: str = "engine_error"

    def __init__(self, message: str, extra: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.extra: dict[str, Any] = dict(extra) if extra else {}

    def as_dict(self) -> dict[str, Any]:
        """The project's one error shape."""
        return {"code": self.code, "message": self.message, "extra": self.extra}


class CardParseError(EngineError, ValueError):
    code = "bad_card"


class ActionParseError(EngineError, ValueError):
    code = "bad_action"


class BadSeed(EngineError, ValueError):
    code = "bad_seed"


class NotYourTurn(EngineError):
    code = "not_your_turn"


class GameOver(EngineError):
    code = "game_over"


class WrongPhase(EngineError):
    code = "wrong_phase"


class IllegalMove(EngineError):
    """Base of the errors for a move that the rules forbid."""

    code = "illegal_move"


class IllegalBid(IllegalMove):
    code = "illegal_bid"


class IllegalCard(IllegalMove):
    code = "illegal_card"


class MustFollowSuit(IllegalMove):
    code = "must_follow_suit"


class TrumpNotBroken(IllegalMove):
    code = "trump_not_broken"


class MustPlayHighestTrump(IllegalMove):
    code = "must_play_highest_trump"


class MustPlayLowestTrump(IllegalMove):
    code = "must_play_lowest_trump"


class BadRecord(EngineError, ValueError):
    """A record that cannot be read at all (not the validator's rule findings)."""

    code = "bad_record"


class BadSchedule(EngineError, ValueError):
    """A run of deals that is not one (docs/rules.md §2: deals 1 to 25)."""

    code = "bad_schedule"


class ClaimNotAllowed(EngineError):
    """No claim now: not between tricks of a deal in play, one is pending, or the same team
    claimed already since the last trick."""

    code = "claim_not_allowed"


class ClaimRefused(ClaimNotAllowed):
    """This side's claim was refused (or lapsed) since the last trick: play one first."""

    code = "claim_refused"


class ClaimPending(EngineError):
    """A claim waits for the opponents' answers: play goes on once it is answered."""

    code = "claim_pending"


class NoClaimPending(EngineError):
    """There is no claim for this seat to answer."""

    code = "no_claim_pending"
