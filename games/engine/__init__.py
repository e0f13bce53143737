"""The Back Alley rules engine: pure Python, no framework, no I/O, no clock, no global random.

Modules: ``cards`` (ints and bitmasks), ``actions`` (action ints and their text/JSON forms),
``errors`` (typed errors with stable codes), ``shuffle`` (the seeded deals), ``deal`` (one
deal's state machine), ``state`` (the whole 25-deal game), ``records`` (game records and the
validator).
"""
