"""The game's record page: the seats, each deal's scores, the record for the replay.

A finished game shows its whole record (the seed and every hand); a game in progress shows
only what a spectator may see (docs/rules.md §8): the record and view for viewer None.
What listening apps add to the page (the ladder's rating changes) comes from
``games.extensions.page_parts``.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from backalley_engine.constants import team_of
from games import extensions
from games import selectors as game_selectors
from games.models import Game, GameStatus, Seat
from games.web.words import card_name

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_label(text: str | None) -> str:
    """A card's short label for people: "AS" -> "A♠", "TD" -> "10♦", jokers by name.

    >>> card_label("TD"), card_label("BB"), card_label(None)
    ('10♦', 'Big Blooper', '')
    """
    if not text:
        return ""
    if text in ("BB", "LB"):
        return card_name(text)
    rank = "10" if text[0] == "T" else text[0]
    return rank + SUITS.get(text[1], text[1])


def _bid_words(bid: Any) -> str:
    """A bid of the record ("pass", "board", 3) as the page shows it."""
    if bid == "pass":
        return pgettext("bid", "pass")
    if bid == "board":
        return pgettext("bid", "board")
    return str(bid)


def deal_rows(record: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per deal (voided ones included) for the scores table."""
    rows = []
    for deal in record.get("deals") or []:
        bids = {b["seat"]: b["bid"] for b in deal.get("bids") or []}
        rows.append(
            {
                "number": deal.get("number"),
                "attempt": deal.get("attempt", 0),
                "hand_size": deal.get("hand_size"),
                "dealer": deal.get("dealer"),
                "upcard": card_label(deal.get("upcard")),
                "trump": SUITS.get(deal.get("trump") or "") or _("no trump"),
                "bids": [_bid_words(bids.get(seat, "")) for seat in range(4)],
                "status": deal.get("status"),
                "tricks_won": deal.get("tricks_won") or [0, 0],
                "score": deal.get("score") or [0, 0],
                "totals": deal.get("totals") or [0, 0],
            }
        )
    return rows


def _record(game: Game, seats: list[Seat]) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """(record, spectator view): the whole record once finished, a spectator's otherwise."""
    if game.started_at is None:
        return None, None
    record = game_selectors.game_record(game=game, seats=seats, seat=None)
    view = None
    if game.status != GameStatus.FINISHED:
        view = game_selectors.game_view(game=game, seats=seats, seat=None)
    return record, view


def game_page_context(public_id: str, *, user: Any = None) -> dict[str, Any]:
    """The record page's context for ``user`` (anyone: None or anonymous). A game of a deal
    set whose seed is not public is its players' alone (``games.selectors.game_hidden``):
    anyone else is told there is no such game."""
    game = Game.objects.filter(public_id=public_id).first()
    if game is None:
        raise Http404(_("No game %(id)s.") % {"id": repr(public_id)})
    seats = list(Seat.objects.filter(game=game).select_related("player").order_by("position"))
    controlled = game_selectors.seats_controlled(seats=seats, user=user) if user else []
    if game_selectors.game_hidden(game=game, controlled=controlled):
        raise Http404(_("No game %(id)s.") % {"id": repr(public_id)})
    record, view = _record(game, seats)
    parts = extensions.page_parts(game)
    changes = parts.get("ratings") or {"seats": {}, "sides": {}}
    seat_rows = [
        {
            "position": s.position,
            "player": s.player,
            "team": team_of(s.position),
            "change": changes["seats"].get(s.position),
        }
        for s in seats
    ]
    return {
        "game": game,
        "finished": game.status == GameStatus.FINISHED,
        # Finished, but other tables still play its cards (docs/rules.md §8): say why the
        # seed and the hands are missing, so the record does not look broken.
        "hands_withheld": game.status == GameStatus.FINISHED
        and not game_selectors.seed_is_public(game=game),
        "seats": seat_rows,
        "deals": deal_rows(record) if record else [],
        "record": record,
        "view": view,
        "pair_changes": changes["sides"],
        "origin": game_selectors.fork_origin(game=game),
        "parts": parts,
    }
