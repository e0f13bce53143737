"""Who is told of a game's news, and when: "your move" and "the game is over".

**Your move** reaches a person only once their table page has been away for a while
(hidden or closed for ``PUSH_TURN_AWAY_S`` seconds, by the presence marks of
``games.live.presence``): someone watching the table needs no phone to tell them. A turn
is looked at again while it stands (the page may close later), for ``PUSH_TURN_WATCH_S``
at most. Nothing is pushed for a turn already played: a premove, a forced action or the
rest of a settled deal is played in the transaction of the move that made it due, so the
game's move count has gone past that turn before the push is considered; nor for a bot's
seat, or an abandoned one (the house bot plays it).

**Game over** goes to every person seated (each once, however many seats they hold), and
so does a game **called off** without a result (a daylong's window closed on it).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings

from accounts.models import Player
from games.live import presence
from games.models import Game, GameStatus, Seat


@dataclass(frozen=True, slots=True)
class TurnCheck:
    """The turn's push is ``due`` to ``player`` now, ``wait`` seconds from now, or not at
    all (both empty)."""

    player: Player | None = None
    seat: int | None = None
    game: Game | None = None
    wait: float | None = None

    @property
    def due(self) -> bool:
        return self.player is not None and self.wait is None


def away_s() -> float:
    return float(settings.PUSH_TURN_AWAY_S)


def _person(seat: Seat) -> Player | None:
    player = seat.player
    if player.is_bot or not player.user_id or seat.abandoned_at is not None:
        return None
    return player


def turn_check(*, game_id: int, seq: int, now: float | None = None) -> TurnCheck:
    """Whether the turn the game reached at move ``seq`` should be pushed now."""
    game = Game.objects.filter(pk=game_id, move_count=seq, status=GameStatus.ACTIVE).first()
    if game is None or game.to_act is None:
        return TurnCheck()  # played since (by its seat, a premove or auto-play), or over
    seat = Seat.objects.select_related("player").filter(game=game, position=game.to_act).first()
    person = _person(seat) if seat is not None else None
    if person is None:
        return TurnCheck()
    away = presence.presence(game.pk, game.to_act).away_for(now)
    if away is None or away < away_s():
        # At the table (or only just gone): look again once it could have been away long enough.
        return TurnCheck(player=person, seat=game.to_act, game=game, wait=away_s() - (away or 0))
    return TurnCheck(player=person, seat=game.to_act, game=game)


def seated_people(*, game_id: int, statuses: tuple[str, ...]) -> list[tuple[Player, int]]:
    """(person, their first seat) for each person seated at the game, when its status is
    one of ``statuses`` (nobody otherwise)."""
    seats = Seat.objects.filter(game_id=game_id, game__status__in=statuses)
    seen: dict[int, tuple[Player, int]] = {}
    for seat in seats.select_related("player").order_by("position"):
        person = _person(seat)
        if person is not None and person.pk not in seen:
            seen[person.pk] = (person, seat.position)
    return list(seen.values())


def result_recipients(*, game_id: int) -> list[tuple[Player, int]]:
    """Everyone seated at a game that is over: finished, or called off without a result."""
    return seated_people(game_id=game_id, statuses=(GameStatus.FINISHED, GameStatus.ABORTED))


def watch_s() -> float:
    return float(settings.PUSH_TURN_WATCH_S)
