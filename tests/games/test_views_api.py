"""Reading a game: seat views, spectators, legal actions, the record, the schema, admin."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import PlayerFactory, UserFactory
from tests.games.conftest import Table, client_for
from tests.games.helpers import play

pytestmark = pytest.mark.django_db


def test_a_seat_sees_its_hand_and_a_spectator_sees_none(table: Table) -> None:
    views = [table.clients[s].get(table.url()).json() for s in range(4)]
    hands = [set(v["view"]["hand"]) for v in views]
    assert all(len(h) == 13 for h in hands)
    assert len(set().union(*hands)) == 52  # four different hands
    spectator = client_for(PlayerFactory().user).get(table.url()).json()
    assert spectator["your_seat"] is None and spectator["view"]["hand"] is None
    assert spectator["seed"] is None and spectator["view"]["legal_actions"] == []


def test_legal_actions_only_on_your_turn(table: Table) -> None:
    to_act = table.to_act()
    mine = table.clients[to_act].get(table.url("legal/")).json()
    assert mine["seat"] == to_act and mine["to_act"] == to_act
    assert {"bid": "pass"} in mine["actions"] and "pass" in mine["text"]
    other = table.clients[(to_act + 1) % 4].get(table.url("legal/")).json()
    assert other["actions"] == [] and other["to_act"] == to_act
    stranger = client_for(PlayerFactory().user).get(table.url("legal/")).json()
    assert stranger["seat"] is None and stranger["actions"] == []


def test_the_record_for_a_seat_hides_other_hands_until_the_end(table: Table) -> None:
    play(table.game, 20)
    record = table.clients[1].get(table.url("record/")).json()
    assert record["format"] == "backalley-record" and record["seed"] is None
    assert record["players"] == [p.name for p in table.players]
    assert record["result"] is None and record["game"] == table.game_id
    for deal in record["deals"]:
        assert [h is not None for h in deal["hands"]] == [False, True, False, False]
    spectator = client_for(PlayerFactory().user).get(table.url("record/")).json()
    assert all(h is None for d in spectator["deals"] for h in d["hands"])


def test_the_record_of_a_game_not_started_is_404() -> None:
    alice = PlayerFactory()
    gid = (
        client_for(alice.user)
        .post("/api/v1/games/", {"seats": [{"kind": "me"}] + [{"kind": "open"}] * 3}, format="json")
        .json()["id"]
    )
    r = client_for(alice.user).get(f"/api/v1/games/{gid}/record/")
    assert (r.status_code, r.json()["code"]) == (404, "game_not_found")


def test_the_schema_documents_the_play_api(client: Any) -> None:
    schema = client.get("/api/schema/").content.decode()
    for path in (
        "/api/v1/games/",
        "/api/v1/games/open/",
        "/api/v1/games/mine/",
        "/api/v1/games/{public_id}/moves/",
        "/api/v1/games/{public_id}/events/",
        "/api/v1/games/{public_id}/events/stream/",
        "/api/v1/games/{public_id}/record/",
        "/api/v1/games/{public_id}/legal/",
        "/api/v1/games/{public_id}/seats/",
    ):
        assert path in schema


def test_admin_pages_load(table: Table) -> None:
    admin = UserFactory(is_staff=True, is_superuser=True)
    c = client_for(admin)
    c.force_login(admin)
    game = table.game
    for url in (
        "/admin/games/game/",
        f"/admin/games/game/{game.pk}/change/",
        "/admin/games/team/",
        "/admin/games/seat/",
        "/admin/games/seededdeal/",
        "/admin/games/move/",
    ):
        assert c.get(url).status_code == 200, url
