"""A golden record: one whole game, checked in, must be reproduced exactly and validate.

If a deliberate change to the record format or the rules changes this game, regenerate the
file with ``python -m backalley_engine selfplay --games 1 --seed golden`` (pretty-printed).
"""

import json
from pathlib import Path

from backalley_engine.cli import selfplay_game
from backalley_engine.records import validate_record
from backalley_engine.state import state_from_record

GOLDEN = Path(__file__).parent / "golden" / "selfplay-golden-0.json"


def test_golden_game_is_reproduced_exactly() -> None:
    expected = json.loads(GOLDEN.read_text())
    g = selfplay_game("golden", 0)
    players = ["random:0", "random:1", "random:2", "random:3"]
    assert g.record("all", players=players, game="selfplay:golden:0") == expected


def test_golden_record_validates_and_rebuilds() -> None:
    expected = json.loads(GOLDEN.read_text())
    assert validate_record(expected) == []
    assert (
        state_from_record(expected).record(
            "all", players=expected["players"], game=expected["game"]
        )
        == expected
    )
