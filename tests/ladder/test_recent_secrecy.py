"""A player's recent games leave out the games dealt from cards others may still be
playing (a daylong's or a duplicate round's deal set whose seed is not yet public)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from games.models import Game, GameStatus
from games.services import deal_set_close, deal_set_create, game_create
from ladder import selectors
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def _finish(game: Game) -> None:
    Game.objects.filter(pk=game.pk).update(
        status=GameStatus.FINISHED, total_0=40, total_1=10, winner=0, finished_at=timezone.now()
    )


def test_a_shared_deal_shows_in_recent_games_only_once_its_seed_is_public() -> None:
    a, b = [PlayerFactory() for _ in range(4)], [PlayerFactory() for _ in range(4)]
    shared = deal_set_create(kind="daylong", closed=False)
    mine = game_create(creator=a[0], seats=a, deal_set=shared)
    theirs = game_create(creator=b[0], seats=b, deal_set=shared)
    alone = game_create(creator=a[0], seats=a)
    _finish(mine)
    _finish(alone)

    def listed() -> set[int]:
        return {r.game.pk for r in selectors.recent_games(a[0])}

    assert listed() == {alone.pk}  # the other table still plays these cards
    _finish(theirs)
    assert listed() == {alone.pk}  # every table over, but more may join the open set
    deal_set_close(deal_set_id=shared.pk)
    assert listed() == {alone.pk, mine.pk}
