"""Creating games, open seats, joining, leaving, calling off, and the lists."""

from __future__ import annotations

from typing import Any

import pytest

from backalley_engine import shuffle
from backalley_engine.cards import card_str, mask_to_cards
from games.models import Game, GameStatus, Seat, SeededDeal, Team
from tests.factories import BotPlayerFactory, PlayerFactory
from tests.games.conftest import accept_invitations, client_for, make_table

pytestmark = pytest.mark.django_db


def _create(client: Any, seats: list[dict[str, Any]], **options: Any) -> Any:
    return client.post("/api/v1/games/", {"seats": seats, "options": options}, format="json")


def test_full_table_at_creation_starts_the_game_and_publishes_only_the_commitment() -> None:
    t = make_table(rated=True)
    game = t.game
    assert game.status == GameStatus.ACTIVE and game.rated
    assert len(game.seed) == 64 and game.commitment == shuffle.commitment(game.seed)
    assert game.first_dealer == shuffle.first_dealer(game.seed)
    body = t.clients[1].get(t.url()).json()
    assert body["seed"] is None and body["commitment"] == game.commitment
    assert body["your_seat"] == 1 and len(body["view"]["hand"]) == 13
    assert game.seed not in str(body)
    # Deal 1 is stored for audit as the seed makes it; teams are the partnerships.
    deal = SeededDeal.objects.get(game=game)
    dealt = shuffle.deal_cards(game.seed, 1, 0, game.first_dealer)
    assert (deal.number, deal.attempt, deal.dealer, deal.hand_size) == (1, 0, game.first_dealer, 13)
    assert len(deal.hands) == 4 and all(len(h) == 13 for h in deal.hands)
    assert deal.upcard == card_str(dealt.upcard)
    assert sorted(map(sorted, deal.hands)) == sorted(
        sorted(card_str(c) for c in mask_to_cards(m)) for m in dealt.hands
    )
    assert game.team_0 == Team.objects.get(player_low=min(t.players[0].pk, t.players[2].pk))
    assert {game.team_1.player_low_id, game.team_1.player_high_id} == {
        t.players[1].pk,
        t.players[3].pk,
    }


def test_team_is_one_row_per_pair_across_games() -> None:
    make_table()
    n = Team.objects.count()
    players = list(Seat.objects.order_by("position").values_list("player__name", flat=True))
    # Same four again in a second game: no new teams.
    owner = Seat.objects.get(position=0).player.user
    seats = [{"kind": "me"}] + [{"kind": "player", "name": n} for n in players[1:4]]
    assert _create(client_for(owner), seats).status_code == 201
    assert Team.objects.count() == n == 2


def test_open_seats_join_and_start_when_full() -> None:
    alice, bob, carol, dave = (PlayerFactory() for _ in range(4))
    r = _create(
        client_for(alice.user),
        [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}],
    )
    assert r.status_code == 201
    gid = r.json()["id"]
    assert r.json()["status"] == "waiting" and r.json()["view"] is None
    listed = client_for(bob.user).get("/api/v1/games/open/").json()
    assert [g["id"] for g in listed["results"]] == [gid]
    r = client_for(bob.user).post(f"/api/v1/games/{gid}/seats/", {"position": 2}, format="json")
    assert r.status_code == 201 and r.json()["seats"][2]["player"] == bob.name
    # Taken seat, twice seated.
    r = client_for(carol.user).post(f"/api/v1/games/{gid}/seats/", {"position": 2}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "seat_taken")
    r = client_for(bob.user).post(f"/api/v1/games/{gid}/seats/", {}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "already_seated")
    # Moves before the start.
    r = client_for(alice.user).post(
        f"/api/v1/games/{gid}/moves/", {"action": {"bid": "pass"}, "expected_seq": 0}, format="json"
    )
    assert (r.status_code, r.json()["code"]) == (409, "game_not_started")
    assert (
        client_for(carol.user).post(f"/api/v1/games/{gid}/seats/", {}, format="json").status_code
        == 201
    )
    r = client_for(dave.user).post(f"/api/v1/games/{gid}/seats/", {}, format="json")
    assert r.status_code == 201
    assert r.json()["status"] == "active" and r.json()["your_seat"] == 3
    assert len(r.json()["view"]["hand"]) == 13
    assert client_for(bob.user).get("/api/v1/games/open/").json()["results"] == []
    r = client_for(PlayerFactory().user).post(f"/api/v1/games/{gid}/seats/", {}, format="json")
    assert (r.status_code, r.json()["code"]) == (409, "game_not_waiting")


def test_leave_before_start_then_empty_game_is_aborted() -> None:
    alice, bob = PlayerFactory(), PlayerFactory()
    gid = _create(
        client_for(alice.user),
        [{"kind": "me"}, {"kind": "player", "name": bob.name}, {"kind": "open"}, {"kind": "open"}],
    ).json()["id"]
    accept_invitations(gid, [client_for(bob.user)])
    r = client_for(bob.user).delete(f"/api/v1/games/{gid}/seats/1/")
    assert r.status_code == 200 and r.json()["seats"][1] is None
    r = client_for(bob.user).delete(f"/api/v1/games/{gid}/seats/0/")
    assert (r.status_code, r.json()["code"]) == (403, "not_your_seat")
    r = client_for(alice.user).delete(f"/api/v1/games/{gid}/seats/0/")
    assert r.status_code == 200 and r.json()["status"] == "aborted"


def test_cannot_leave_after_the_start(table: Any) -> None:
    r = table.clients[1].delete(table.url("seats/1/"))
    assert (r.status_code, r.json()["code"]) == (409, "game_not_waiting")


def test_creator_can_call_off_a_waiting_game_and_nobody_else() -> None:
    alice, bob = PlayerFactory(), PlayerFactory()
    gid = _create(
        client_for(alice.user),
        [{"kind": "me"}, {"kind": "open"}, {"kind": "player", "name": bob.name}, {"kind": "open"}],
    ).json()["id"]
    r = client_for(bob.user).post(f"/api/v1/games/{gid}/abort/")
    assert (r.status_code, r.json()["code"]) == (403, "not_your_seat")
    r = client_for(alice.user).post(f"/api/v1/games/{gid}/abort/")
    assert r.status_code == 200 and r.json()["status"] == "aborted"
    r = client_for(alice.user).post(f"/api/v1/games/{gid}/abort/")
    assert (r.status_code, r.json()["code"]) == (409, "game_not_waiting")


def test_bots_by_name_and_own_bot_takes_a_seat() -> None:
    alice = PlayerFactory()
    bot = BotPlayerFactory(owner=alice.user)
    other_bot = BotPlayerFactory()
    r = _create(
        client_for(alice.user),
        [
            {"kind": "me"},
            {"kind": "bot", "name": other_bot.name},
            {"kind": "open"},
            {"kind": "open"},
        ],
        rated=False,  # alice and her own bot at one table: allowed unrated only
    )
    # Another owner's bot is invited, not seated.
    assert r.status_code == 201 and r.json()["seats"][1] is None
    assert r.json()["invited"][0]["player"] == other_bot.name
    assert r.json()["invited"][0]["is_bot"] is True
    gid = r.json()["id"]
    r = client_for(alice.user).post(
        f"/api/v1/games/{gid}/seats/", {"bot": other_bot.name}, format="json"
    )
    assert (r.status_code, r.json()["code"]) == (403, "not_your_seat")
    r = client_for(alice.user).post(
        f"/api/v1/games/{gid}/seats/", {"bot": bot.name, "position": 3}, format="json"
    )
    assert r.status_code == 201 and r.json()["seats"][3]["player"] == bot.name
    assert r.json()["your_seat"] == 3


@pytest.mark.parametrize(
    ("seats", "code"),
    [
        ([{"kind": "me"}] * 2 + [{"kind": "open"}] * 2, "bad_game_setup"),
        ([{"kind": "me"}] + [{"kind": "open"}] * 2, "invalid"),
        (
            [{"kind": "me"}, {"kind": "player", "name": "nobody-here"}] + [{"kind": "open"}] * 2,
            "unknown_player",
        ),
        ([{"kind": "me"}, {"kind": "player"}] + [{"kind": "open"}] * 2, "invalid"),
        ([{"kind": "me"}, {"kind": "chair"}] + [{"kind": "open"}] * 2, "invalid"),
        ("me", "invalid"),
    ],
)
def test_bad_creation_input_is_refused_and_writes_nothing(seats: Any, code: str) -> None:
    alice = PlayerFactory()
    r = _create(client_for(alice.user), seats)
    assert r.status_code in (400, 409) and r.json()["code"] == code, r.content
    assert r.json()["message"]
    assert Game.objects.count() == 0


def test_a_bot_name_given_as_player_is_unknown() -> None:
    alice, bot = PlayerFactory(), BotPlayerFactory()
    r = _create(
        client_for(alice.user),
        [{"kind": "me"}, {"kind": "player", "name": bot.name}] + [{"kind": "open"}] * 2,
    )
    assert (r.status_code, r.json()["code"]) == (400, "unknown_player")


def test_bad_options_are_refused() -> None:
    alice = PlayerFactory()
    r = _create(
        client_for(alice.user),
        [{"kind": "me"}] + [{"kind": "open"}] * 3,
        time_control={"days_per_move": 99},
    )
    assert r.status_code == 400 and r.json()["code"] == "bad_game_setup"
    r = _create(client_for(alice.user), [{"kind": "me"}] + [{"kind": "open"}] * 3, rated="maybe")
    assert r.status_code == 400
    assert Game.objects.count() == 0
    r = _create(
        client_for(alice.user),
        [{"kind": "me"}] + [{"kind": "open"}] * 3,
        time_control={"days_per_move": 3},
    )
    assert r.status_code == 201
    assert Game.objects.get().options == {
        "rated": True,  # the default, as on the site
        "time_control": {"days_per_move": 3, "reserve_days": 0},
    }


def test_anonymous_callers_are_refused(client: Any, table: Any) -> None:
    for url in ("/api/v1/games/open/", "/api/v1/games/mine/", table.url(), table.url("legal/")):
        r = client.get(url)
        assert r.status_code in (401, 403) and r.json()["code"] == "not_authenticated"


def test_unknown_game_is_404(table: Any) -> None:
    r = table.clients[0].get("/api/v1/games/g_nope/")
    assert (r.status_code, r.json()["code"]) == (404, "game_not_found")


def _seated_game(alice: Any, offset: int, fill: bool = True) -> str:
    """A game with ``alice`` at (first dealer + offset): offset 1 is the first to act."""
    from games.services import game_create

    # The service, not the API: a game created through the API seats its creator.
    game = game_create(creator=PlayerFactory(), seats=[None] * 4)
    gid, first_dealer = game.public_id, game.first_dealer
    mine = (first_dealer + offset) % 4
    assert (
        client_for(alice.user)
        .post(f"/api/v1/games/{gid}/seats/", {"position": mine}, format="json")
        .status_code
        == 201
    )
    for pos in range(4 if fill else 2):
        if pos != mine:
            other = PlayerFactory()
            client_for(other.user).post(
                f"/api/v1/games/{gid}/seats/", {"position": pos}, format="json"
            )
    return gid


def test_my_games_lists_those_waiting_on_me_first() -> None:
    alice = PlayerFactory()
    waiting_for_players = _seated_game(alice, 1, fill=False)
    not_my_turn = _seated_game(alice, 2)
    my_turn = _seated_game(alice, 1)
    _seated_game(PlayerFactory(), 1)  # not alice's
    mine = client_for(alice.user).get("/api/v1/games/mine/").json()["results"]
    assert [g["id"] for g in mine] == [my_turn, not_my_turn, waiting_for_players]
    assert [g["waiting_on_me"] for g in mine] == [True, False, False]
    assert [g["status"] for g in mine] == ["active", "active", "waiting"]
    active = client_for(alice.user).get("/api/v1/games/mine/?status=active").json()["results"]
    assert [g["id"] for g in active] == [my_turn, not_my_turn]
    assert client_for(alice.user).get("/api/v1/games/mine/?status=finished").json()["results"] == []
    r = client_for(alice.user).get("/api/v1/games/mine/?status=bogus")
    assert (r.status_code, r.json()["code"]) == (400, "bad_parameter")


def test_a_rated_game_allows_one_seat_per_account_counting_bots() -> None:
    alice = PlayerFactory()
    bot = BotPlayerFactory(owner=alice.user)
    seats = [{"kind": "me"}, {"kind": "bot", "name": bot.name}] + [{"kind": "open"}] * 2
    r = _create(client_for(alice.user), seats, rated=True)
    assert (r.status_code, r.json()["code"]) == (400, "one_seat_per_account")
    assert Game.objects.count() == 0
    r = _create(client_for(alice.user), [{"kind": "me"}] + [{"kind": "open"}] * 3, rated=True)
    gid = r.json()["id"]
    r = client_for(alice.user).post(f"/api/v1/games/{gid}/seats/", {"bot": bot.name}, format="json")
    assert (r.status_code, r.json()["code"]) == (400, "one_seat_per_account")
    # Unrated games allow it (practice with your own bot).
    assert _create(client_for(alice.user), seats, rated=False).status_code == 201


def test_a_given_seed_deals_the_same_cards_to_every_game_that_shares_it() -> None:
    """Duplicate events seat several tables on one seed: the service takes it as given."""
    from games.errors import BadGameSetup
    from games.services import game_create

    players = [PlayerFactory() for _ in range(8)]
    seed = "ab" * 32
    first = game_create(creator=players[0], seats=players[:4], seed=seed)
    second = game_create(creator=players[4], seats=players[4:], seed=seed)
    assert first.seed == second.seed == seed and first.commitment == second.commitment
    hands = [SeededDeal.objects.get(game=g).hands for g in (first, second)]
    assert hands[0] == hands[1]
    with pytest.raises(BadGameSetup):
        game_create(creator=players[0], seats=[players[0], None, None, None], seed="XYZ")
    assert Game.objects.count() == 2
