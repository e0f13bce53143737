"""What a seat may see (docs/rules.md §8) and the engine's independence from Django."""

import json
import random
import subprocess
import sys
from pathlib import Path

from backalley_engine.cards import mask_to_cards, parse_card
from backalley_engine.state import GameState

SEED = "ab" * 32


def test_seat_view_shows_own_hand_and_no_other_hand() -> None:
    g = GameState.new(SEED)
    rng = random.Random(4)
    for _ in range(25):
        g.apply(rng.choice(g.legal_actions()))
    for seat in range(4):
        v = g.view(seat)
        json.dumps(v)
        assert {parse_card(c) for c in v["hand"]} == set(mask_to_cards(g.hands[seat]))
        others = {c for s in range(4) if s != seat for c in mask_to_cards(g.hands[s])}
        assert not others & {
            parse_card(c)
            for c in json.dumps(v).replace('"', " ").split()
            if len(c) == 2 and _is_card(c)
        }
        assert v["seed"] is None and v["commitment"] == g.commitment


def _is_card(text: str) -> bool:
    try:
        parse_card(text)
    except ValueError:
        return False
    return True


def test_spectator_view_has_no_hand_and_no_legal_actions() -> None:
    g = GameState.new(SEED)
    v = g.view(None)
    assert v["hand"] is None and v["legal_actions"] == []


def test_legal_actions_only_in_the_view_of_the_seat_to_act() -> None:
    g = GameState.new(SEED)
    to_act = g.seat_to_act
    assert g.view(to_act)["legal_actions"][0] == "pass"
    assert all(g.view(s)["legal_actions"] == [] for s in range(4) if s != to_act)


def test_seed_revealed_only_when_finished() -> None:
    g = GameState.new(SEED)
    while g.seat_to_act is not None:
        g.apply(g.legal_actions()[0])
    assert g.view(2)["seed"] == SEED and g.view(None)["result"] is not None


def test_engine_imports_without_django(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('django', 'rest_framework', 'celery'):\n"
        "            raise ImportError('blocked: ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import backalley_engine, backalley_engine.state, backalley_engine.records, backalley_engine.views\n"
        "g = backalley_engine.state.GameState.new('00' * 32)\n"
        "g.apply(g.legal_actions()[0]); g.record(0); g.view(0)\n"
        "assert not any(m.split('.')[0] in ('django', 'rest_framework', 'celery') for m in sys.modules)\n"
        "print('ok')\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
