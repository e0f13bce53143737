"""The engine state of a game, without replaying the whole game on every request.

Three sources, tried in order, each checked against the game row's ``move_count``:

1. an in-process LRU cache of engine states keyed by game id (hit when this process made or
   read the latest move);
2. the row's ``snapshot`` (the state at the start of the current deal, written in the same
   transaction as the move that reached it) plus the moves logged since: at most one deal's;
3. a full replay of the seed and the move log (the truth; also what ``verify_games`` does).

Snapshots are taken once per deal rather than per move so that a move's cost does not grow
with the game's length (a late-game checkpoint is a few KB of JSON).

States handed out by :func:`state_for` are shared: callers must not mutate them. Writers
take ``.clone()`` and publish the new state with :func:`remember` only after commit, so a
rolled-back move can never poison the cache.

The snapshot is the engine's versioned plain-data checkpoint (``GameState.checkpoint()``):
no code is loaded from the database, and a checkpoint an upgraded engine cannot read
(another version) simply falls back to a replay.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from typing import Any

from backalley_engine.checkpoint import CheckpointError
from backalley_engine.errors import EngineError
from backalley_engine.state import GameState
from games.models import Game, Move

logger = logging.getLogger(__name__)

CACHE_SIZE = 512

_lock = threading.Lock()
# game id -> (seed, state): the seed guards against a reused id (test databases reset them).
_cache: OrderedDict[int, tuple[str, GameState]] = OrderedDict()


def dump(state: GameState) -> dict[str, Any]:
    """The snapshot of ``state``: its plain-data checkpoint."""
    return state.checkpoint()


def load(data: object, seed: str, move_count: int) -> GameState | None:
    """The state in a snapshot, or None when absent, unreadable or out of step."""
    if data is None:
        return None
    try:
        state = GameState.resume(seed, data)
    except (CheckpointError, EngineError):
        logger.warning("unreadable game snapshot; replaying instead", exc_info=True)
        return None
    return state if state.move_count == move_count else None


def replay(game: Game, upto: int | None = None) -> GameState:
    """The truth: the seed and the move log (optionally only the first ``upto`` moves)."""
    moves = Move.objects.filter(game_id=game.pk).order_by("seq")
    if upto is not None:
        moves = moves.filter(seq__lte=upto)
    return GameState.replay(
        game.seed, moves.values_list("action_code", flat=True), schedule=game.schedule
    )


def remember(game: Game, state: GameState) -> None:
    with _lock:
        game_id = game.pk
        _cache[game_id] = (game.seed, state)
        _cache.move_to_end(game_id)
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)


def action_at(game_id: int, seq: int) -> int | None:
    """The action code of move ``seq`` if this process has the game's state cached (it
    does right after committing it), else None: a listener reads the log instead."""
    with _lock:
        entry = _cache.get(game_id)
    if entry is None or not 0 < seq <= entry[1].move_count:
        return None
    return entry[1].history[seq - 1]


def forget(game_id: int | None = None) -> None:
    with _lock:
        if game_id is None:
            _cache.clear()
        else:
            _cache.pop(game_id, None)


def _from_snapshot(game: Game) -> GameState | None:
    """The snapshot brought up to ``game.move_count`` with the moves logged since."""
    if game.snapshot_seq is None or game.snapshot_seq > game.move_count:
        return None
    state = load(game.snapshot, game.seed, game.snapshot_seq)
    if state is None:
        return None
    if game.move_count > game.snapshot_seq:
        since = Move.objects.filter(
            game_id=game.pk, seq__gt=game.snapshot_seq, seq__lte=game.move_count
        ).order_by("seq")
        for code in since.values_list("action_code", flat=True):
            state.apply(code)
    return state if state.move_count == game.move_count else None


def state_for(game: Game, *, keep: bool = True) -> GameState:
    """The engine state of a started game as of ``game.move_count`` (do not mutate it).

    ``keep=False`` leaves the cache as it was: a reader going through many finished games
    (an export) would otherwise push out the states of the games being played."""
    with _lock:
        entry = _cache.get(game.pk)
    if entry is not None and entry[0] == game.seed and entry[1].move_count == game.move_count:
        return entry[1]
    state = _from_snapshot(game)
    if state is None:
        state = replay(game)
        if state.move_count != game.move_count:
            # The log and the counter disagree: a corrupt game. Serve the log's truth.
            logger.error(
                "game %s: move_count %s but %s moves in the log",
                game.pk,
                game.move_count,
                state.move_count,
            )
            return state
    if keep:
        remember(game, state)
    return state
