"""A game's state as versioned plain data, and back (``GameState.checkpoint``/``resume``).

A checkpoint is a JSON-able dict of ints, strings and lists: the fields of the deal in
progress, every finished deal and the game's counters. It holds no code and no object
references, so it survives an engine upgrade that changes the classes (an unknown
``version`` is refused, and the caller replays the move log instead) and can be stored in a
JSON column. The seed is not in it: ``resume`` takes the seed from the caller, who keeps it
(secret) beside the move log.

>>> from backalley_engine.state import GameState
>>> g = GameState.new("00" * 32)
>>> for a in g.legal_actions()[:1] * 3: g.apply(a)
>>> data = g.checkpoint()
>>> data["version"], data["moves"]
(1, 3)
>>> GameState.resume("00" * 32, data).record("all") == g.record("all")
True
"""

from __future__ import annotations

from typing import Any, TypeVar

from backalley_engine.deal import DealCore, DealState
from backalley_engine.errors import BadSchedule
from backalley_engine.game import DealInfo, GameCore, Outcome
from backalley_engine.schedule import Schedule
from backalley_engine.shuffle import HmacKey, JokerSwap, check_seed, commitment

VERSION = 1

G = TypeVar("G", bound=GameCore)


class CheckpointError(ValueError):
    """A checkpoint this engine cannot read (another version, or damaged)."""


def _deal_data(d: DealCore) -> dict[str, Any]:
    # The fields that follow from these (trump, its mask, what the lead obliges, the cached
    # legal mask) are derived again on resume.
    return {
        "n": d.n,
        "dealer": d.dealer,
        "upcard": d.upcard,
        "start_hands": list(d.start_hands),
        "hands": list(d.hands),
        "bids": list(d.bids),
        "board_level": list(d.board_level),
        "boards": d.boards,
        "phase": d.phase,
        "to_act": d.to_act,
        "leader": d.leader,
        "trick": list(d.trick),
        "broken": d.broken,
        "tricks": [[leader, list(cards), winner] for leader, cards, winner in d.tricks],
        "won": list(d.won),
        # Claims (backalley_engine.claims); absent from checkpoints written before them.
        "claim": d.claim,
        "claim_ok": d.claim_ok,
        "revealed": d.revealed,
        "claim_end": None if d.claim_end is None else list(d.claim_end),
        "credit": list(d.credit),
        "claim_marks": list(d.claim_marks),
    }


def _restore_deal(d: DealCore, data: dict[str, Any]) -> None:
    d._setup(tuple(data["start_hands"]), data["upcard"], data["dealer"], data["n"])
    d.hands = [int(h) for h in data["hands"]]
    d.bids = [int(b) for b in data["bids"]]
    d.board_level = [int(v) for v in data["board_level"]]
    d.boards = int(data["boards"])
    d.phase = str(data["phase"])
    d.to_act = int(data["to_act"])
    d.leader = int(data["leader"])
    d.trick = [int(c) for c in data["trick"]]
    d.broken = bool(data["broken"])
    d.tricks = [(int(t[0]), tuple(int(c) for c in t[1]), int(t[2])) for t in data["tricks"]]
    d.won = [int(w) for w in data["won"]]
    d.claim = int(data.get("claim", -1))
    d.claim_ok = int(data.get("claim_ok", 0))
    d.revealed = int(data.get("revealed", 0))
    end = data.get("claim_end")
    d.claim_end = None if end is None else (int(end[0]), int(end[1]), int(end[2]), str(end[3]))
    d.credit = [int(c) for c in data.get("credit", (0, 0))]
    d.claim_marks = [int(m) for m in data.get("claim_marks", (-1, -1))]
    if d.trick:  # the trick in progress: what its lead obliges the others to play
        d._lead(d.trick[0])


def _swap_data(swap: JokerSwap | None) -> list[int] | None:
    return None if swap is None else [swap.seat, swap.discarded, swap.drawn]


def _swap(data: list[int] | None) -> JokerSwap | None:
    return None if data is None else JokerSwap(int(data[0]), int(data[1]), int(data[2]))


def _info_data(info: DealInfo) -> dict[str, Any]:
    return {
        "number": info.number,
        "attempt": info.attempt,
        "swap": _swap_data(info.swap),
        "deal": _deal_data(info.state),
        "status": info.status,
        "score": list(info.score),
        "totals": list(info.totals),
    }


def checkpoint(state: GameCore) -> dict[str, Any]:
    """``state`` as plain data (see the module docstring)."""
    out = state.outcome
    return {
        "version": VERSION,
        "moves": state.move_count,
        "commitment": state.commitment,
        # A short game's run of deals (absent: the whole game).
        **({} if state.schedule.is_default else {"schedule": state.schedule.to_json()}),
        "first_dealer": state.first_dealer,
        "history": list(state.history),
        "deals": [_info_data(i) for i in state.deals],
        "deal_number": state.deal_number,
        "attempt": state.attempt,
        "swap": _swap_data(state.swap),
        "current": _deal_data(state),
        "totals": list(state.totals),
        "scored": state._scored,
        "outcome": None if out is None else [list(out.totals), out.winner],
    }


def resume(seed_hex: str, data: object, *, into: G) -> G:
    """``into`` (an empty game, ``GameState()``) filled with the state a checkpoint
    describes; raises ``CheckpointError`` when ``data`` is not a checkpoint of this version
    for this seed. ``GameState.resume(seed_hex, data)`` is the way to call it."""
    if not isinstance(data, dict) or data.get("version") != VERSION:
        raise CheckpointError("not a version-1 checkpoint")
    key = check_seed(seed_hex)
    if data.get("commitment") != commitment(seed_hex):
        raise CheckpointError("the checkpoint belongs to another seed")
    try:
        g = into
        g.schedule = Schedule.from_json(data.get("schedule"))
        _restore_deal(g, data["current"])
        g._key = HmacKey(key)
        g.seed = seed_hex
        g.commitment = data["commitment"]
        g.first_dealer = int(data["first_dealer"])
        g.history = [int(a) for a in data["history"]]
        g.deals = []
        for i in data["deals"]:
            d = DealState()
            _restore_deal(d, i["deal"])
            g.deals.append(
                DealInfo(
                    int(i["number"]),
                    int(i["attempt"]),
                    _swap(i["swap"]),
                    d,
                    str(i["status"]),
                    (int(i["score"][0]), int(i["score"][1])),
                    (int(i["totals"][0]), int(i["totals"][1])),
                )
            )
        g.deal_number = int(data["deal_number"])
        g.attempt = int(data["attempt"])
        g.swap = _swap(data["swap"])
        g.totals = (int(data["totals"][0]), int(data["totals"][1]))
        g._scored = int(data["scored"])
        out = data["outcome"]
        g.outcome = (
            None
            if out is None
            else Outcome((int(out[0][0]), int(out[0][1])), None if out[1] is None else int(out[1]))
        )
    except (KeyError, IndexError, TypeError, ValueError, BadSchedule) as e:
        raise CheckpointError(f"damaged checkpoint ({type(e).__name__}: {e})") from None
    if len(g.history) != data["moves"]:
        raise CheckpointError("the checkpoint's move count disagrees with its history")
    g.seat_to_act = None if g.outcome is not None else g.to_act
    return g
