"""The daylongs API: each endpoint, its errors, and what a reader may see (no result of a
board before finishing it, no seed of an open deal set); the bots' turns and the scoring run
eagerly on commit, as the worker would run them."""

from __future__ import annotations

import json
from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import Player
from bots.house import house_bots_ensure, house_players
from daylong import services
from daylong.models import BoardInstance, Event, Table, TableStatus
from tests.daylong.helpers import event, hosted_bot, play_moves, play_out
from tests.factories import ApiTokenFactory, PlayerFactory, auth_header

pytestmark = pytest.mark.django_db(transaction=True)

API = "/api/v1/daylong"


@pytest.fixture
def house() -> None:
    house_bots_ensure()


def client_of(player: Player) -> APIClient:
    c = APIClient()
    c.force_login(player.user)
    return c


def token_client(player: Player, scopes: list[str], **fields: Any) -> APIClient:
    user = player.user if player.user_id else player.owner
    token = ApiTokenFactory(user=user, scopes=scopes, **fields)
    c = APIClient()
    c.credentials(**auth_header(token))
    return c


def code_of(r: Any) -> tuple[int, str]:
    return r.status_code, r.json()["code"]


def finish_next(ev: Event, c: APIClient) -> Table:
    """Play the caller's next board to its end through the play endpoint."""
    r = c.post(f"{API}/{ev.pk}/play/", {}, format="json")
    assert r.status_code == 200, r.content
    table = Table.objects.select_related("game").get(game__public_id=r.json()["game"])
    play_out(table.game)
    table.refresh_from_db()
    assert table.status == TableStatus.FINISHED
    return table


def close(ev: Event) -> None:
    Event.objects.filter(pk=ev.pk).update(
        starts_at=timezone.now() - timedelta(days=1, minutes=1),
        ends_at=timezone.now() - timedelta(minutes=1),
    )
    assert services.event_close(event_id=ev.pk) == "closed"


def test_the_list_and_a_detail_are_public_and_the_detail_tells_the_reader_their_entry(
    house,
) -> None:  # type: ignore[no-untyped-def]
    ev = event()
    anon = APIClient()
    listed = anon.get(f"{API}/").json()
    assert [e["id"] for e in listed["results"]] == [ev.pk]
    assert listed["results"][0] | {"starts_at": None, "ends_at": None} == {
        "id": ev.pk,
        "title": "Test daylong",
        "state": "open",
        "starts_at": None,
        "ends_at": None,
        "closed_at": None,
        "daily_for": None,
        "partner_strength": "easy",
        "opponent_strength": "easy",
        "rated": False,
        "pool_size": 2,
        "boards": 2,
        "entries": 0,
    }
    detail = anon.get(f"{API}/{ev.pk}/").json()
    assert detail["board_list"] == [
        {"number": 1, "deals": {"first": 13, "last": 13}},
        {"number": 2, "deals": {"first": 12, "last": 14}},
    ]
    assert detail["mine"] is None

    me = PlayerFactory()
    c = client_of(me)
    assert c.get(f"{API}/{ev.pk}/").json()["mine"] == {
        "player": me.name,
        "entered": False,
        "next_board": None,
        "playing": None,
    }
    assert c.post(f"{API}/{ev.pk}/enter/", {}, format="json").status_code == 201
    assert c.get(f"{API}/{ev.pk}/").json()["mine"]["next_board"] == 1
    game = c.post(f"{API}/{ev.pk}/play/", {}, format="json").json()["game"]
    mine = c.get(f"{API}/{ev.pk}/").json()["mine"]
    assert (mine["entered"], mine["next_board"], mine["playing"]) == (True, 1, game)
    assert code_of(anon.get(f"{API}/999999/")) == (404, "daylong_not_found")


def test_entering_once_a_person_or_their_bot_and_the_errors(house) -> None:  # type: ignore[no-untyped-def]
    ev = event()
    me = PlayerFactory()
    c = client_of(me)
    r = c.post(f"{API}/{ev.pk}/enter/", {}, format="json")
    assert r.status_code == 201 and r.json()["player"] == me.name
    assert code_of(c.post(f"{API}/{ev.pk}/enter/", {}, format="json")) == (409, "already_entered")
    assert code_of(c.post(f"{API}/999999/enter/", {}, format="json")) == (
        404,
        "daylong_not_found",
    )
    # A bot, with its owner's bot token; someone else's bot, a house bot: refused.
    bot = hosted_bot(owner=me.user)
    by_bot = token_client(me, ["bot"])
    r = by_bot.post(f"{API}/{ev.pk}/enter/", {"player": bot.name}, format="json")
    assert r.status_code == 201 and r.json()["player"] == bot.name
    stranger = hosted_bot()
    assert code_of(c.post(f"{API}/{ev.pk}/enter/", {"player": stranger.name}, format="json")) == (
        403,
        "not_your_player",
    )
    assert code_of(c.post(f"{API}/{ev.pk}/enter/", {"player": "nobody-at-all"}, format="json")) == (
        400,
        "unknown_player",
    )
    # A read token cannot enter; a bot token cannot enter its owner.
    assert code_of(token_client(me, ["read"]).post(f"{API}/{ev.pk}/enter/", {})) == (
        403,
        "insufficient_scope",
    )
    house_bot = house_players(strength="easy", count=1)[0]
    assert code_of(c.post(f"{API}/{ev.pk}/enter/", {"player": house_bot.name}, format="json")) == (
        403,
        "not_your_player",
    )
    # Closed or not yet open.
    later = event(starts_at=timezone.now() + timedelta(hours=1))
    assert code_of(c.post(f"{API}/{later.pk}/enter/", {}, format="json")) == (
        409,
        "daylong_not_open",
    )
    close(ev)
    other = client_of(PlayerFactory())
    assert code_of(other.post(f"{API}/{ev.pk}/enter/", {}, format="json")) == (
        409,
        "daylong_not_open",
    )


def test_play_gives_the_same_table_until_its_board_is_finished_then_the_next(house, eager) -> None:  # type: ignore[no-untyped-def]
    ev = event()
    me = PlayerFactory()
    c = client_of(me)
    assert code_of(c.post(f"{API}/{ev.pk}/play/", {}, format="json")) == (404, "not_entered")
    c.post(f"{API}/{ev.pk}/enter/", {}, format="json")
    first = c.post(f"{API}/{ev.pk}/play/", {}, format="json").json()
    assert first["board"] == 1 and first["deals"] == {"first": 13, "last": 13}
    assert first["game_url"] == f"/api/v1/games/{first['game']}/"
    table = Table.objects.select_related("game").get(game__public_id=first["game"])
    play_moves(table.game, 1)  # leave mid-board, come back to the same table
    assert c.post(f"{API}/{ev.pk}/play/", {}, format="json").json() == first
    play_out(table.game)
    second = c.post(f"{API}/{ev.pk}/play/", {}, format="json").json()
    assert second["board"] == 2 and second["game"] != first["game"]
    play_out(Table.objects.get(game__public_id=second["game"]).game)
    assert code_of(c.post(f"{API}/{ev.pk}/play/", {}, format="json")) == (
        409,
        "all_boards_played",
    )


def test_the_standings_count_only_the_boards_the_reader_has_ended(
    house, eager, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    """A reader who has ended board 1 only sees every entrant's percentage over board 1,
    never a figure that board 2's results moved; a reader who has ended none sees none."""
    monkeypatch.setattr(services, "choose_instance", lambda instances: instances[0])
    ev = event(pool_size=1)
    ahead, behind, fresh = (PlayerFactory() for _ in range(3))
    clients = {p.pk: client_of(p) for p in (ahead, behind, fresh)}
    for c in clients.values():
        c.post(f"{API}/{ev.pk}/enter/", {}, format="json")
    a1 = finish_next(ev, clients[ahead.pk])
    b1 = finish_next(ev, clients[behind.pk])
    a2 = finish_next(ev, clients[ahead.pk])
    a1.refresh_from_db()
    b1.refresh_from_db()

    def lines(c: APIClient) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        body = c.get(f"{API}/{ev.pk}/standings/").json()
        return body, {ln["player"]: ln for ln in body["lines"]}

    body, by_name = lines(clients[behind.pk])
    assert (body["final"], body["counted_boards"]) == (False, [1])
    assert by_name[ahead.name]["percent"] == f"{a1.percent:.2f}"  # board 1 only
    assert by_name[ahead.name]["boards"] == 1 and by_name[ahead.name]["ended"] == 2
    assert by_name[behind.name]["percent"] == f"{b1.percent:.2f}"
    assert by_name[fresh.name] | {"rank": 0} == {
        "rank": 0,
        "player": fresh.name,
        "is_bot": False,
        "boards": 0,
        "ended": 0,
        "percent": None,
    }
    # The one who has ended both boards: both counted.
    body, by_name = lines(clients[ahead.pk])
    assert body["counted_boards"] == [1, 2]
    want = (a1.percent + a2.percent) / 2
    assert by_name[ahead.name]["percent"] == f"{want.quantize(Decimal('0.01')):.2f}"
    # Nobody who has ended nothing (entered, anonymous, a stranger) sees a percentage.
    for c in (clients[fresh.pk], APIClient(), client_of(PlayerFactory())):
        body, by_name = lines(c)
        assert body["counted_boards"] == []
        assert {ln["percent"] for ln in body["lines"]} == {None}
        assert {ln["rank"] for ln in body["lines"]} == {None}
    # Once closed: final, every board for everyone.
    close(ev)
    body, by_name = lines(APIClient())
    assert (body["final"], body["counted_boards"]) == (True, [1, 2])
    assert by_name[ahead.name]["percent"] == f"{want.quantize(Decimal('0.01')):.2f}"
    assert by_name[behind.name]["percent"] == f"{b1.percent:.2f}"
    assert by_name[fresh.name]["percent"] is None


def test_the_breakdown_shows_a_result_only_for_a_board_ended(house, eager) -> None:  # type: ignore[no-untyped-def]
    ev = event(pool_size=1)
    me, rival = PlayerFactory(), PlayerFactory()
    c = client_of(me)
    assert code_of(c.get(f"{API}/{ev.pk}/breakdown/")) == (404, "not_entered")
    assert APIClient().get(f"{API}/{ev.pk}/breakdown/").status_code == 401
    for p in (me, rival):
        client_of(p).post(f"{API}/{ev.pk}/enter/", {}, format="json")
    rival_table = finish_next(ev, client_of(rival))
    mine = finish_next(ev, c)
    c.post(f"{API}/{ev.pk}/play/", {}, format="json")  # board 2 being played
    rival_table.refresh_from_db()
    body = c.get(f"{API}/{ev.pk}/breakdown/").json()
    assert body["player"] == me.name
    one, two = body["boards"]
    assert (one["status"], one["score"], one["instance"]) == ("finished", mine.total, 1)
    assert one["top"] == "2.00" and one["field_tables"] == 2
    assert one["field_best"] == max(mine.total or 0, rival_table.total or 0)
    avg = Decimal((mine.total or 0) + (rival_table.total or 0)) / 2
    assert one["field_average"] == f"{avg.quantize(Decimal('0.01')):.2f}"
    assert one["percent"] == f"{mine.percent:.2f}"
    assert two["status"] == "playing" and two["game"] is not None
    assert all(two[k] is None for k in ("instance", "score", "percent", "field_best"))
    # Someone else's breakdown: refused.
    assert code_of(c.get(f"{API}/{ev.pk}/breakdown/", {"player": rival.name})) == (
        403,
        "not_your_player",
    )


def test_a_token_made_for_one_bot_reads_and_plays_for_that_bot_only(house, eager) -> None:  # type: ignore[no-untyped-def]
    ev = event()
    owner = PlayerFactory()
    bot, other = hosted_bot(owner=owner.user), hosted_bot(owner=owner.user)
    one_bot = token_client(owner, ["bot"], bot=bot)
    r = one_bot.post(f"{API}/{ev.pk}/enter/", {"player": bot.name}, format="json")
    assert r.status_code == 201
    assert code_of(
        one_bot.post(f"{API}/{ev.pk}/enter/", {"player": other.name}, format="json")
    ) == (
        403,
        "insufficient_scope",
    )
    assert code_of(one_bot.post(f"{API}/{ev.pk}/enter/", {}, format="json")) == (
        403,
        "insufficient_scope",
    )
    r = one_bot.post(f"{API}/{ev.pk}/play/", {"player": bot.name}, format="json")
    assert r.status_code == 200  # a hosted bot plays its board by itself
    body = one_bot.get(f"{API}/{ev.pk}/breakdown/").json()
    assert body["player"] == bot.name and body["boards"][0]["status"] == "finished"
    assert one_bot.get(f"{API}/{ev.pk}/").json()["mine"]["player"] == bot.name
    assert code_of(one_bot.get(f"{API}/{ev.pk}/breakdown/", {"player": other.name})) == (
        403,
        "not_your_player",
    )
    standings = one_bot.get(f"{API}/{ev.pk}/standings/").json()
    assert standings["counted_boards"] == [1]


def test_no_seed_is_shown_until_the_window_closes_then_every_table_with_its_seed(
    house, eager, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(services, "choose_instance", lambda instances: instances[0])
    ev = event(pool_size=1)
    done, halfway = PlayerFactory(), PlayerFactory()
    for p in (done, halfway):
        client_of(p).post(f"{API}/{ev.pk}/enter/", {}, format="json")
    finished = finish_next(ev, client_of(done))
    open_game = client_of(halfway).post(f"{API}/{ev.pk}/play/", {}, format="json").json()["game"]
    seeds = list(
        BoardInstance.objects.filter(board__event=ev).values_list("deal_set__seed", flat=True)
    )

    anon, c = APIClient(), client_of(done)
    assert code_of(anon.get(f"{API}/{ev.pk}/tables/")) == (409, "daylong_still_open")
    seen = "".join(
        json.dumps(client.get(url).json())
        for client in (anon, c)
        for url in (
            f"{API}/",
            f"{API}/{ev.pk}/",
            f"{API}/{ev.pk}/standings/",
            f"{API}/{ev.pk}/tables/",
        )
    ) + json.dumps(c.get(f"{API}/{ev.pk}/breakdown/").json())
    assert not any(seed in seen for seed in seeds)
    # Nor does the list or the standings name anyone's game while the window is open.
    assert open_game not in seen and finished.game.public_id in seen  # (my own breakdown)

    close(ev)
    tables = anon.get(f"{API}/{ev.pk}/tables/").json()
    by_game = {t["game"]: t for t in tables}
    assert set(by_game) == {finished.game.public_id, open_game}
    shown = by_game[finished.game.public_id]
    assert shown["seed"] == finished.instance.deal_set.seed
    assert shown["commitment"] == finished.instance.deal_set.commitment
    assert shown["record_url"] == f"/api/v1/games/{finished.game.public_id}/record/"
    assert (shown["status"], shown["score"], shown["board"]) == ("finished", finished.total, 1)
    called_off = by_game[open_game]
    assert (called_off["status"], called_off["seed"], called_off["percent"]) == (
        "unfinished",
        None,
        "0.00",
    )
    # The record the link names now shows the seed too (games' own rule).
    record = c.get(shown["record_url"])
    assert record.status_code == 200 and shown["seed"] in record.content.decode()
