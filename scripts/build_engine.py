"""Compile the engine's hot modules with mypyc, in place (``make install`` runs this).

The typed sources are compiled unchanged (see ``engine/src/backalley_engine/native.py`` for
how the compiled or the pure build is chosen at import time): each extension lands beside its
source in ``engine/src/backalley_engine/``. mypyc is part of mypy, already a development
dependency; it needs a C compiler and the Python headers. The wheel of ``engine/`` stays pure
Python; this build is for the service's checkout (and an editable install of the engine).

    python scripts/build_engine.py          # build (about a minute)
    python scripts/build_engine.py --clean  # remove the extensions: the pure engine runs
"""

from __future__ import annotations

import glob
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "engine", "src")
sys.path.insert(0, SRC)

from backalley_engine.native import NATIVE_MODULES  # noqa: E402

PACKAGE = "backalley_engine"
BUILD = os.path.join(ROOT, "var", "engine-build")


def clean() -> None:
    for path in glob.glob(os.path.join(SRC, PACKAGE, "*.so")):
        os.remove(path)


def build() -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    # build_ext --inplace puts each extension where its module lives relative to the working
    # directory: backalley_engine/<name>.so under engine/src.
    os.chdir(SRC)
    clean()
    sources = [os.path.join(PACKAGE, f"{name}.py") for name in NATIVE_MODULES]
    setup(
        name="backalley-engine-native",
        packages=[],
        ext_modules=mypycify(
            sources,
            opt_level="3",
            group_name=f"{PACKAGE}._native",
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
    # native.py sees the build as newer than the sources it was made from.
    for path in glob.glob(os.path.join(SRC, PACKAGE, "*.so")):
        os.utime(path)


if __name__ == "__main__":
    if "--clean" in sys.argv[1:]:
        clean()
    else:
        build()
