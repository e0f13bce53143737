"""Forks (games.forks): a new unrated game from a chosen move of a finished one, dealt from
the same seed, its log beginning with a copy of the original's first moves."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import Player
from backalley_engine.records import record_actions
from backalley_engine.state import GameState
from backalley_engine.validate import validate_record
from backalley_site.errors import DomainError
from games import claims, forks, selectors, statecache
from games.errors import (
    CreatorNotSeated,
    ForkSeatNotAllowed,
    GameNotFinished,
    InvalidMoveNumber,
    RecordNotPublic,
)
from games.models import Event, Game, Move, Seat, SeededDeal
from games.services import deal_set_close, deal_set_create, game_create
from games.verify import verify_game
from tests.factories import BotPlayerFactory, PlayerFactory
from tests.games.helpers import play

pytestmark = pytest.mark.django_db

SHORT = {"rated": False, "schedule": {"first": 11, "last": 14}}  # 3, 2, 1, 2 cards


def _finished(players: list[Player] | None = None, **kw: Any) -> Game:
    players = players or [PlayerFactory() for _ in range(4)]
    kw.setdefault("options", SHORT)
    game = game_create(creator=players[0], seats=players, **kw)
    game = play(game, 10_000)
    assert game.status == "finished"
    return game


def _record(game: Game) -> dict[str, Any]:
    return selectors.game_record(game=game, seats=selectors.game_seats(game=game), seat=None)


def _codes(game: Game) -> list[int]:
    return list(
        Move.objects.filter(game=game).order_by("seq").values_list("action_code", flat=True)
    )


def test_a_fork_begins_with_the_originals_moves_and_its_record_validates() -> None:
    original = _finished()
    me = PlayerFactory()
    bots = [BotPlayerFactory(owner=me.user) for _ in range(3)]
    at = original.move_count // 2
    fork = forks.game_fork(game_id=original.pk, by=me, move=at, seats=[me, *bots])
    assert (fork.status, fork.rated, fork.move_count) == ("active", False, at)
    assert (fork.seed, fork.deal_set_id) == (original.seed, None)
    assert fork.options == original.options  # the same run of deals; never rated
    assert _codes(fork) == _codes(original)[:at]
    copied = Move.objects.filter(game=fork)
    assert set(copied.values_list("submitted_by", flat=True)) == {"fork"}
    assert not copied.filter(actor__isnull=False).exists()
    assert verify_game(fork) == []
    # While it is on, a spectator's record of it hides every hand and the seed.
    on = _record(fork)
    assert on["seed"] is None and on["forked_from"] == {"game": original.public_id, "move": at}
    assert all(h is None for d in on["deals"] for h in d["hands"])
    # Then it diverges: its own seats play on to the end, legally.
    fork = play(fork, 10_000)
    assert fork.status == "finished" and verify_game(fork) == []
    record = _record(fork)
    assert validate_record(record) == []
    assert record["seed"] == original.seed
    assert record["forked_from"] == {"game": original.public_id, "move": at}
    assert record_actions(record)[:at] == record_actions(_record(original))[:at]
    assert [p for p in record["players"]] == [me.name, *(b.name for b in bots)]
    # The bids and cards it copied say so ("by": "fork"), its own do not.
    bys = [b["by"] for d in record["deals"] for b in d["bids"]]
    assert bys[0] == "fork" and bys[-1] != "fork"


def test_a_fork_from_move_zero_deals_the_first_deal_again_and_one_at_the_last_move_but_one() -> (
    None
):
    original = _finished()
    me = PlayerFactory()
    bots = [BotPlayerFactory(owner=me.user) for _ in range(3)]
    zero = forks.game_fork(game_id=original.pk, by=me, move=0, seats=[*bots[:2], me, bots[2]])
    assert zero.move_count == 0 and not Move.objects.filter(game=zero).exists()
    assert list(SeededDeal.objects.filter(game=zero).values_list("number", "first_seq")) == [
        (11, 0)
    ]
    last = original.move_count - 1
    end = forks.game_fork(game_id=original.pk, by=me, move=last, seats=[me, *bots])
    assert end.move_count == last and end.to_act is not None and verify_game(end) == []
    # Its stored deals are the original's up to there.
    mine = list(SeededDeal.objects.filter(game=end).values_list("number", "attempt", "hands"))
    theirs = list(
        SeededDeal.objects.filter(game=original).values_list("number", "attempt", "hands")
    )
    assert mine == theirs


def test_a_fork_is_never_rated_nor_in_the_originals_deal_set() -> None:
    players = [PlayerFactory() for _ in range(4)]
    pair = deal_set_create(kind="arena_pair")
    original = _finished(players, deal_set=pair)
    other = _finished([PlayerFactory() for _ in range(4)], deal_set=pair)
    assert other.deal_set_id == pair.pk
    me = players[0]
    bots = [BotPlayerFactory(owner=me.user) for _ in range(3)]
    fork = forks.game_fork(game_id=original.pk, by=me, move=10, seats=[*bots, me])
    assert fork.deal_set_id is None and not fork.rated
    assert set(Game.objects.filter(deal_set=pair).values_list("pk", flat=True)) == {
        original.pk,
        other.pk,
    }
    # The duplicate rule of the original (no redeals) is kept: the same deals follow.
    assert fork.options["schedule"] == original.options["schedule"]
    assert fork.forked_from_id == original.pk and fork.forked_at_move == 10


def _refused(exc: type[DomainError], original: Game, by: Player, move: int, seats: list[Player]):  # type: ignore[no-untyped-def]
    before = (
        Game.objects.count(),
        Move.objects.count(),
        Seat.objects.count(),
        Event.objects.count(),
    )
    with pytest.raises(exc) as err:
        forks.game_fork(game_id=original.pk, by=by, move=move, seats=seats)
    after = (
        Game.objects.count(),
        Move.objects.count(),
        Seat.objects.count(),
        Event.objects.count(),
    )
    assert after == before  # nothing written
    return err.value


def test_a_game_not_finished_is_not_forked() -> None:
    players = [PlayerFactory() for _ in range(4)]
    game = play(game_create(creator=players[0], seats=players, options=SHORT), 5)
    err = _refused(GameNotFinished, game, players[0], 2, players)
    assert err.code == "game_not_finished"


def test_a_game_whose_cards_other_tables_still_play_is_not_forked() -> None:
    shared = deal_set_create(kind="daylong", closed=False)
    mine = [PlayerFactory() for _ in range(4)]
    original = _finished(mine, deal_set=shared, options=SHORT)
    theirs = [PlayerFactory() for _ in range(4)]
    other = game_create(creator=theirs[0], seats=theirs, deal_set=shared, options=SHORT)
    err = _refused(RecordNotPublic, original, mine[0], 3, [PlayerFactory()])
    assert err.code == "record_not_public" and original.seed not in err.message
    play(other, 10_000)
    _refused(RecordNotPublic, original, mine[0], 3, [])  # the set is still open
    deal_set_close(deal_set_id=shared.pk)
    bots = [BotPlayerFactory(owner=mine[0].user) for _ in range(3)]
    fork = forks.game_fork(game_id=original.pk, by=mine[0], move=3, seats=[mine[0], *bots])
    assert fork.deal_set_id is None


@pytest.mark.parametrize("move", [-1, "last", "end", "beyond"])
def test_a_move_outside_the_game_is_refused(move: Any) -> None:
    original = _finished()
    me = PlayerFactory()
    bots = [BotPlayerFactory(owner=me.user) for _ in range(3)]
    n = original.move_count
    at = {"last": n, "end": n, "beyond": n + 7}.get(move, move)
    err = _refused(InvalidMoveNumber, original, me, at, [me, *bots])
    assert err.extra["last"] == n - 1


def test_a_fork_seats_only_the_forker_their_bots_and_the_house_bots() -> None:
    original = _finished()
    me = PlayerFactory()
    mine = [BotPlayerFactory(owner=me.user) for _ in range(2)]
    house = BotPlayerFactory(is_house=True)
    someone = PlayerFactory()
    their_bot = BotPlayerFactory()
    err = _refused(ForkSeatNotAllowed, original, me, 4, [me, *mine, someone])
    assert err.extra == {"position": 3, "name": someone.name}
    _refused(ForkSeatNotAllowed, original, me, 4, [me, their_bot, *mine])
    _refused(
        CreatorNotSeated,
        original,
        me,
        4,
        [house, *[BotPlayerFactory(is_house=True) for _ in range(3)]],
    )
    _refused(DomainError, original, me, 4, [me, me, *mine])  # one seat each
    fork = forks.game_fork(game_id=original.pk, by=me, move=4, seats=[house, *mine, me])
    assert [s.player_id for s in fork.seats.order_by("position")] == [
        house.pk,
        *(b.pk for b in mine),
        me.pk,
    ]


def test_a_fork_starts_with_one_event_at_its_move_count() -> None:
    original = _finished()
    me = PlayerFactory()
    bots = [BotPlayerFactory(owner=me.user) for _ in range(3)]
    with CaptureQueriesContext(connection) as ctx:
        fork = forks.game_fork(game_id=original.pk, by=me, move=9, seats=[me, *bots])
    rows = list(Event.objects.filter(game=fork).values_list("kind", "seq", "to_act", "status"))
    assert rows == [("game_started", 9, fork.to_act, "active")]
    assert len(ctx.captured_queries) < 40  # the moves and deals in bulk, not one by one


def test_a_fork_does_not_start_while_a_claim_waits_for_its_answers() -> None:
    players = [PlayerFactory() for _ in range(4)]
    game = game_create(creator=players[0], seats=players, options=SHORT)
    game = play(game, 4)  # the first deal's bids: its play begins, no trick in progress
    claimed = None
    for seat in range(4):
        result = claims.claim_make(game_id=game.pk, seats=[seat], tricks=3)
        game.refresh_from_db()
        if statecache.state_for(game).claim >= 0:
            claimed = result.move.seq
            break
    if claimed is None:
        pytest.skip("every claim of this deal was proven at once: no claim waited")
    state = statecache.state_for(game)
    answer = state.seat_to_act
    claims.claim_answer(game_id=game.pk, seats=[answer], accept=False)
    game = play(game, 10_000)
    assert game.status == "finished"
    assert verify_game(game) == []  # a claim made out of turn is sound
    me = PlayerFactory()
    bots = [BotPlayerFactory(owner=me.user) for _ in range(3)]
    err = _refused(InvalidMoveNumber, game, me, claimed, [me, *bots])
    assert err.extra == {"move": claimed}
    # Just before the claim, or after its refusal, is a fine place to start.
    assert forks.game_fork(game_id=game.pk, by=me, move=claimed - 1, seats=[me, *bots])
    after = forks.game_fork(game_id=game.pk, by=me, move=claimed + 1, seats=[me, *bots])
    assert verify_game(after) == []


@pytest.mark.autoplay
def test_a_fork_plays_the_forced_action_it_starts_at_as_the_service_does_after_a_move() -> None:
    original = _finished()
    codes = _codes(original)
    state = GameState.new(original.seed, schedule=original.schedule)
    at = None
    for i, code in enumerate(codes):
        if i > 0 and len(state.legal_actions()) == 1 and state.claim < 0:
            at = i
            break
        state.apply(code)
    assert at is not None, "no forced action in the game"
    me = PlayerFactory()
    bots = [BotPlayerFactory(owner=me.user) for _ in range(3)]
    fork = forks.game_fork(game_id=original.pk, by=me, move=at, seats=[me, *bots])
    fork.refresh_from_db()
    assert fork.move_count > at and verify_game(fork) == []
    own = Move.objects.filter(game=fork, seq__gt=at).order_by("seq")
    assert own[0].submitted_by == "auto" and own[0].action_code == codes[at]
    kinds = list(Event.objects.filter(game=fork).order_by("pk").values_list("kind", "seq"))
    assert kinds[0] == ("game_started", at) and kinds[1] == ("move_committed", at + 1)
