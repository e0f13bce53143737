"""The record page's "Fork this hand" form (games.forks): shown to a signed-in reader of a
finished game whose record is public; posted to :func:`games.web.views.fork`."""

from __future__ import annotations

from typing import Any

from accounts.services import player_for_user
from games import dealsets, selectors
from games.models import Game, GameStatus
from games.web.forms import ForkForm


def forkable(game: Game) -> bool:
    """Whether the page offers the form (the service checks again on posting)."""
    return (
        game.status == GameStatus.FINISHED and game.move_count > 0 and dealsets.seed_is_public(game)
    )


def fork_form(game: Game, user: Any, data: Any = None) -> ForkForm | None:
    """The form for ``user`` (None for a reader not signed in, or a game not forkable)."""
    if not getattr(user, "is_authenticated", False) or not forkable(game):
        return None
    return ForkForm(
        data,
        me=player_for_user(user),
        starts=selectors.deal_starts(game=game),
        candidates=selectors.fork_candidates(user=user),
    )
