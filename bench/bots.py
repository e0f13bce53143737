"""Bots benchmarks (``make bench-bots``): each part lives in its own file beside this one.

- strength (``bench/bots_strength.py``): strategies against each other over duplicate deals;
- house (``bench/bots_house.py``): house-strong against house-heuristic over duplicate pairs of
  whole games;
- pipeline (``bench/bots_pipeline.py``): bot turns through a real Celery worker.

``python bench/bots.py [strength] [pipeline]`` runs the parts named (default: all present).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PARTS = ["strength", "house", "pipeline"]


def main(argv: list[str]) -> None:
    for part in argv or PARTS:
        path = HERE / f"bots_{part}.py"
        if not path.exists():
            print(f"bench-bots {part}: {path.name} is not there yet; skipped")
            continue
        spec = importlib.util.spec_from_file_location(f"bench_bots_{part}", path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.run()


if __name__ == "__main__":
    main(sys.argv[1:])
