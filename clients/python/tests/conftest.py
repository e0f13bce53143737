import sys
from pathlib import Path

# The tests' own helper modules (tests_helpers, the bots the runner loads) import by name.
sys.path.insert(0, str(Path(__file__).parent))
