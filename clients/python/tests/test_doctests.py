"""The examples in the kit's docstrings run."""

import doctest
import importlib

import pytest

MODULES = ["bot", "errors", "observation", "retry", "stats", "play", "webhook", "client"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"backalley_bot.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
