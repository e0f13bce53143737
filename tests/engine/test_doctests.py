"""The examples in the engine's docstrings run."""

import doctest
import importlib

import pytest

MODULES = ["cards", "actions", "errors", "shuffle", "deal", "state"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"games.engine.{name}")
    result = doctest.testmod(module)
    assert result.failed == 0
    assert result.attempted > 0
