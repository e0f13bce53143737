"""An arena pair is one deal set (docs/rules.md §8, docs/arena.md): the first game to finish
does not show the seed the other still plays; both play the duplicate rule (§4)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from bots.arena.services import pair_start
from games.selectors import seed_is_public
from tests.bots.arena.helpers import entered_bot, finish
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_an_arena_pairs_seed_waits_for_its_second_game() -> None:
    bots = [entered_bot(f"Pairbot-{i}") for i in range(4)]
    pair = pair_start(bot_ids=[b.pk for b in bots])
    assert pair is not None
    a, b = pair.game_a, pair.game_b
    assert a.deal_set_id == b.deal_set_id is not None and a.seed == b.seed == pair.seed
    assert a.schedule.redeal is False and b.schedule.redeal is False
    watcher = APIClient()
    watcher.force_authenticate(UserFactory())

    finish(a, (120, 80))
    a.refresh_from_db()
    assert not seed_is_public(game=a)
    for path in (f"/api/v1/games/{a.public_id}/", f"/api/v1/arena/bots/{bots[0].player.name}/"):
        assert pair.seed not in watcher.get(path).content.decode()
    assert pair.seed not in APIClient().get(f"/games/{a.public_id}/record/").content.decode()
    # Its seed-mate plays on: anyone but its players is told there is no such game.
    assert watcher.get(f"/api/v1/games/{a.public_id}/").json()["code"] == "game_not_found"

    finish(b, (90, 100))
    assert seed_is_public(game=a)
    assert watcher.get(f"/api/v1/games/{a.public_id}/").json()["seed"] == pair.seed
