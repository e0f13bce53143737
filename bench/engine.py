"""Random-play throughput of the rules engine, against OpenSpiel's `oh_hell` when installed.

Both loops run in this one process, one after the other, on one core, timed in CPU seconds
(so other work on the machine disturbs the figures less): pick a uniformly
random legal action until the game ends. For our engine every action goes through
`GameState.apply` with its full legality checks. For OpenSpiel the game is `oh_hell` with
4 players and 12 tricks; its chance steps (the deal, the trump card) are sampled and
counted in its time but not as decisions, so both sides count bids and plays only.

Our engine is run twice, each in a child process: compiled (the mypyc build that
`make install` makes, see engine/src/backalley_engine/native.py) and pure Python
(`BACKALLEY_ENGINE=pure`); the compiled run is skipped when the build is missing. OpenSpiel is run twice: sampling each chance step from `chance_outcomes()` by its
probabilities (the general loop, as OpenSpiel's own examples do), and picking uniformly
among the chance node's legal actions (a shortcut that is exact for oh_hell, whose chance
outcomes are all equally likely, and cheaper in Python). The ratio is printed for both.

    python bench/engine.py [--seconds 10]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
import time
from dataclasses import asdict, dataclass

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from backalley_engine import native  # noqa: E402


@dataclass
class Throughput:
    name: str
    games: int
    decisions: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.seconds

    def line(self) -> str:
        return (
            f"{self.name:<34} {self.games:>7} games {self.decisions:>10} decisions "
            f"{self.seconds:7.2f} s  {self.games_per_second:9.1f} games/s  "
            f"{self.decisions_per_second:11.0f} decisions/s"
        )


def bench_ours(seconds: float, seed: int) -> Throughput:
    from backalley_engine.state import GameState

    rng = random.Random(seed)
    games = decisions = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        game_seed = hashlib.sha256(f"bench:{seed}:{games}".encode()).hexdigest()
        state = GameState.new(game_seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            decisions += 1
        games += 1
    kind = "compiled" if native.compiled() else "pure"
    return Throughput(
        f"backalley {kind} (full checks)", games, decisions, time.process_time() - start
    )


def bench_ours_in_child(seconds: float, seed: int, engine: str) -> Throughput:
    """``bench_ours`` in a fresh process running the ``engine`` build ("pure" or "auto")."""
    done = subprocess.run(
        [sys.executable, __file__, "--ours-only", f"--seconds={seconds}", f"--seed={seed}"],
        env={**os.environ, "BACKALLEY_ENGINE": engine},
        capture_output=True,
        text=True,
        check=True,
    )
    return Throughput(**json.loads(done.stdout))


def bench_openspiel(seconds: float, seed: int, *, uniform_chance: bool) -> Throughput | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("oh_hell", {"players": 4, "num_tricks_fixed": 12})
    rng = random.Random(seed)
    games = decisions = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                if uniform_chance:
                    outcomes = state.legal_actions()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))])
                else:
                    actions, weights = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(rng.choices(actions, weights)[0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                decisions += 1
        games += 1
    name = "openspiel oh_hell, uniform chance" if uniform_chance else "openspiel oh_hell"
    return Throughput(name, games, decisions, time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="time per engine")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ours-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.ours_only:  # the child process of bench_ours_in_child
        print(json.dumps(asdict(bench_ours(args.seconds, args.seed))))
        return

    print(f"load average before the run: {os.getloadavg()[0]:.2f}")
    ours = [bench_ours_in_child(args.seconds, args.seed, "pure")]
    if native.built():
        ours.append(bench_ours_in_child(args.seconds, args.seed, "auto"))
    else:
        print("backalley compiled: not built (make install builds it) - pure Python only")
    for o in ours:
        print(o.line())
    for uniform_chance in (False, True):
        theirs = bench_openspiel(args.seconds, args.seed, uniform_chance=uniform_chance)
        if theirs is None:
            print("openspiel: not installed (pip install open-spiel) - no comparison")
            return
        print(theirs.line())
        for o in ours:
            ratio = o.decisions_per_second / theirs.decisions_per_second
            print(f"  decisions/s ratio, {o.name} / {theirs.name}: {ratio:.2f}x")
    print(f"load average after the run: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
