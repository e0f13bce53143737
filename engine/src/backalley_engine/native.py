"""Which build of the engine's hot modules runs: compiled (mypyc) or pure Python.

``scripts/build_engine.py`` (run by ``make install``) compiles the typed modules named in
:data:`NATIVE_MODULES` with mypyc, in place: each gets a C extension beside its source, and
Python's import system prefers an extension to a source. The pure-Python sources stay the
reference and the fallback; they are used

- when ``BACKALLEY_ENGINE=pure`` is set in the environment (to test or debug the sources),
- when the extensions were never built (no compiler, or a fresh checkout),
- when any source is newer than its extension (an edit not yet rebuilt: the stale build is
  never used).

It is all or nothing: the compiled modules share one native library, so a mix of compiled
and pure modules is never loaded. This module does file-system lookups at import time only;
the rules themselves stay free of I/O.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from types import ModuleType

PACKAGE = "backalley_engine"
NATIVE_MODULES = ("cards", "actions", "constants", "deal", "shuffle", "game", "state")
_HERE = os.path.dirname(os.path.abspath(__file__))
_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def _extension(name: str) -> str | None:
    for suffix in _SUFFIXES:
        path = os.path.join(_HERE, name + suffix)
        if os.path.exists(path):
            return path
    return None


def built() -> bool:
    """Every hot module has an extension at least as new as its source."""
    for name in NATIVE_MODULES:
        ext = _extension(name)
        if ext is None:
            return False
        if os.path.getmtime(ext) < os.path.getmtime(os.path.join(_HERE, name + ".py")):
            return False
    return True


class _SourcesFirst(importlib.abc.MetaPathFinder):
    """Loads the hot modules from their ``.py`` sources even when extensions sit beside."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package != PACKAGE or name not in NATIVE_MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, os.path.join(_HERE, name + ".py"))


def select() -> bool:
    """Choose the build before any hot module is imported; True when compiled runs."""
    compiled = os.environ.get("BACKALLEY_ENGINE", "").lower() != "pure" and built()
    if not compiled and not any(isinstance(f, _SourcesFirst) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourcesFirst())
    return compiled


def compiled() -> bool:
    """Whether the engine running in this process is the compiled build."""
    deal = sys.modules.get(f"{PACKAGE}.deal")
    return deal is not None and not (getattr(deal, "__file__", "") or "").endswith(".py")
