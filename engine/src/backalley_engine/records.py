"""Game records in the ``backalley-record`` format, version 2 (docs/record-format.md).

``write_record(game, viewer)`` writes one for a seat (other hands hidden while the game is
on), a spectator (``None``: no hands) or everything (``"all"``); a finished game's record
shows everything, the seed included, unless ``reveal=False`` (its seed was dealt to other
games still in play: the record is then written as for the viewer, without the seed).
``record_actions`` reads the move log back out of a record and ``state_from_record`` (in
``backalley_engine.state``, above this module) rebuilds the game from seed + moves. A short game's record names its run of deals (``"schedule":
{"first": 6, "last": 10}``). ``validate_record`` (in ``backalley_engine.validate``) checks a
record against the rules.
"""

from __future__ import annotations

from typing import Any

from backalley_engine.actions import accept_action, bid_json, claim_action, parse_bid
from backalley_engine.cards import card_str, cards_str, mask_to_cards, parse_card
from backalley_engine.claims import ACCEPTED, claim_entry
from backalley_engine.constants import RECORD_FORMAT, RECORD_VERSION
from backalley_engine.errors import BadRecord, EngineError
from backalley_engine.events import trump_str
from backalley_engine.game import DealInfo, GameCore, Viewer
from backalley_engine.schedule import Schedule
from backalley_engine.validate import RecordError
from backalley_engine.validate import validate_record as _validate


def _deal_json(info: DealInfo, viewer: Viewer, finished: bool) -> dict[str, Any]:
    d = info.state
    show_all = finished or viewer == "all"
    # A seat that claimed showed its hand (docs/rules.md §10): its hand as dealt is then known
    # to all (what it holds now and what it played), so every record shows it.
    hands: list[list[str] | None] = [
        cards_str(mask_to_cards(d.start_hands[s]))
        if show_all or viewer == s or d.revealed >> s & 1
        else None
        for s in range(4)
    ]
    swap = None
    if info.swap is not None:
        sw = info.swap
        swap = {
            "seat": sw.seat,
            "discarded": card_str(sw.discarded),
            "drawn": card_str(sw.drawn) if show_all or viewer == sw.seat else None,
        }
    tricks: list[dict[str, Any]] = [
        {"leader": leader, "cards": cards_str(cards), "winner": winner}
        for leader, cards, winner in d.tricks
    ]
    if d.trick:
        tricks.append({"leader": d.leader, "cards": cards_str(d.trick), "winner": None})
    out = {
        "number": info.number,
        "attempt": info.attempt,
        "hand_size": d.n,
        "dealer": d.dealer,
        "hands": hands,
        "upcard": card_str(d.upcard),
        "trump": trump_str(d.trump),
        "joker_swap": swap,
        "bids": [{"seat": d.bid_seat(i), "bid": bid_json(b)} for i, b in enumerate(d.bids)],
        "tricks": tricks,
        "status": info.status,
        "tricks_won": list(d.team_tricks()),
        "score": list(info.score),
        "totals": list(info.totals),
    }
    claim = claim_entry(d)
    if claim is not None:
        out["claim"] = claim
    return out


def write_record(
    game_state: GameCore,
    viewer: Viewer = "all",
    players: list[str] | None = None,
    game: str | None = None,
    *,
    reveal: bool | None = None,
) -> dict[str, Any]:
    """The record of ``game_state`` as ``viewer`` (a seat, None, or "all") may see it.

    ``reveal``: whether the game's secrets (the seed, every hand) are public; by default
    once the game is over. False keeps a finished game's record as ``viewer`` saw it at
    the table, seed ``null`` (docs/rules.md §8: a seed shared with games still in play);
    True never opens a game still in play. ``"all"`` shows every hand whatever ``reveal``.
    """
    if not (viewer is None or viewer == "all" or viewer in (0, 1, 2, 3)):
        raise ValueError("viewer must be a seat 0..3, None (spectator) or 'all'")
    finished = game_state.outcome is not None and reveal is not False
    rec: dict[str, Any] = {"format": RECORD_FORMAT, "version": RECORD_VERSION}
    if game is not None:
        rec["game"] = game
    rec["players"] = list(players) if players is not None else None
    rec["commitment"] = game_state.commitment
    rec["seed"] = game_state.seed if finished else None
    rec["first_dealer"] = game_state.first_dealer
    if not game_state.schedule.is_default:
        rec["schedule"] = game_state.schedule.to_json()
    rec["deals"] = [_deal_json(i, viewer, finished) for i in game_state.all_deals()]
    out = game_state.outcome
    rec["result"] = {"totals": list(out.totals), "winner": out.winner} if out else None
    return rec


def _seat_of(obj: object) -> int:
    if isinstance(obj, bool) or not isinstance(obj, int) or not 0 <= obj <= 3:
        raise BadRecord(f"Not a seat: {obj!r}.", {})
    return obj


def record_actions(record: dict[str, Any]) -> list[int]:
    """The move log of a record: each deal's bids, then its cards in play order, then the
    claim that ended it (and, for an accepted one, both opponents' acceptances). Claims that
    were refused or lapsed are not in a record: they changed no card, bid or score."""
    if not isinstance(record, dict) or not isinstance(record.get("deals"), list):
        raise BadRecord("A record is an object with a 'deals' list.", {})
    actions: list[int] = []
    try:
        for deal in record["deals"]:
            for b in deal["bids"]:
                _seat_of(b["seat"])
                actions.append(parse_bid(b["bid"]))
            for t in deal["tricks"]:
                actions.extend(parse_card(c) for c in t["cards"])
            claim = deal.get("claim")
            if claim is not None:  # version 2: the claim that ended the deal
                seat = _seat_of(claim["seat"])
                actions.append(claim_action(seat, int(claim["tricks"])))
                if claim.get("how") == ACCEPTED:
                    actions += [accept_action((seat + 1) & 3), accept_action((seat + 3) & 3)]
    except EngineError as e:
        raise BadRecord(f"Unreadable move in the record: {e.message}", e.extra) from None
    except (KeyError, TypeError) as e:
        raise BadRecord(f"Malformed deal in the record ({e!s}).", {}) from None
    return actions


def record_schedule(record: dict[str, Any]) -> Schedule:
    """The deals a record's game plays: its ``schedule`` (a short game), else all 25."""
    try:
        return Schedule.from_json(record.get("schedule"))
    except EngineError as e:
        raise BadRecord(f"Unreadable schedule in the record: {e.message}", e.extra) from None


def validate_record(record: object) -> list[RecordError]:
    """[] when the record is valid, else the first error (deal, trick, card or bid at fault)."""
    return _validate(record)
