"""The Back Alley rules engine: pure Python, no framework, no I/O, no clock, no global random.

A game is a :class:`GameState` made from a 64-hex-digit seed; actions are small ints with
a text form that round-trips; an illegal action raises a typed :class:`EngineError` (a
stable ``code``) and changes nothing:

>>> import backalley_engine as ba
>>> game = ba.GameState.new("00" * 32)
>>> game.deal_number, game.hand_size, game.phase, game.seat_to_act
(1, 13, 'bidding', 0)
>>> [ba.action_str(a) for a in game.legal_actions()][:4]
['pass', '1', '2', '3']
>>> game.apply(ba.parse_action("pass"), seat=0)
>>> try:
...     game.apply(ba.PASS, seat=3)
... except ba.NotYourTurn as e:
...     print(e.code)
not_your_turn

Cards are ints 0..53 and hands are bitmasks; the jokers are ``LB`` and ``BB``:

>>> ba.card_str(ba.parse_card("10h")), ba.parse_card("BB") == ba.BB
('TH', True)
>>> ba.parse_card("1H")
Traceback (most recent call last):
...
backalley_engine.errors.CardParseError: '1H' is not a card: write rank then suit ...

A finished game's record (docs/record-format.md) shows everything, the seed included, and
the validator checks it against the rules (``[]``: no error):

>>> while not game.is_terminal():
...     game.apply(game.legal_actions()[0])
>>> record = game.record("all")
>>> record["format"] == ba.RECORD_FORMAT, len(game.deals) >= ba.NUM_DEALS
(True, True)
>>> ba.validate_record(record)
[]
>>> ba.state_from_record(record).outcome == game.outcome
True

Modules (each name below is also importable from its module, e.g.
``backalley_engine.state.GameState``):

- ``cards``: cards as ints 0..53, hands as bitmasks, notation (``parse_card``, ``card_str``).
- ``actions``: action ints (cards, ``PASS``, ``bid_action(k)``, ``BOARD``) and their text and
  JSON forms.
- ``errors``: ``EngineError`` and its subclasses with stable codes.
- ``constants``: the fixed numbers (seats, deals, phases, the record format, ``team_of``,
  ``partner_of``).
- ``shuffle``: the seeded, verifiable deals of docs/rules.md §9.
- ``deal``: one deal's state machine (``DealState``, buildable from explicit hands for bots).
- ``game``: a game's fields and their reads (``GameCore``, the base of ``GameState``), its
  dealt deals (``DealInfo``) and its end (``Outcome``).
- ``state``: the whole 25-deal game (``GameState``), or a short one, and
  ``state_from_record``.
- ``schedule``: which deals a game plays (``Schedule``: all 25, or a run such as 6-10).
- ``views``, ``observation`` and ``events``: what a seat or a spectator may see, what a bot
  may know, and what an action caused.
- ``heuristic``: the service's house heuristic strategy (``heuristic_action(observation)``),
  for playing against it offline.
- ``checkpoint``: a state as versioned plain data, and back.
- ``records``, ``validate`` and ``validate_play``: game records (docs/record-format.md),
  their reading back and the validator (``validate_record``).
- ``cli``: ``python -m backalley_engine selfplay | validate | deal`` (the only module with I/O).
- ``native``: whether the hot modules run compiled (mypyc) or as pure Python; the sources are
  the same either way (``BACKALLEY_ENGINE=pure`` forces the sources).
"""

# The build (compiled or pure) is chosen before any hot module is imported.
from backalley_engine import native as _native

_native.select()

from backalley_engine.actions import (  # noqa: E402
    BOARD,
    MAX_BID,
    NUM_ACTIONS,
    PASS,
    action_from_json,
    action_str,
    action_to_json,
    bid_action,
    parse_action,
    parse_bid,
)
from backalley_engine.cards import (  # noqa: E402
    BB,
    LB,
    NUM_CARDS,
    RANKS,
    SUITS,
    card_mask,
    card_str,
    mask_to_cards,
    parse_card,
)
from backalley_engine.constants import (  # noqa: E402
    NUM_DEALS,
    NUM_SEATS,
    RECORD_FORMAT,
    RECORD_VERSION,
    partner_of,
    team_of,
)
from backalley_engine.deal import DealState  # noqa: E402
from backalley_engine.errors import (  # noqa: E402
    ActionParseError,
    BadRecord,
    BadSchedule,
    BadSeed,
    CardParseError,
    EngineError,
    GameOver,
    IllegalBid,
    IllegalCard,
    IllegalMove,
    MustFollowSuit,
    MustPlayHighestTrump,
    MustPlayLowestTrump,
    NotYourTurn,
    TrumpNotBroken,
    WrongPhase,
)
from backalley_engine.records import record_actions  # noqa: E402
from backalley_engine.schedule import WHOLE_GAME, Schedule  # noqa: E402
from backalley_engine.state import GameState, Outcome, state_from_record  # noqa: E402
from backalley_engine.validate import RecordError, validate_record  # noqa: E402

__version__ = "0.1.0"

__all__ = [
    "BB",
    "BOARD",
    "LB",
    "MAX_BID",
    "NUM_ACTIONS",
    "NUM_CARDS",
    "NUM_DEALS",
    "NUM_SEATS",
    "PASS",
    "RANKS",
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "SUITS",
    "ActionParseError",
    "BadRecord",
    "BadSchedule",
    "BadSeed",
    "CardParseError",
    "DealState",
    "EngineError",
    "GameOver",
    "GameState",
    "IllegalBid",
    "IllegalCard",
    "IllegalMove",
    "MustFollowSuit",
    "MustPlayHighestTrump",
    "MustPlayLowestTrump",
    "NotYourTurn",
    "Outcome",
    "RecordError",
    "Schedule",
    "TrumpNotBroken",
    "WHOLE_GAME",
    "WrongPhase",
    "__version__",
    "action_from_json",
    "action_str",
    "action_to_json",
    "bid_action",
    "card_mask",
    "card_str",
    "mask_to_cards",
    "parse_action",
    "parse_bid",
    "parse_card",
    "partner_of",
    "record_actions",
    "state_from_record",
    "team_of",
    "validate_record",
]
