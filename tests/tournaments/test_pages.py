"""The tournament pages (server-rendered) and the link from a game to its event."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game
from tests.factories import PlayerFactory
from tests.tournaments.helpers import end_game, event, pairs
from tournaments import services

pytestmark = pytest.mark.django_db


def test_list_and_event_pages_show_rounds_results_and_standings() -> None:
    t = event(name="Tuesday Swiss", rounds=1)
    entrants = pairs(t, 2)
    services.tournament_start(tournament_id=t.pk, by=t.organiser)
    game = Game.objects.get(tournament_table__round__tournament=t)
    end_game(game, totals=(130, 70))
    c = Client()
    listing = c.get("/tournaments/").content.decode()
    assert "Tuesday Swiss" in listing
    page = c.get(f"/tournaments/{t.pk}/").content.decode()
    assert "Standings (final)" in page and 'id="round-1"' in page
    assert game.public_id in page and "130 – 70" in page
    assert entrants[0].player_a.name in page
    # The game's pages link back to the event and round.
    record_page = c.get(f"/ladder/games/{game.public_id}/").content.decode()
    assert (
        f"/tournaments/{t.pk}/#round-1" in record_page and "Tuesday Swiss, round 1" in record_page
    )
    c.force_login(PlayerFactory().user)
    table_page = c.get(f"/games/{game.public_id}/").content.decode()
    assert f"/tournaments/{t.pk}/#round-1" in table_page and "Tuesday Swiss, round 1" in table_page


def test_registering_through_the_page() -> None:
    t = event(name="Open pairs")
    me, partner = PlayerFactory(), PlayerFactory()
    c = Client()
    c.force_login(me.user)
    c.post(f"/tournaments/{t.pk}/register/", {"partner": partner.name})
    assert t.entrants.get().player_b == partner
    page = c.get(f"/tournaments/{t.pk}/").content.decode()
    assert f"waiting for {partner.name} to confirm" in page


def test_a_game_keeps_its_event_part_after_moves_and_others_pay_nothing_for_it(
    django_assert_num_queries,  # type: ignore[no-untyped-def]
) -> None:
    from games import extensions
    from games.services import game_create

    t = event(name="Tuesday Swiss", rounds=1)
    pairs(t, 2)
    services.tournament_start(tournament_id=t.pk, by=t.organiser)
    in_event = Game.objects.get(tournament_table__round__tournament=t)
    outside = game_create(creator=t.organiser, seats=[PlayerFactory() for _ in range(4)])
    Game.objects.filter(pk__in=[in_event.pk, outside.pk]).update(move_count=5)  # under way
    in_event.refresh_from_db()
    outside.refresh_from_db()
    for _ in range(2):
        part = extensions.game_part("tournament", in_event)
        assert (part["id"], part["name"], part["round"]) == (t.pk, "Tuesday Swiss", 1)
    assert extensions.game_part("tournament", outside) is None
    with django_assert_num_queries(0):  # remembered: a game under way never joins an event
        assert extensions.game_part("tournament", outside) is None
