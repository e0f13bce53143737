"""The compiled engine (mypyc) and the pure-Python sources play exactly alike."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

from backalley_engine import native

# Plays seeded random games, tries illegal moves along the way, and prints what happened.
_SCRIPT = """
import hashlib, json, random
from backalley_engine import native
from backalley_engine.state import GameState
from backalley_engine.errors import EngineError
out = {"compiled": native.compiled(), "records": [], "errors": [], "checkpoints": []}
for i in range(6):
    seed = hashlib.sha256(f"native:{i}".encode()).hexdigest()
    rng = random.Random(i)
    g = GameState.new(seed)
    while not g.is_terminal():
        legal = g.legal_actions()
        if g.move_count % 37 == 0:
            bad = rng.choice([a for a in range(68) if a not in legal] or [0])
            try:
                g.clone().apply(bad)
            except EngineError as e:
                out["errors"].append([g.move_count, bad, e.code, e.message])
        if g.move_count == 333:
            out["checkpoints"].append(g.checkpoint())
        g.apply(rng.choice(legal))
    out["records"].append(g.record("all"))
print(json.dumps(out))
"""


def _play(engine: str) -> dict[str, Any]:
    env = {**os.environ, "BACKALLEY_ENGINE": engine}
    done = subprocess.run([sys.executable, "-c", _SCRIPT], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_the_pure_engine_can_be_selected() -> None:
    assert _play("pure")["compiled"] is False


@pytest.mark.skipif(not native.built(), reason="the compiled engine is not built (make install)")
def test_compiled_and_pure_engines_give_identical_records() -> None:
    pure, compiled = _play("pure"), _play("auto")
    assert compiled["compiled"] is True
    assert len(pure["records"]) == 6 and len(pure["errors"]) > 20
    assert compiled["records"] == pure["records"]
    assert compiled["errors"] == pure["errors"]
    assert compiled["checkpoints"] == pure["checkpoints"]
