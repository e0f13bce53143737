"""Forks: a new game that starts from a chosen move of a finished one ("fork this hand").

A fork is dealt from the original's seed by the original's schedule, and its move log
begins with a copy of the original's first ``move`` moves (``submitted_by`` ``fork``, no
actor); from there its own seats play on. It is never rated and never joins the original's
deal set: nothing compares it with the original's field. It records where it came from
(``Game.forked_from``, ``Game.forked_at_move``; the record's ``forked_from``).

Only a finished game whose record is public may be forked: a game of a deal set whose seed
is still secret (other tables still play its cards, ``games.dealsets``) is refused, or the
fork would tell its seats those cards. The fork's own running state is secret by the usual
rules (its seed is shown once the fork is over), although anyone may read the original's.

Its seats are the forker, the forker's own bots and the house bots; one of them is the
forker or a bot of theirs. Once created, the fork starts at once and its ``game_started``
event leaves through the outbox like any game's, so a hosted bot to act plays on; what the
service plays on its own after a move (``games.autoplay``: a forced action, a settled
deal) it plays from the fork's first position too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Player
from backalley_engine import shuffle
from backalley_engine.state import GameState
from games import autoplay, dealsets, invitations, movelog, outbox, services, statecache
from games.errors import (
    BadGameSetup,
    CreatorNotSeated,
    ForkSeatNotAllowed,
    GameNotFinished,
    GameNotFound,
    InvalidMoveNumber,
    RecordNotPublic,
)
from games.models import Game, GameStatus, Move, Seat, SubmittedBy


def fork_seat_allowed(*, by: Player, player: Player) -> bool:
    """Whether ``by`` may seat ``player`` in a fork: themself, a bot of theirs, a house bot."""
    if player.pk == by.pk or player.is_house:
        return True
    return player.is_bot and by.user_id is not None and player.owner_id == by.user_id


def fork_check(*, game: Game, move: int) -> None:
    """Refuse a fork of ``game`` at ``move`` (typed errors; nothing read is written)."""
    if game.status != GameStatus.FINISHED:
        raise GameNotFinished(
            message=_("Only a finished game can be forked."), extra={"status": game.status}
        )
    if not dealsets.seed_is_public(game):
        raise RecordNotPublic(
            message=_(
                "Other tables are still playing these cards: this game can be forked once the "
                "last of them has finished."
            )
        )
    if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move < game.move_count:
        raise InvalidMoveNumber(
            message=_("A fork starts after move 0 to %(last)s of this game.")
            % {"last": game.move_count - 1},
            extra={"move": move, "first": 0, "last": game.move_count - 1},
        )


def _seats_check(by: Player, seats: Sequence[Player]) -> None:
    if len(seats) != 4 or any(p is None for p in seats):
        raise BadGameSetup(message=_("A fork fills all four seats."), extra={"seats": len(seats)})
    for position, player in enumerate(seats):
        if not fork_seat_allowed(by=by, player=player):
            raise ForkSeatNotAllowed(
                message=_(
                    "%(name)s cannot sit in your fork: it seats you, your own bots and the "
                    "house bots."
                )
                % {"name": player.name},
                extra={"position": position, "name": player.name},
            )
    if not any(p.pk == by.pk or not p.is_house for p in seats):
        raise CreatorNotSeated(message=_("A fork seats you or one of your bots."))
    services.seats_check(list(seats), rated=False)


def game_fork(*, game_id: int, by: Player, move: int, seats: Sequence[Player]) -> Game:
    """A new unrated game of ``seats`` that starts after move ``move`` of finished game
    ``game_id`` (0: at its first deal): see the module's docstring.

    Refusals, before anything is written: ``game_not_finished``, ``record_not_public``,
    ``invalid_move_number`` (not 0 to the original's last move but one, or a claim waiting
    for answers there), ``fork_seat_not_allowed``, ``creator_not_seated``, and the limits
    of new games (``too_many_new_games``)."""
    original = Game.objects.filter(pk=game_id).first()
    if original is None:
        raise GameNotFound(
            message=_("No game %(game_id)s.") % {"game_id": repr(game_id)}, extra={"id": game_id}
        )
    fork_check(game=original, move=move)
    _seats_check(by, seats)
    copied = list(
        Move.objects.filter(game=original, seq__lte=move)
        .order_by("seq")
        .values_list("seq", "seat", "action", "action_code")
    )
    state = GameState.new(original.seed, schedule=original.schedule)
    deals: list[tuple[int, int, int, int]] = [(state.deal_number, state.attempt, state.dealer, 0)]
    for seq, _seat, _action, code in copied:
        events: list[dict[str, Any]] = []
        state.apply(code, events=events)
        if any(ev.get("type") == "deal_start" for ev in events):
            deals.append((state.deal_number, state.attempt, state.dealer, seq))
    if state.claim >= 0:
        raise InvalidMoveNumber(
            message=_("A claim waits for its answers after move %(move)s: fork before it or after.")
            % {"move": move},
            extra={"move": move},
        )
    options = {**(original.options or {}), "rated": False}
    now = timezone.now()
    with transaction.atomic():
        invitations.check_limits(by, now)
        fork = Game.objects.create(
            creator=by,
            options=options,
            rated=False,
            seed=original.seed,
            deal_set=None,  # never compared with the original's field
            commitment=shuffle.commitment(original.seed),
            first_dealer=shuffle.first_dealer(original.seed),
            forked_from=original,
            forked_at_move=move,
        )
        seat_rows = Seat.objects.bulk_create(
            Seat(game=fork, position=pos, player=p) for pos, p in enumerate(seats)
        )
        Move.objects.bulk_create(
            Move(
                game=fork,
                seq=seq,
                seat=seat,
                action=action,
                action_code=code,
                submitted_by=SubmittedBy.FORK,
            )
            for seq, seat, action, code in copied
        )
        for number, attempt, dealer, first_seq in deals:
            movelog.store_deal(fork, number, attempt, dealer, first_seq)
        _start(fork, list(seats), state, now)
        # What the service plays on its own from there (a forced action, a settled deal),
        # as after any move (games.autoplay): its own rows and events, after the start's.
        written = movelog.Written()
        if autoplay.play_on(game=fork, seat_rows=seat_rows, state=state, written=written):
            movelog.finish(fork, state, written, now)
            movelog.save_moves(written)
    return fork


def _start(game: Game, players: list[Player], state: GameState, now: Any) -> None:
    """The fork starts at once, at the state its copied moves reached (game row new)."""
    game.team_0 = services.team_get_or_create(player_a=players[0], player_b=players[2])
    game.team_1 = services.team_get_or_create(player_a=players[1], player_b=players[3])
    game.status = GameStatus.ACTIVE
    game.started_at = now
    game.last_move_at = now
    game.move_count = state.move_count
    game.to_act = state.seat_to_act
    game.deal_number = state.deal_number
    game.snapshot = statecache.dump(state)
    game.snapshot_seq = state.move_count
    game.save()
    transaction.on_commit(lambda: statecache.remember(game, state))
    outbox.emit([outbox.event(game, "game_started", seq=state.move_count, now=now)])
