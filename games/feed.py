"""The per-game event feed, derived from the engine (never stored).

Every event is the engine's own dict plus ``seq``: the move count after the move that caused
it (0 for the first deal's opening events). A seat is sent the public events and the events
private to it, and nothing else; a spectator only the public ones.

Events are built by replaying the log with the engine's ``events`` list. To keep a poll
cheap, each process keeps, per game, the engine state and the events up to some move count,
and extends them with only the new moves from the log.
"""

from __future__ import annotations

import bisect
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from games.engine.state import GameState
from games.models import Game, Move

CACHE_SIZE = 64


@dataclass(frozen=True)
class _Entry:
    seed: str
    state: GameState  # never mutated once cached; extended on a clone
    events: tuple[dict[str, Any], ...]
    seqs: tuple[int, ...]  # events[i]["seq"], for bisecting


_lock = threading.Lock()
_cache: OrderedDict[int, _Entry] = OrderedDict()


def forget(game_id: int | None = None) -> None:
    with _lock:
        if game_id is None:
            _cache.clear()
        else:
            _cache.pop(game_id, None)


def _build(game: Game, upto: int, base: _Entry | None) -> _Entry:
    if base is None:
        opening: list[dict[str, Any]] = []
        state = GameState.new(game.seed, events=opening)
        events = [dict(ev, seq=0) for ev in opening]
    else:
        state = base.state.clone()
        events = list(base.events)
    start = state.move_count
    if upto > start:
        codes = Move.objects.filter(game_id=game.pk, seq__gt=start, seq__lte=upto).order_by("seq")
        for seq, code in codes.values_list("seq", "action_code"):
            caused: list[dict[str, Any]] = []
            state.apply(code, events=caused)
            events.extend(dict(ev, seq=seq) for ev in caused)
    return _Entry(game.seed, state, tuple(events), tuple(ev["seq"] for ev in events))


def events_and_seqs(game: Game) -> tuple[tuple[dict[str, Any], ...], tuple[int, ...]]:
    """Every event up to ``game.move_count`` (all seats'), and their seqs for bisecting."""
    return _upto(game)


def all_events(game: Game) -> tuple[dict[str, Any], ...]:
    """Every event of a started game up to ``game.move_count``, in order, with its seq."""
    return _upto(game)[0]


def _upto(game: Game) -> tuple[tuple[dict[str, Any], ...], tuple[int, ...]]:
    if game.started_at is None:
        return (), ()
    with _lock:
        entry = _cache.get(game.pk)
    if entry is not None and entry.seed != game.seed:
        entry = None
    if entry is None or entry.state.move_count < game.move_count:
        entry = _build(game, game.move_count, entry)
        with _lock:
            current = _cache.get(game.pk)
            if current is None or current.state.move_count <= entry.state.move_count:
                _cache[game.pk] = entry
            _cache.move_to_end(game.pk)
            while len(_cache) > CACHE_SIZE:
                _cache.popitem(last=False)
    if entry.state.move_count > game.move_count:  # another request already saw newer moves
        end = bisect.bisect_right(entry.seqs, game.move_count)
        return entry.events[:end], entry.seqs[:end]
    return entry.events, entry.seqs


def visible_to(event: dict[str, Any], seat: int | None) -> bool:
    owner = event.get("private_to")
    return owner is None or (seat is not None and owner == seat)


def events_since(game: Game, *, seat: int | None, since: int) -> list[dict[str, Any]]:
    """The events ``seat`` may see with ``seq > since``."""
    events, seqs = _upto(game)
    start = bisect.bisect_right(seqs, since)
    return [ev for ev in events[start:] if visible_to(ev, seat)]
