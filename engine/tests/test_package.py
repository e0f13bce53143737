"""The package as installed: its public surface, its typing marker, its README's example, and
(under ``make test-engine``) the wheel alone, with nothing of the service beside it."""

from __future__ import annotations

import doctest
import importlib.util
import os
from pathlib import Path

import pytest

import backalley_engine
from backalley_engine import native

README = Path(__file__).resolve().parents[1] / "README.md"
PACKAGE_DIR = Path(backalley_engine.__file__).resolve().parent


def test_every_public_name_is_exported() -> None:
    assert len(backalley_engine.__all__) == len(set(backalley_engine.__all__))
    for name in backalley_engine.__all__:
        assert getattr(backalley_engine, name) is not None, name
    assert backalley_engine.GameState is backalley_engine.state.GameState
    assert issubclass(backalley_engine.IllegalCard, backalley_engine.EngineError)


def test_the_package_is_marked_typed() -> None:
    assert (PACKAGE_DIR / "py.typed").is_file()


def test_the_readme_example_runs() -> None:
    result = doctest.testfile(
        str(README), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False
    )
    assert result.attempted > 0
    assert result.failed == 0


@pytest.mark.skipif(
    not os.environ.get("BACKALLEY_ENGINE_WHEEL"),
    reason="only under make test-engine (the wheel in a venv of its own)",
)
def test_the_wheel_alone_is_what_runs() -> None:
    source_tree = Path(__file__).resolve().parents[1] / "src"
    assert not PACKAGE_DIR.is_relative_to(source_tree)
    assert importlib.util.find_spec("django") is None
    assert not native.built() and not native.compiled()
    assert not list(PACKAGE_DIR.glob("*.so"))
