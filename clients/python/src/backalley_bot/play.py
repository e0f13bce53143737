"""Play duplicate pairs offline on the engine library and print the duplicate score.

    python -m backalley_bot.play --bot mybot:MyBot --against heuristic --pairs 50

Each pair is one seed played twice, the arena's way (``bots.arena``): the bot's partnership
in seats 0 and 2, then in seats 1 and 3, the same cards in the same seats, so that card luck
cancels. The score is the bot's duplicate margin per game, with its 95% interval
(:mod:`backalley_bot.stats`, the arena's formula). Pair ``i`` of ``--seed s`` uses the seed
``sha256("arena:s:i")``, as the service's strategy arena (``manage.py arena``) does, so the
same run can be repeated there. The bot is shown exactly what the service shows it (the
engine's seat view); a seat with one legal action plays it without asking, as the service
does. ``--against``: ``heuristic`` (the house heuristic, ``backalley_engine.heuristic``),
``random``, or another bot as ``module:Class``.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import backalley_engine as ba
from backalley_bot.bot import Bot, load_bot
from backalley_bot.observation import Observation
from backalley_bot.stats import duplicate_score, mean_ci
from backalley_engine.heuristic import heuristic_action
from backalley_engine.views import game_view

Seat = Callable[[ba.GameState, int], int]  # a player: the state, its seat -> an action


def pair_seed(master: int, index: int) -> str:
    """The 64-hex seed of pair ``index`` under ``master`` (the arena's)."""
    return hashlib.sha256(f"arena:{master}:{index}".encode()).hexdigest()


def bot_player(bot: Bot) -> Seat:
    """A kit bot at a local table: asked with its seat's view, as the service asks it."""

    def act(state: ba.GameState, seat: int) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        obs = Observation.from_view(game_view(state, seat), game="local", seat=seat)
        return ba.parse_action(bot.decide(obs))

    return act


def heuristic_player(state: ba.GameState, seat: int) -> int:
    return heuristic_action(state.observation(seat))


def random_player(seed: int = 0) -> Seat:
    rng = random.Random(seed)
    return lambda state, seat: rng.choice(state.legal_actions())


def opponent(spec: str, seed: int = 0) -> tuple[str, Seat]:
    """``heuristic``, ``random`` or ``module:Class``: its name and its player."""
    if spec == "heuristic":
        return "heuristic", heuristic_player
    if spec == "random":
        return "random", random_player(seed)
    bot = load_bot(spec)
    return bot.name, bot_player(bot)


def play_game(seed: str, seats: Sequence[Seat]) -> tuple[int, int]:
    """A whole game of ``seed``; both teams' totals."""
    state = ba.GameState.new(seed)
    while not state.is_terminal():
        seat = state.seat_to_act
        assert seat is not None
        state.apply(seats[seat](state, seat), seat)
    assert state.outcome is not None
    return state.outcome.totals


@dataclass(frozen=True)
class Pair:
    """One seed twice: ``a`` with the bot as team 0, ``b`` with it as team 1 (totals)."""

    seed: str
    a: tuple[int, int]
    b: tuple[int, int]

    @property
    def score(self) -> float:
        return duplicate_score(self.a, self.b)


def play_pair(seed: str, mine: Seat, theirs: Seat) -> Pair:
    a = play_game(seed, (mine, theirs, mine, theirs))
    b = play_game(seed, (theirs, mine, theirs, mine))
    return Pair(seed, a, b)


def run(
    mine: Seat,
    theirs: Seat,
    *,
    pairs: int,
    seed: int = 0,
    progress: Callable[[int, Pair], None] | None = None,
) -> list[Pair]:
    if pairs < 1:
        raise ValueError("pairs must be at least 1")
    out = []
    for i in range(pairs):
        p = play_pair(pair_seed(seed, i), mine, theirs)
        out.append(p)
        if progress is not None:
            progress(i, p)
    return out


def summary(name: str, against: str, results: Sequence[Pair]) -> str:
    """The line the runner prints.

    >>> summary("Mine", "heuristic", [Pair("x", (10, 0), (0, 10)), Pair("y", (0, 0), (0, 0))])
    'Mine against heuristic: 2 pairs, duplicate score +5.0 a game (95% interval -58.5 to +68.5); pairs won 1, drawn 1, lost 0'
    """
    mean, low, high = mean_ci([p.score for p in results])
    won = sum(p.score > 0 for p in results)
    lost = sum(p.score < 0 for p in results)
    return (
        f"{name} against {against}: {len(results)} pairs, duplicate score {mean:+.1f} a game "
        f"(95% interval {low:+.1f} to {high:+.1f}); "
        f"pairs won {won}, drawn {len(results) - won - lost}, lost {lost}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m backalley_bot.play", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--bot", required=True, help="your bot, as module:Class")
    parser.add_argument("--against", default="heuristic", help="heuristic, random or module:Class")
    parser.add_argument("--pairs", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0, help="which pairs (the arena's seeds)")
    parser.add_argument("--quiet", action="store_true", help="no line per pair")
    args = parser.parse_args(argv)
    sys.path.insert(0, "")  # the bot's module, from the current directory
    bot = load_bot(args.bot)
    against, theirs = opponent(args.against, args.seed)
    started = time.perf_counter()

    def show(i: int, p: Pair) -> None:
        if not args.quiet:
            print(f"pair {i + 1}: {p.a[0]}-{p.a[1]}, {p.b[1]}-{p.b[0]}: {p.score:+.1f}", flush=True)

    results = run(bot_player(bot), theirs, pairs=args.pairs, seed=args.seed, progress=show)
    print(summary(bot.name, against, results))
    print(f"{2 * len(results)} games in {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
