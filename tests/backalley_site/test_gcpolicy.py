"""The server workers' garbage-collection policy, applied in a process of its own (it changes
the interpreter's collector for good)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import gc, logging, sys, time, weakref
import django
django.setup()
from backalley_site import gcpolicy

logging.getLogger("backalley_site.gcpolicy").setLevel(logging.INFO)
gcpolicy.install(0.3)
assert gc.get_threshold()[2] == gcpolicy.NEVER, gc.get_threshold()
assert gc.get_freeze_count() > 1000, gc.get_freeze_count()

class Node:
    pass

# A cycle old enough to reach the oldest generation, then dropped: only a full collection
# finds it, and here that is the timer's.
a, b = Node(), Node()
a.other, b.other = b, a
freed = []
probe = weakref.ref(a, lambda _: freed.append(1))
gc.collect(1)
gc.collect(1)
del a, b
gc.collect(1)
assert not freed, "a young collection found an old cycle"
deadline = time.monotonic() + 5
while not freed and time.monotonic() < deadline:
    time.sleep(0.05)
print("freed" if freed else "not freed", flush=True)
"""


def test_full_collections_run_on_the_timer_and_find_old_cycles() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=ROOT,
        env={"DJANGO_SETTINGS_MODULE": "backalley_site.settings", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "freed" in done.stdout.splitlines()
    assert "gc: full collection" in done.stdout + done.stderr  # logged, with its duration
