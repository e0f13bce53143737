"""The examples in the ladder modules' docstrings hold."""

import doctest

import pytest

from ladder import charts, presenters, rating, replay


@pytest.mark.parametrize("module", [rating, charts, presenters, replay])
def test_docstring_examples(module) -> None:
    failures, tried = doctest.testmod(module)
    assert tried > 0 and failures == 0
