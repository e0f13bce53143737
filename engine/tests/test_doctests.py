"""The examples in the engine's docstrings run.

The docstrings are read from the Python sources (the compiled build's extensions keep no
docstrings of functions) and run against the module actually loaded, compiled or pure.
"""

import ast
import doctest
import importlib
from pathlib import Path

import pytest

import backalley_engine

MODULES = [
    "__init__",
    "cards",
    "actions",
    "constants",
    "errors",
    "shuffle",
    "deal",
    "game",
    "state",
    "checkpoint",
    "observation",
    "schedule",
    "summary",
    "heuristic",
]


def _docstrings(path: Path) -> list[tuple[str, str, int]]:
    """(name, docstring, line) of the module and of every class and function in it."""
    tree = ast.parse(path.read_text())
    found = []
    for node in [tree, *ast.walk(tree)]:
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                name = getattr(node, "name", "<module>")
                found.append((name, doc, getattr(node, "lineno", 0)))
    return found


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(
        "backalley_engine" if name == "__init__" else f"backalley_engine.{name}"
    )
    path = Path(backalley_engine.__file__).parent / f"{name}.py"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    seen = set()
    for where, doc, line in _docstrings(path):
        if (where, line) in seen:
            continue
        seen.add((where, line))
        test = parser.get_doctest(doc, dict(vars(module)), f"{name}.{where}", str(path), line)
        if test.examples:
            runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0
    assert result.attempted > 0
