"""Command line: ``python -m backalley_engine selfplay | validate | deal``.

The only part of the engine that does I/O; everything it prints comes from the pure modules.

- ``selfplay --games N --seed S [--deals 6-10]``: N games of random legal play, whole records
  as JSON Lines (``--deals``: short games of that run of the schedule's deals).
  Game i's seed and its players' random choices derive from S with SHA-256, so the output is
  reproducible.
- ``validate FILE``: a JSON record, a JSON list of records, or JSON Lines (``-`` = stdin).
  Exit 0 only if every record is valid; otherwise print each bad record's first error.
- ``deal SEED [--attempts K]``: the deals a seed gives, readable (attempt 0 by default,
  dealt as if no deal were voided).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Iterator, Sequence
from typing import Any, TextIO

from backalley_engine.cards import RANKS, SUITS, card_str, mask_to_cards
from backalley_engine.errors import BadSchedule, EngineError
from backalley_engine.schedule import Schedule
from backalley_engine.shuffle import check_seed, commitment, deal_cards, first_dealer, hand_size_of
from backalley_engine.state import GameState
from backalley_engine.validate import RecordError, validate_record


def selfplay_seeds(seed: str, index: int) -> tuple[str, int]:
    """Game ``index``'s seed and its random-play seed, both derived from ``seed``."""
    game_seed = hashlib.sha256(f"backalley-selfplay:{seed}:{index}".encode()).hexdigest()
    play_seed = int.from_bytes(hashlib.sha256(f"play:{game_seed}".encode()).digest()[:8], "big")
    return game_seed, play_seed


def selfplay_game(seed: str, index: int, schedule: Schedule | None = None) -> GameState:
    game_seed, play_seed = selfplay_seeds(seed, index)
    rng = random.Random(play_seed)
    g = GameState.new(game_seed, schedule=schedule)
    while g.seat_to_act is not None:
        actions = g.legal_actions()
        g.apply(actions[rng.randrange(len(actions))])
    return g


def cmd_selfplay(games: int, seed: str, out: TextIO, schedule: Schedule | None = None) -> int:
    for i in range(games):
        g = selfplay_game(seed, i, schedule)
        players = ["random:0", "random:1", "random:2", "random:3"]
        rec = g.record("all", players=players, game=f"selfplay:{seed}:{i}")
        out.write(json.dumps(rec, separators=(",", ":")) + "\n")
    return 0


def read_records(text: str) -> Iterator[tuple[str, Any]]:
    """(label, record) pairs from JSON (one record or a list) or JSON Lines."""
    stripped = text.strip()
    if not stripped:
        return
    try:
        whole = json.loads(stripped)
    except json.JSONDecodeError:
        whole = None
    else:
        items = whole if isinstance(whole, list) else [whole]
        for i, rec in enumerate(items, 1):
            yield f"record {i}", rec
        return
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            yield f"line {lineno}", json.loads(line)
        except json.JSONDecodeError as e:
            yield f"line {lineno}", _Unreadable(str(e))


class _Unreadable:
    def __init__(self, why: str) -> None:
        self.why = why


def describe(error: RecordError) -> str:
    parts = []
    if error.deal is not None:
        parts.append(
            f"deal {error.deal}" + (f" (attempt {error.attempt})" if error.attempt else "")
        )
    if error.trick is not None:
        parts.append(f"trick {error.trick}")
    if error.at is not None:
        parts.append(f"at {error.at}")
    where = ", ".join(parts) if parts else "record"
    return f"{where}: {error.message} [{error.code}]"


def cmd_validate(path: str, out: TextIO) -> int:
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()  # noqa: SIM115
    except OSError as e:
        out.write(f"cannot read {path}: {e.strerror}\n")
        return 2
    bad = total = 0
    for label, rec in read_records(text):
        total += 1
        if isinstance(rec, _Unreadable):
            bad += 1
            out.write(f"{label}: not JSON ({rec.why})\n")
            continue
        errors = validate_record(rec)
        if errors:
            bad += 1
            name = rec.get("game") if isinstance(rec, dict) else None
            label = f"{label} ({name})" if isinstance(name, str) else label
            out.write(f"{label}: {describe(errors[0])}\n")
    if total == 0:
        out.write("no records found\n")
        return 1
    out.write(f"{total - bad} of {total} records valid\n")
    return 0 if bad == 0 else 1


def _hand_text(mask: int) -> str:
    by_suit = {s: [] for s in range(5)}  # type: dict[int, list[int]]
    for c in mask_to_cards(mask):
        by_suit[c // 13].append(c)
    parts = []
    for s in (0, 1, 2, 3):
        ranks = "".join(RANKS[c % 13] for c in reversed(by_suit[s]))
        parts.append(f"{SUITS[s]}:{ranks or '-'}")
    if by_suit[4]:
        parts.append(" ".join(card_str(c) for c in reversed(by_suit[4])))
    return "  ".join(parts)


def cmd_deal(seed: str, attempts: int, out: TextIO) -> int:
    try:
        check_seed(seed)
    except EngineError as e:
        out.write(f"{e.message}\n")
        return 2
    fd = first_dealer(seed)
    out.write(f"seed {seed}\ncommitment {commitment(seed)}\nfirst dealer: seat {fd}\n")
    for number in range(1, 26):
        for attempt in range(attempts):
            dealer = (fd + number - 1 + attempt) % 4
            dealt = deal_cards(seed, number, attempt, dealer)
            trump = "none (joker upcard)" if dealt.trump is None else SUITS[dealt.trump]
            out.write(
                f"\ndeal {number} attempt {attempt}: {hand_size_of(number)} cards, dealer seat "
                f"{dealer}, upcard {card_str(dealt.upcard)}, trump {trump}\n"
            )
            for seat in range(4):
                out.write(f"  seat {seat}: {_hand_text(dealt.hands[seat])}\n")
            if dealt.swap is not None:
                sw = dealt.swap
                out.write(
                    f"  joker swap: seat {sw.seat} discards {card_str(sw.discarded)}, "
                    f"draws {card_str(sw.drawn)}\n"
                )
    return 0


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    parser = argparse.ArgumentParser(
        prog="python -m backalley_engine", description=__doc__.splitlines()[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("selfplay", help="random legal games as JSON Lines records")
    p.add_argument("--games", type=int, default=1)
    p.add_argument("--seed", default="0", help="any text; game seeds derive from it")
    p.add_argument("--deals", default=None, help="a run of the schedule's deals, e.g. 6-10")
    p = sub.add_parser("validate", help="check records (JSON or JSON Lines; - for stdin)")
    p.add_argument("file")
    p = sub.add_parser("deal", help="the deals a seed gives")
    p.add_argument("seed")
    p.add_argument("--attempts", type=int, default=1, help="attempts per deal number to show")
    args = parser.parse_args(argv)
    if args.command == "selfplay":
        if args.games < 0:
            parser.error("--games must be >= 0")
        schedule = None
        if args.deals is not None:
            try:
                schedule = Schedule.parse(args.deals)
            except BadSchedule as e:
                parser.error(e.message)
        return cmd_selfplay(args.games, str(args.seed), out, schedule)
    if args.command == "validate":
        return cmd_validate(args.file, out)
    if not 1 <= args.attempts <= 4:
        parser.error("--attempts must be 1..4")
    return cmd_deal(args.seed, args.attempts, out)
