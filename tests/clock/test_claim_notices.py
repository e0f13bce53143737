"""Notices about claims (clock.claims): the opponents are asked in their own language when
a claim waits for their answer; the claimant hears how it ended; each notice once, and
nobody's notice names a card."""

from __future__ import annotations

from typing import Any

import pytest

from backalley_engine import solver
from clock.claims import claim_notify
from clock.models import Notification, NotificationKind
from games import claims, services, statecache
from games.models import Event, Game
from games.outbox import as_game_event
from tests.factories import BotPlayerFactory, PlayerFactory
from tests.games.helpers import play
from tests.web.conftest import shown_cards

pytestmark = pytest.mark.django_db


def _table(players: list[Any], seed: int = 0) -> tuple[Game, int, int]:
    """A game played on to a gap where ``seat`` may claim ``k`` tricks the engine does not
    prove (the opponents are asked): (game, seat, k)."""
    game = play(services.game_create(creator=players[0], seats=players, seed=f"{seed:064x}"), 4)
    for _ in range(600):
        state = statecache.state_for(game)
        if state.phase == "playing" and not state.trick and 2 <= state.n - len(state.tricks) <= 4:
            for s in range(4):
                b = solver.trick_bounds(state, team=s & 1, budget=10**6)
                if b is not None and b[1] > b[0]:
                    return game, s, b[1]
        game = play(game, 1)
    raise AssertionError("no gap for an unproven claim")


def _news(game: Game) -> int:
    """Deliver the notices of every move event of ``game`` (twice: at least once is allowed)."""
    sent = 0
    for row in Event.objects.filter(game=game, kind="move_committed").order_by("seq"):
        sent += claim_notify(as_game_event(row))
        assert claim_notify(as_game_event(row)) == 0
    return sent


def _notices(player: Any) -> list[Notification]:
    return list(Notification.objects.filter(player=player, kind=NotificationKind.CLAIM))


@pytest.fixture
def four() -> list[Any]:
    return [PlayerFactory(name=n) for n in ("north", "east", "south", "west")]


def test_the_opponents_are_asked_in_their_language_and_the_claimant_told_it_was_accepted(
    four: list[Any],
) -> None:
    game, seat, k = _table(four)
    assert _news(game) == 0  # no claim yet: no notice for any other move
    first, second = (seat + 1) % 4, (seat + 3) % 4
    four[first].language = "sv"
    four[first].save(update_fields=["language"])
    claims.claim_make(game_id=game.pk, seats=[seat], tricks=k)
    assert _news(game) == 2
    asked = _notices(four[first])
    assert len(asked) == 1 and asked[0].game_id == game.pk
    assert four[seat].name in asked[0].title and "gör anspråk på" in asked[0].title
    english = _notices(four[second])[0]
    assert english.title.startswith(f"{four[seat].name} claims {k} of the remaining")
    assert f"/api/v1/games/{game.public_id}/claim/accept/" in english.body
    assert not _notices(four[seat]) and not _notices(four[(seat + 2) % 4])
    for n in asked + [english]:  # the hand is at the table, never in a notice
        assert not shown_cards(n.title + " " + n.body)
    claims.claim_answer(game_id=game.pk, seats=[first], accept=True)
    assert _news(game) == 0  # one answer of two: the claim still waits
    claims.claim_answer(game_id=game.pk, seats=[second], accept=True)
    assert _news(game) == 1
    told = _notices(four[seat])
    assert len(told) == 1 and "was accepted" in told[0].title


def test_a_refused_claim_and_a_lapsed_one_are_told_to_the_claimant(four: list[Any]) -> None:
    game, seat, k = _table(four, seed=1)
    claims.claim_make(game_id=game.pk, seats=[seat], tricks=k)
    claims.claim_answer(game_id=game.pk, seats=[(seat + 1) % 4], accept=False)
    assert _news(game) == 3  # two asked, the claimant told
    told = _notices(four[seat])
    assert len(told) == 1
    assert (
        told[0].title == f"{four[(seat + 1) % 4].name} refused your claim in game {game.public_id}"
    )
    game2, seat2, k2 = _table([PlayerFactory() for _ in range(4)], seed=2)
    claims.claim_make(game_id=game2.pk, seats=[seat2], tricks=k2)
    claims.claim_lapse(game_id=game2.pk)
    _news(game2)
    claimant = game2.seats.get(position=seat2).player
    assert [n.title for n in _notices(claimant)] == [f"Your claim in game {game2.public_id} lapsed"]


def test_a_proven_claim_asks_nobody_and_bots_get_no_notice(four: list[Any]) -> None:
    players = [four[0], BotPlayerFactory(), four[2], BotPlayerFactory()]
    game, seat, k = _table(players, seed=3)
    claims.claim_make(game_id=game.pk, seats=[seat], tricks=k)
    _news(game)
    assert not Notification.objects.filter(player__in=[players[1], players[3]]).exists()
    game2 = play(services.game_create(creator=four[1], seats=four, seed=f"{4:064x}"), 8)
    state = statecache.state_for(game2)
    while not (state.phase == "playing" and not state.trick):
        game2 = play(game2, 1)
        state = statecache.state_for(game2)
    claims.claim_make(game_id=game2.pk, seats=[state.seat_to_act], tricks=0)  # a concession
    assert _news(game2) == 0


def test_move_events_reach_the_claim_notices_through_the_outbox(
    four: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    game, seat, k = _table(four, seed=5)
    with django_capture_on_commit_callbacks(execute=True):
        claims.claim_make(game_id=game.pk, seats=[seat], tricks=k)
    assert len(_notices(four[(seat + 1) % 4])) == len(_notices(four[(seat + 3) % 4])) == 1
