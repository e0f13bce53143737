"""The game's fixed numbers and names, in one place (docs/rules.md §2, §4; docs/record-format.md).

Card-level constants (suits, ranks, the jokers, masks) live in ``cards``; action numbers in
``actions``; these are the game's.
"""

from __future__ import annotations

from typing import Final

NUM_SEATS: Final = 4
NUM_DEALS: Final = 25  # scored deals in a game (docs/rules.md §2)
MAX_ATTEMPTS: Final = 4  # house rule: the 4th consecutive all-pass at one number passes it out (§4)
MAX_DEALS: Final = NUM_DEALS * MAX_ATTEMPTS  # deals dealt at most, voided ones included
MAX_MOVES: Final = MAX_DEALS * 4 + 4 * (2 * sum(range(2, 14)) + 1)  # bids plus cards, at most

# A deal's phases, then "finished" for the game once its last deal is scored.
BIDDING: Final = "bidding"
PLAYING: Final = "playing"
DONE: Final = "done"
FINISHED: Final = "finished"

# How a deal ended (docs/record-format.md).
PLAYED: Final = "played"
VOIDED: Final = "voided"
PASSED_OUT: Final = "passed_out"
IN_PROGRESS: Final = "in_progress"
DEAL_STATUSES: Final = (PLAYED, VOIDED, PASSED_OUT, IN_PROGRESS)

RECORD_FORMAT: Final = "backalley-record"
RECORD_VERSION: Final = 2  # what writers write; readers accept these:
RECORD_VERSIONS: Final = (1, 2)  # 2 adds a deal's "claim" (docs/record-format.md)


def team_of(seat: int) -> int:
    """The team of a seat: team 0 is seats 0 and 2, team 1 seats 1 and 3 (docs/rules.md §1).

    >>> [team_of(s) for s in range(4)], partner_of(1)
    ([0, 1, 0, 1], 3)
    """
    return seat & 1


def partner_of(seat: int) -> int:
    """The seat opposite ``seat``: its partner (docs/rules.md §1)."""
    return seat ^ 2
