"""The examples in the ladder modules' docstrings hold."""

import doctest

import pytest

from games.web import record
from ladder import charts, presenters, rating


@pytest.mark.parametrize("module", [rating, charts, presenters, record])
def test_docstring_examples(module) -> None:
    failures, tried = doctest.testmod(module)
    assert tried > 0 and failures == 0
