"""Compile the engine's hot modules with mypyc, in place (``make install`` runs this).

The typed sources are compiled unchanged (see ``games/engine/native.py`` for how the
compiled or the pure build is chosen at import time). mypyc is part of mypy, already a
development dependency; it needs a C compiler and the Python headers.

    python scripts/build_engine.py          # build (about a minute)
    python scripts/build_engine.py --clean  # remove the extensions: the pure engine runs
"""

from __future__ import annotations

import glob
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from games.engine.native import NATIVE_MODULES  # noqa: E402

ENGINE = os.path.join("games", "engine")
BUILD = os.path.join("var", "engine-build")


def clean() -> None:
    for path in glob.glob(os.path.join(ROOT, ENGINE, "*.so")):
        os.remove(path)


def build() -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    os.chdir(ROOT)
    clean()
    sources = [os.path.join(ENGINE, f"{name}.py") for name in NATIVE_MODULES]
    setup(
        name="backalley-engine-native",
        packages=[],
        ext_modules=mypycify(
            sources,
            opt_level="3",
            group_name="games.engine._native",
            target_dir=os.path.join(BUILD, "c"),
        ),
        script_args=[
            "build_ext",
            "--inplace",
            "--build-temp",
            os.path.join(BUILD, "temp"),
            "--build-lib",
            os.path.join(BUILD, "lib"),
        ],
    )
    # build_ext copies unchanged shims with their old times: date every extension now, so
    # games/engine/native.py sees the build as newer than the sources it was made from.
    for path in glob.glob(os.path.join(ROOT, ENGINE, "*.so")):
        os.utime(path)


if __name__ == "__main__":
    if "--clean" in sys.argv[1:]:
        clean()
    else:
        build()
