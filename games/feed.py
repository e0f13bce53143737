"""The per-game event feed, derived from the engine (never stored).

Every event is the engine's own dict plus ``seq``: the move count after the move that caused
it (0 for the first deal's opening events). A seat is sent the public events and the events
private to it, and nothing else; a spectator only the public ones. The ``game_end`` event
carries the seed only once it is public (``games.dealsets``: every game dealt from it is
over); until then its ``seed`` is null, and a feed read after the reveal carries it.

Events are built by replaying the log with the engine's ``events`` list. To keep a poll
cheap, each process keeps, per game, the engine state and the events up to some move count,
and extends them with only the new moves from the log: in a small LRU for one-off readers,
and in each live watch (:mod:`games.live.hub`) for the games someone is waiting on, however
many those are, so a wake-up never replays a whole game.
"""

from __future__ import annotations

import bisect
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from backalley_engine.state import GameState
from games import dealsets
from games.models import Game, Move

CACHE_SIZE = 64
_MOVES = frozenset({"bid", "play"})
_END = "game_end"


@dataclass(frozen=True)
class FeedEntry:
    """A game's feed up to ``state.move_count``: extend it with :func:`feed_upto`."""

    seed: str
    state: GameState  # never mutated once cached; extended on a clone
    events: tuple[dict[str, Any], ...]
    seqs: tuple[int, ...]  # events[i]["seq"], for bisecting


_lock = threading.Lock()
_cache: OrderedDict[int, FeedEntry] = OrderedDict()


def forget(game_id: int | None = None) -> None:
    with _lock:
        if game_id is None:
            _cache.clear()
        else:
            _cache.pop(game_id, None)


def _build(game: Game, upto: int, base: FeedEntry | None) -> FeedEntry:
    if base is None:
        opening: list[dict[str, Any]] = []
        state = GameState.new(game.seed, events=opening, schedule=game.schedule)
        events = [dict(ev, seq=0) for ev in opening]
    else:
        state = base.state.clone()
        events = list(base.events)
    start = state.move_count
    if upto > start:
        codes = Move.objects.filter(game_id=game.pk, seq__gt=start, seq__lte=upto).order_by("seq")
        for seq, code, by in codes.values_list("seq", "action_code", "submitted_by"):
            caused: list[dict[str, Any]] = []
            state.apply(code, events=caused)
            for ev in caused:
                # Who made a bid or a card: "player", "bot", "system", "auto" or "premove".
                if ev["type"] in _MOVES:
                    events.append(dict(ev, seq=seq, by=by))
                elif ev["type"] == _END:  # the seed is added on reading, once public
                    events.append(dict(ev, seq=seq, seed=None))
                else:
                    events.append(dict(ev, seq=seq))
    return FeedEntry(game.seed, state, tuple(events), tuple(ev["seq"] for ev in events))


Events = tuple[dict[str, Any], ...]
Seqs = tuple[int, ...]


def feed_upto(game: Game, base: FeedEntry | None) -> tuple[Events, Seqs, FeedEntry | None]:
    """Every event up to ``game.move_count`` and their seqs, extending ``base`` (a watcher's
    own entry, kept by the caller and passed back next time) rather than the process LRU;
    also the entry to keep (None before the game starts)."""
    if game.started_at is None:
        return (), (), None
    entry = base if base is not None and base.seed == game.seed else None
    if entry is None or entry.state.move_count < game.move_count:
        entry = _build(game, game.move_count, entry)
    events, seqs = _cut(entry, game.move_count)
    return _with_seed(game, events), seqs, entry


def _with_seed(game: Game, events: Events) -> Events:
    """The events with the seed in ``game_end`` when it is public (never cached: the reveal
    comes when the last game of the seed ends, after this game's feed was built)."""
    if not events or events[-1]["type"] != _END or not dealsets.seed_is_public(game):
        return events
    return (*events[:-1], dict(events[-1], seed=game.seed))


def events_and_seqs(game: Game) -> tuple[Events, Seqs]:
    """Every event up to ``game.move_count`` (all seats'), and their seqs for bisecting."""
    return _upto(game)


def all_events(game: Game) -> Events:
    """Every event of a started game up to ``game.move_count``, in order, with its seq."""
    return _upto(game)[0]


def _upto(game: Game) -> tuple[Events, Seqs]:
    with _lock:
        cached = _cache.get(game.pk)
    events, seqs, entry = feed_upto(game, cached)
    if entry is not None and entry is not cached:
        with _lock:
            current = _cache.get(game.pk)
            if current is None or current.state.move_count <= entry.state.move_count:
                _cache[game.pk] = entry
            _cache.move_to_end(game.pk)
            while len(_cache) > CACHE_SIZE:
                _cache.popitem(last=False)
    return events, seqs


def _cut(entry: FeedEntry, move_count: int) -> tuple[Events, Seqs]:
    if entry.state.move_count > move_count:  # another request already saw newer moves
        end = bisect.bisect_right(entry.seqs, move_count)
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
