"""The Back Alley rules engine: pure Python, no framework, no I/O, no clock, no global random.

Modules:

- ``cards``: cards as ints 0..53, hands as bitmasks, notation (``parse_card``, ``card_str``).
- ``actions``: action ints (cards, ``PASS``, ``bid_action(k)``, ``BOARD``) and their text and
  JSON forms.
- ``errors``: ``EngineError`` and its subclasses with stable codes.
- ``shuffle``: the seeded, verifiable deals of docs/rules.md §9.
- ``deal``: one deal's state machine (``DealState``, buildable from explicit hands for bots).
- ``state``: the whole 25-deal game (``GameState``, ``Outcome``).
- ``views`` and ``events``: what a seat or a spectator may see, and what an action caused.
- ``records``, ``validate`` and ``validate_play``: game records (docs/record-format.md), their reading back and the
  validator (``validate_record``).
- ``cli``: ``python -m games.engine selfplay | validate | deal`` (the only module with I/O).
- ``native``: whether the hot modules run compiled (mypyc) or as pure Python; the sources are
  the same either way (``BACKALLEY_ENGINE=pure`` forces the sources).
"""

from games.engine import native as _native

_native.select()
