"""docs/rules.md names, for each rule, the engine function that implements it: they exist."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[1] / "docs" / "rules.md"
_CLASSES = {
    "DealCore": "backalley_engine.deal",
    "DealState": "backalley_engine.deal",
    "GameState": "backalley_engine.state",
}


def _engine_names() -> list[str]:
    names = []
    for part in DOC.read_text().split("*Engine")[1:]:
        chunk = part.split("\n- ")[0].split("\n\n")[0]
        names += re.findall(r"`([A-Za-z_][\w.]*)`", chunk)
    return names


def _resolve(name: str) -> object:
    head, _, rest = name.partition(".")
    if head in _CLASSES:
        obj: object = getattr(importlib.import_module(_CLASSES[head]), head)
    else:
        obj = importlib.import_module(f"backalley_engine.{head}")
    for attr in rest.split(".") if rest else []:
        obj = getattr(obj, attr)
    return obj


def test_every_engine_function_the_rules_name_exists() -> None:
    names = [n for n in _engine_names() if "." in n and not n.startswith("games.")]
    assert len(names) > 30
    for name in names:
        assert _resolve(name) is not None, name


def test_every_section_names_its_engine_function() -> None:
    sections = DOC.read_text().split("\n## ")[1:]
    assert len(sections) == 10
    for section in sections:
        assert "*Engine" in section, section.splitlines()[0]
