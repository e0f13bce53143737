"""The game's fixed numbers and names, in one place (docs/rules.md §2, §4; docs/record-format.md).

Card-level constants (suits, ranks, the jokers, masks) live in ``cards``; action numbers in
``actions``; these are the game's.
"""

from __future__ import annotations

NUM_SEATS = 4
NUM_DEALS = 25  # scored deals in a game (docs/rules.md §2)
MAX_ATTEMPTS = 4  # house rule: the 4th consecutive all-pass at one number passes it out (§4)
MAX_DEALS = NUM_DEALS * MAX_ATTEMPTS  # deals dealt at most, voided ones included
MAX_MOVES = MAX_DEALS * 4 + 4 * (2 * sum(range(2, 14)) + 1)  # bids plus cards, at most

# A deal's phases, then "finished" for the game once its last deal is scored.
BIDDING = "bidding"
PLAYING = "playing"
DONE = "done"
FINISHED = "finished"

# How a deal ended (docs/record-format.md).
PLAYED = "played"
VOIDED = "voided"
PASSED_OUT = "passed_out"
IN_PROGRESS = "in_progress"
DEAL_STATUSES = (PLAYED, VOIDED, PASSED_OUT, IN_PROGRESS)

RECORD_FORMAT = "backalley-record"
RECORD_VERSION = 1
