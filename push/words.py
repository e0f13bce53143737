"""What a push says, in the active language: a title, a short text, the page to open and a
tag (a newer notice about the same game replaces the older one on the device).

A push leaves the site for a push service the site does not run, and shows on a locked
screen: it names the game, the seat and the score, never a card, a hand, a bid not yet
made, a premove or a seed.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from games.models import Game


def payload(*, title: str, body: str, url: str, tag: str) -> dict[str, Any]:
    return {"title": title, "body": body, "url": url, "tag": tag}


def table_url(game: Game) -> str:
    return reverse("game-table", args=[game.public_id])


def your_turn(game: Game, seat: int) -> dict[str, Any]:
    words = {"game": game.public_id, "seat": seat}
    return payload(
        title=_("Your move in game %(game)s") % words,
        body=_("It is your turn at the table (seat %(seat)s).") % words,
        url=table_url(game),
        tag=f"game-{game.public_id}",
    )


def game_over(game: Game, seat: int) -> dict[str, Any]:
    """The end of the game as the seat's side sees it: won, lost or drawn, and the score."""
    totals = game.totals
    words: dict[str, object] = {"game": game.public_id}
    if totals is None:  # called off before its end: no score to tell
        body = _("The game was called off before its end.")
    else:
        side = seat % 2
        words |= {"ours": totals[side], "theirs": totals[1 - side]}
        if game.winner is None:
            body = _("A draw: %(ours)s to %(theirs)s.") % words
        elif game.winner == side:
            body = _("Your side won, %(ours)s to %(theirs)s.") % words
        else:
            body = _("Your side lost, %(ours)s to %(theirs)s.") % words
    return payload(
        title=_("Game %(game)s is over") % words,
        body=body,
        url=table_url(game),
        tag=f"game-{game.public_id}",
    )


def round_started(game: Game, *, tournament: str, round_number: int, table: int) -> dict[str, Any]:
    """A tournament's round has started, and this is the person's table in it."""
    words = {
        "tournament": tournament,
        "round": round_number,
        "table": table,
        "game": game.public_id,
    }
    return payload(
        title=_("Round %(round)s of %(tournament)s has started") % words,
        body=_("You play at table %(table)s: game %(game)s.") % words,
        url=table_url(game),
        tag=f"game-{game.public_id}",
    )


BODY_MAX = 300  # a push is a glance: the page it opens says the rest


def notice(*, kind: str, title: str, body: str, game: Game | None) -> dict[str, Any]:
    """One of the clock's notices, in the words the clock wrote (the recipient's language).

    An invitation opens My games (where it is accepted or declined), anything else about a
    game its table, anything else the notifications page."""
    if body and len(body) > BODY_MAX:
        body = body[: BODY_MAX - 1].rsplit(" ", 1)[0] + "…"
    if kind == "invitation":
        url = reverse("my-games")
    elif game is not None:
        url = table_url(game)
    else:
        url = reverse("clock:notifications")
    tag = f"{kind}-{game.public_id}" if game is not None else kind
    return payload(title=title, body=body, url=url, tag=tag)
