"""manage.py verify_games: a sound game passes; each kind of tampering is reported."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from backalley_engine.actions import PASS, bid_action
from games.models import Game, Move, SeededDeal
from tests.games.conftest import make_table
from tests.games.helpers import play

pytestmark = pytest.mark.django_db


def _verify() -> str:
    out = StringIO()
    call_command("verify_games", stdout=out)
    return out.getvalue()


def _fails() -> str:
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("verify_games", stdout=out)
    return out.getvalue()


@pytest.fixture
def game() -> Game:
    return play(make_table().game, 30)


def test_sound_games_pass(game: Game) -> None:
    assert "verified 1 game(s): 0 with problems" in _verify()


def test_a_changed_move_is_reported(game: Game) -> None:
    move = Move.objects.get(game=game, seq=1)
    new = PASS if move.action_code != PASS else bid_action(1)
    Move.objects.filter(pk=move.pk).update(
        action_code=new, action={"bid": "pass" if new == PASS else 1}
    )
    out = _fails()
    assert game.public_id in out


def test_a_gap_in_the_log_is_reported(game: Game) -> None:
    Move.objects.filter(game=game, seq=5).delete()
    assert "gap" in _fails()


def test_a_tampered_deal_is_reported(game: Game) -> None:
    deal = SeededDeal.objects.filter(game=game).first()
    hands = deal.hands
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    SeededDeal.objects.filter(pk=deal.pk).update(hands=hands)
    assert "stored deals differ" in _fails()


def test_a_wrong_counter_or_result_is_reported(game: Game) -> None:
    Game.objects.filter(pk=game.pk).update(to_act=(game.to_act + 1) % 4)
    assert "game row" in _fails()


def test_a_wrong_seed_commitment_is_reported(game: Game) -> None:
    Game.objects.filter(pk=game.pk).update(commitment="0" * 64)
    assert "commitment" in _fails()


def test_a_bad_snapshot_is_reported(game: Game) -> None:
    Game.objects.filter(pk=game.pk).update(snapshot={"version": 1, "moves": 0, "current": {}})
    assert "snapshot" in _fails()


@pytest.mark.django_db(transaction=True)
def test_a_game_played_while_it_is_verified_is_read_in_one_snapshot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A move commits (from another connection) after the game's row was read and before its
    # log is: at READ COMMITTED the row and the log would disagree by one move.
    import threading

    from django.db import connection

    from games import verify

    play(make_table().game, 12)
    replay = verify._replay
    moved: list[int] = []

    def with_a_move_between(g: Game, problems: list[str]) -> object:
        def other_connection() -> None:
            try:
                moved.append(play(Game.objects.get(pk=g.pk), 1).move_count)
            finally:
                connection.close()

        thread = threading.Thread(target=other_connection)
        thread.start()
        thread.join()
        return replay(g, problems)

    monkeypatch.setattr(verify, "_replay", with_a_move_between)
    assert "verified 1 game(s): 0 with problems" in _verify()
    assert moved == [13]


def test_a_claim_made_by_a_seat_not_to_act_is_sound() -> None:
    from games import claims
    from games.verify import verify_game

    t = make_table()
    game = play(t.game, 4)  # deal 1's bids: play begins, no trick in progress
    to_act = game.to_act
    assert to_act is not None
    claimant = (to_act + 1) % 4  # any seat may claim between tricks (rules §10)
    claims.claim_make(game_id=game.pk, seats=[claimant], tricks=0)  # a concession
    claim = Move.objects.get(game=game, seq=5)
    assert claim.seat == claimant != to_act
    assert verify_game(Game.objects.get(pk=game.pk)) == []
