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
