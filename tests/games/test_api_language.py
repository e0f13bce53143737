"""API errors: the message in the request's language, the code never changed."""

from __future__ import annotations

import pytest
from django.test import Client

from backalley_engine.cards import parse_card
from games import statecache
from tests.factories import ApiTokenFactory, auth_header
from tests.games.conftest import make_table

pytestmark = pytest.mark.django_db


def _post_move(client: Client, token: object, game_id: str, body: dict, lang: str) -> dict:
    r = client.post(
        f"/api/v1/games/{game_id}/moves/",
        body,
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE=lang,
        **auth_header(token),  # type: ignore[arg-type]
    )
    assert r.status_code >= 400
    return {"status": r.status_code, **r.json()}


def test_an_illegal_move_is_refused_in_lithuanian_with_the_same_code() -> None:
    table = make_table()
    state = statecache.state_for(table.game)
    seat = state.seat_to_act
    assert seat is not None and state.phase == "bidding"
    token = ApiTokenFactory(user=table.players[seat].user)
    card = state.view(seat)["hand"][0]
    body = {"action": {"card": card}, "expected_seq": state.move_count, "seat": seat}
    english = _post_move(Client(), token, table.game_id, body, "en")
    lithuanian = _post_move(Client(), token, table.game_id, body, "lt-LT,lt;q=0.9")
    assert lithuanian["code"] == english["code"] == "wrong_phase"
    assert lithuanian["status"] == english["status"]
    assert english["message"] == "Bidding is not over yet: bid before playing a card."
    assert lithuanian["message"] == "Užsakymai dar nebaigti: prieš dėdami kortą, užsakykite."
    assert lithuanian["extra"] == english["extra"]
    parse_card(card)  # the card the refusal was about is the seat's own


def test_a_move_out_of_turn_is_refused_in_swedish_and_gujarati() -> None:
    table = make_table()
    state = statecache.state_for(table.game)
    seat = (state.seat_to_act + 1) % 4  # type: ignore[operator]
    token = ApiTokenFactory(user=table.players[seat].user)
    body = {"action": {"bid": "pass"}, "expected_seq": state.move_count, "seat": seat}
    english = _post_move(Client(), token, table.game_id, body, "en")
    swedish = _post_move(Client(), token, table.game_id, body, "sv")
    gujarati = _post_move(Client(), token, table.game_id, body, "gu")
    assert english["code"] == swedish["code"] == gujarati["code"] == "not_your_turn"
    assert swedish["message"].startswith("Det är plats ")
    assert gujarati["message"].startswith("હવે બેઠક ")
    assert english["message"] != swedish["message"] != gujarati["message"]


def test_a_domain_error_of_a_service_is_translated_where_it_is_raised() -> None:
    token = ApiTokenFactory()
    r = Client().get("/api/v1/games/g_nosuchgame/", HTTP_ACCEPT_LANGUAGE="lt", **auth_header(token))
    assert r.status_code == 404
    assert r.json()["code"] in ("game_not_found", "not_found")
    assert "nėra" in r.json()["message"]


def test_the_schema_and_its_docs_stay_english(client: Client) -> None:
    english = client.get("/api/schema/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    for lang in ("lt", "sv", "gu"):
        assert client.get("/api/schema/", HTTP_ACCEPT_LANGUAGE=lang).content.decode() == english
    assert "`waiting` - Waiting for players" in english
    docs = client.get("/api/docs/", HTTP_ACCEPT_LANGUAGE="sv")
    assert docs.status_code == 200 and '<html lang="sv"' not in docs.content.decode()
