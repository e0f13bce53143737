"""The service's own moves after a move commits (games.autoplay, docs/rules.md §10): forced
actions and settled deals played as ``auto`` moves, each its own row and event, in the same
commit; a person's choice to play their forced cards themself."""

from __future__ import annotations

from typing import Any

import pytest

from backalley_engine import solver
from backalley_engine.state import GameState
from games import statecache
from games.models import Event, Game, Move, SubmittedBy
from games.services import game_create, move_submit
from tests.factories import PlayerFactory
from tests.games.helpers import choose_code

pytestmark = [pytest.mark.django_db, pytest.mark.autoplay]
SEED = "5e" * 32


def new_game(seed: str = SEED, **player: Any) -> Game:
    players = [PlayerFactory(**player) for _ in range(4)]
    return game_create(creator=players[0], seats=players, seed=seed)


def submit(game: Game) -> Any:
    game.refresh_from_db()
    state = statecache.state_for(game)
    assert game.to_act is not None
    return move_submit(
        game_id=game.pk,
        seats=[game.to_act],
        action=choose_code(state.legal_actions()),
        expected_seq=game.move_count,
    )


def play_until(game: Game, wanted: Any, limit: int = 400) -> Any:
    for _ in range(limit):
        result = submit(game)
        if wanted(result):
            return result
    raise AssertionError("not found within the limit")


def test_a_forced_card_is_played_in_the_same_commit_as_the_move_that_forced_it() -> None:
    game = new_game()
    result = play_until(game, lambda r: "then" in r.body)
    then = result.body["then"]
    first = result.move.seq
    assert [m["seq"] for m in then] == list(range(first + 1, first + 1 + len(then)))
    assert all(m["by"] in ("auto", "premove") for m in then)
    rows = list(Move.objects.filter(game=game, seq__gt=first).order_by("seq"))
    assert [r.seq for r in rows] == [m["seq"] for m in then]
    assert {r.submitted_by for r in rows} == {SubmittedBy.AUTO}
    assert all(r.actor is None for r in rows)
    # One event per move; only the last names the seat to act.
    game.refresh_from_db()
    events = list(
        Event.objects.filter(game=game, kind="move_committed", seq__gte=first).order_by("seq")
    )
    assert [e.seq for e in events] == list(range(first, game.move_count + 1))
    assert [e.to_act for e in events[:-1]] == [None] * (len(events) - 1)
    assert events[-1].to_act == game.to_act
    # Where the chain stopped, the seat to act has a choice (or the deal moved on).
    state = statecache.state_for(game)
    assert len(state.legal_actions()) > 1
    # The body answered shows the state after the chain.
    assert result.body["seq"] == game.move_count


def test_each_auto_move_was_forced_or_the_deal_was_settled() -> None:
    game = new_game()
    for _ in range(150):
        submit(game)
    replay = GameState.new(game.seed)
    auto_settled = 0
    for move in Move.objects.filter(game=game).order_by("seq"):
        legal = replay.legal_actions()
        if move.submitted_by == SubmittedBy.AUTO and len(legal) > 1:
            assert solver.is_settled(replay, budget=10**6) is True
            assert move.action_code == solver.settled_card(replay)
            auto_settled += 1
        elif move.submitted_by != SubmittedBy.AUTO and replay.phase == "playing":
            assert len(legal) > 1  # a forced card is never left to the seat
        replay.apply(move.action_code)
    assert auto_settled > 0  # settled deals were played out by the service


def test_a_player_can_turn_autoplay_off_for_their_seats(settings: Any) -> None:
    settings.GAMES_SETTLED_MAX_TRICKS = 0  # forced actions alone
    game = new_game(autoplay=False)
    for _ in range(80):
        result = submit(game)
        assert "then" not in result.body
    assert not Move.objects.filter(game=game, submitted_by=SubmittedBy.AUTO).exists()


def test_the_feed_and_record_say_which_moves_the_service_made() -> None:
    from games import feed
    from games.selectors import game_record, game_seats

    game = new_game()
    result = play_until(game, lambda r: "then" in r.body)
    game.refresh_from_db()
    plays = [e for e in feed.all_events(game) if e["type"] in ("play", "bid")]
    by_seq = {e["seq"]: e.get("by") for e in plays}
    assert by_seq[result.body["then"][0]["seq"]] == "auto"
    assert by_seq[result.move.seq] == "player"
    record = game_record(game=game, seats=game_seats(game=game), seat=0)
    bys = [b for d in record["deals"] for t in d["tricks"] for b in t.get("by", [])]
    assert "auto" in bys and "player" in bys
