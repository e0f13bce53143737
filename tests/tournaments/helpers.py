"""Helpers for the tournaments tests: entrants made in bulk, games ended by hand."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from accounts.models import Player
from games.models import Game, GameStatus, Seat
from tests.factories import BotPlayerFactory, PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Entrant, Tournament


def event(**fields: Any) -> Tournament:
    organiser = fields.pop("organiser", None) or PlayerFactory()
    fields.setdefault("name", "Friday Swiss")
    return services.tournament_create(organiser=organiser, **fields)


def pairs(t: Tournament, n: int, *, bots: bool = False) -> list[Entrant]:
    """``n`` partnerships entered by one owner (bots) or by one of the two people."""
    out = []
    for _ in range(n):
        if bots:
            owner = UserFactory()
            a, b = BotPlayerFactory(owner=owner), BotPlayerFactory(owner=owner)
        else:
            a = PlayerFactory()
            b = PlayerFactory()
        entrant = services.entrant_register(
            tournament_id=t.pk, player=a, partner=b, by=owner if bots else a.user
        )
        if not bots:
            entrant = services.entrant_confirm(entrant_id=entrant.pk, player=b)
        out.append(entrant)
    return out


def individuals(t: Tournament, n: int) -> list[Entrant]:
    out = []
    for _ in range(n):
        p: Player = PlayerFactory()
        out.append(services.entrant_register(tournament_id=t.pk, player=p, by=p.user))
    return out


def end_game(game: Game, *, totals: tuple[int, int], abandoned: tuple[int, ...] = ()) -> str:
    """Finish a game as if its last move had landed, then tell the tournament."""
    winner = None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)
    Game.objects.filter(pk=game.pk).update(
        status=GameStatus.FINISHED,
        total_0=totals[0],
        total_1=totals[1],
        winner=winner,
        finished_at=timezone.now(),
        to_act=None,
    )
    if abandoned:
        Seat.objects.filter(game=game, position__in=abandoned).update(abandoned_at=timezone.now())
    return services.tournament_game_finished(game_id=game.pk)
