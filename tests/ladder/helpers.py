"""Building finished games straight in the database, as the games service would leave them."""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime, timedelta

from accounts.models import Player
from games.models import Game, GameStatus, Seat, Team
from tests.factories import BotPlayerFactory, PlayerFactory

EPOCH = datetime(2026, 1, 1, tzinfo=UTC)


def players(n: int, bots: int = 0) -> list[Player]:
    """`n` players, the last `bots` of them bots (users without passwords: no slow hashing)."""
    people = [PlayerFactory(user__password=None) for _ in range(n - bots)]
    return people + [BotPlayerFactory(owner__password=None) for _ in range(bots)]


def team_for(a: Player, b: Player) -> Team:
    low, high = sorted((a.pk, b.pk))
    return Team.objects.get_or_create(player_low_id=low, player_high_id=high)[0]


def finished_game(
    seated: list[Player],
    winner: int | None,
    *,
    minute: float = 0,
    rated: bool = True,
    status: str = GameStatus.FINISHED,
    totals: tuple[int, int] | None = None,
) -> Game:
    """A game between `seated` (by seat 0..3) that finished `minute` minutes after EPOCH."""
    seed = secrets.token_hex(32)
    if totals is None:
        totals = {0: (120, 80), 1: (80, 120), None: (100, 100)}[winner]
    game = Game.objects.create(
        status=status,
        rated=rated,
        options={"rated": rated},
        seed=seed,
        commitment=hashlib.sha256(bytes.fromhex(seed)).hexdigest(),
        first_dealer=0,
        started_at=EPOCH,
        finished_at=EPOCH + timedelta(minutes=minute) if status == GameStatus.FINISHED else None,
        total_0=totals[0] if status == GameStatus.FINISHED else None,
        total_1=totals[1] if status == GameStatus.FINISHED else None,
        winner=winner if status == GameStatus.FINISHED else None,
        team_0=team_for(seated[0], seated[2]),
        team_1=team_for(seated[1], seated[3]),
    )
    Seat.objects.bulk_create(
        Seat(game=game, position=pos, player=p) for pos, p in enumerate(seated)
    )
    return game


def played_game(seated: list[Player], *, seed: int = 0, moves: int | None = None) -> Game:
    """A rated game created through the games services and played with random legal moves.

    All moves but the last are computed by the engine and written to the move log in bulk
    (with the snapshot the move path keeps); the last one goes through `move_submit`, so
    the real path ends the game and fires its hooks. `moves` stops early: a game in progress.
    """
    import random

    from backalley_engine.actions import action_to_json
    from backalley_engine.state import GameState
    from games import services as game_services
    from games import statecache
    from games.models import Move

    rng = random.Random(seed)
    game = game_services.game_create(creator=seated[0], seats=seated, options={"rated": True})
    state = GameState.new(game.seed)
    codes: list[int] = []
    while not state.is_terminal() and (moves is None or len(codes) < moves):
        action = rng.choice(state.legal_actions())
        codes.append(action)
        state.apply(action)
    last = codes.pop()
    before = GameState.replay(game.seed, codes)
    rows = []
    replaying = GameState.new(game.seed)
    for seq, code in enumerate(codes, start=1):
        seat = replaying.seat_to_act
        replaying.apply(code)
        rows.append(
            Move(
                game=game,
                seq=seq,
                seat=seat,
                action=action_to_json(code),
                action_code=code,
                submitted_by="player",
                actor=seated[seat],
            )
        )
    Move.objects.bulk_create(rows)
    Game.objects.filter(pk=game.pk).update(
        move_count=len(codes),
        to_act=before.seat_to_act,
        deal_number=before.deal_number,
        snapshot=statecache.dump(before),
    )
    game_services.move_submit(
        game_id=game.pk,
        seats=[before.seat_to_act],
        action=action_to_json(last),
        expected_seq=len(codes),
    )
    game.refresh_from_db()
    return game
