"""Writes for games: create, seat, start, abort, and submit moves.

Every function is keyword-only and runs in one short transaction that locks the game row
first (``select_for_update``), so there is one writer at a time per game. Side effects for
other apps (bots, ratings, clocks) leave through one door: an outbox row written in the same
transaction (:mod:`games.outbox`), delivered after commit to the consumers of :mod:`games.hooks`.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Player
from backalley_engine import shuffle
from backalley_engine.actions import BOARD, action_from_json, action_to_json, parse_action
from backalley_engine.errors import ActionParseError, BadSchedule, BadSeed
from backalley_engine.schedule import Schedule
from backalley_engine.state import GameState
from games import autoplay, extensions, movelog, outbox, statecache
from games.errors import (
    AlreadyInvited,
    AlreadySeated,
    BadGameSetup,
    BadIdempotencyKey,
    GameAborted,
    GameNotFound,
    GameNotStarted,
    GameNotWaiting,
    GameOver,
    IdempotencyKeyReused,
    NotSeated,
    NotYourSeat,
    NotYourTurn,
    PlayerRetired,
    SeatTaken,
    StaleState,
)
from games.models import (
    SEAT_POSITIONS,
    DealSet,
    Game,
    GameStatus,
    Invitation,
    InvitationStatus,
    Move,
    Seat,
    Team,
)
from games.presenters import state_payload

# --- teams -------------------------------------------------------------------------------


def team_get_or_create(*, player_a: Player, player_b: Player) -> Team:
    """The one Team row of an unordered pair of players."""
    if player_a.pk == player_b.pk:
        raise BadGameSetup(message=_("A team is two different players."))
    low, high = sorted((player_a.pk, player_b.pk))
    team, _unused = Team.objects.get_or_create(player_low_id=low, player_high_id=high)
    return team


# --- creating and seating ------------------------------------------------------------------


def game_options_clean(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Options with defaults: ``rated`` (bool, true unless said otherwise, for the API as for
    the site), each option another app registered (``games.extensions``; the clock's
    ``time_control``), cleaned by that app, or None when not given, and for a short game
    (events' boards; not offered by the API) ``schedule``, the run of deals it plays
    (``{"first": 6, "last": 10}``), never rated on the ladder; ``"redeal": false`` in it is
    the duplicate rule (docs/rules.md §4), which every game of a deal set plays."""
    options = dict(options or {})
    cleaners = extensions.option_cleaners()
    unknown = set(options) - {"rated", "schedule", *cleaners}
    if unknown:
        raise BadGameSetup(
            message=_("Unknown option(s): %(value)s.") % {"value": ", ".join(sorted(unknown))},
            extra={"unknown": sorted(unknown)},
        )
    rated = options.get("rated", True)
    if not isinstance(rated, bool):
        raise BadGameSetup(message=_("Option 'rated' is true or false."))
    clean: dict[str, Any] = {"rated": rated}
    if options.get("schedule") is not None:
        try:
            schedule = Schedule.from_json(options["schedule"])
        except BadSchedule as exc:
            raise BadGameSetup(message=exc.message, extra=exc.extra) from exc
        if not schedule.is_whole_game and rated:
            raise BadGameSetup(
                message="A short game (a run of the schedule's deals) is never rated."
            )
        if not schedule.is_default:
            clean["schedule"] = schedule.to_json()
    for name, cleaner in cleaners.items():
        value = options.get(name)
        clean[name] = None if value is None else cleaner(value)
    return clean


def deal_set_create(*, kind: str, seed: str | None = None, closed: bool = True) -> DealSet:
    """A set of games to be dealt from one seed (duplicate play), drawn now unless given.

    ``kind`` says who deals it ("tournament_round", "arena_pair", ...). A set whose games are
    all created at once is ``closed`` from the start; one that games join over time (an
    event open all day) is created open and closed by :func:`deal_set_close` once no game
    will join: until then its seed stays secret even when every game so far is over.
    Pass the set to ``game_create(deal_set=...)``; ``games.selectors.seed_is_public`` then
    keeps the seed, and every hand of the games' records, secret until the last is over.
    """
    if seed is None:
        seed = secrets.token_hex(32)
    else:
        _check_seed(seed)
    return DealSet.objects.create(
        seed=seed,
        commitment=shuffle.commitment(seed),
        kind=kind,
        closed_at=timezone.now() if closed else None,
    )


def deal_set_close(*, deal_set_id: int) -> None:
    """No more games join the set: its seed is public once its games are over. Idempotent."""
    DealSet.objects.filter(pk=deal_set_id, closed_at__isnull=True).update(closed_at=timezone.now())


def _set_of_seed(seed: str) -> DealSet:
    """The deal set of ``seed``, made (closed) on its first use."""
    row, _created = DealSet.objects.get_or_create(
        seed=seed,
        defaults={
            "commitment": shuffle.commitment(seed),
            "kind": "seed",
            "closed_at": timezone.now(),
        },
    )
    return row


def _check_seed(seed: str) -> None:
    try:
        shuffle.check_seed(seed)
    except BadSeed as exc:
        raise BadGameSetup(message=_("A seed is 64 lowercase hex digits.")) from exc


def game_create(
    *,
    creator: Player,
    seats: Sequence[Player | None],
    options: Mapping[str, Any] | None = None,
    seed: str | None = None,
    deal_set: DealSet | None = None,
) -> Game:
    """Create a game with four positions (a player or None for an open seat).

    The seed is drawn now and only its commitment is published. Games whose tables share
    their deals (duplicate pairs and duplicate tournament rounds) are dealt from a
    ``deal_set`` (:func:`deal_set_create`). A ``seed`` given without a set joins the set of
    that seed (made, closed, on first use), so games of one seed always share a set, and
    none shows the seed before all are over. The games given a ``deal_set`` play the
    duplicate rule (docs/rules.md §4: an all-pass deal is passed out, never redealt), so
    every table of the set holds the same cards on every deal; a game given only a
    ``seed`` (a replay of known cards, a test) keeps the table rules, redeals included,
    since nothing compares it with another table. When all four seats are
    filled at creation the game starts at once.
    """
    if len(seats) != 4:
        raise BadGameSetup(message=_("A game has exactly four seats."), extra={"seats": len(seats)})
    seated = [p for p in seats if p is not None]
    clean = game_options_clean(options)
    seats_check(seated, rated=clean["rated"])
    given = seed
    if deal_set is not None:
        if seed is not None and seed != deal_set.seed:
            raise ValueError("a game of a deal set is dealt from the set's seed")
        seed = deal_set.seed
        run = Schedule.from_json(clean.get("schedule"))
        clean["schedule"] = Schedule(run.first, run.last, redeal=False).to_json()
    elif seed is None:
        seed = secrets.token_hex(32)
    else:
        _check_seed(seed)
    with transaction.atomic():
        if deal_set is None and given is not None:
            deal_set = _set_of_seed(given)
        game = Game.objects.create(
            creator=creator,
            options=clean,
            rated=clean["rated"],
            seed=seed,
            deal_set=deal_set,
            commitment=shuffle.commitment(seed),
            first_dealer=shuffle.first_dealer(seed),
        )
        Seat.objects.bulk_create(
            Seat(game=game, position=pos, player=p) for pos, p in enumerate(seats) if p is not None
        )
        if len(seated) == 4:
            _start(game)
    return game


def seats_check(players: Sequence[Player], *, rated: bool) -> None:
    """The players named for one game: each once, none retired, and in a rated game no
    account behind two seats."""
    if len({p.pk for p in players}) != len(players):
        raise BadGameSetup(message=_("A player can take only one seat in a game."))
    _check_not_retired(players)
    if rated:
        _check_one_seat_per_controller(players)


def _check_not_retired(players: Sequence[Player]) -> None:
    """Read from the rows, not the caller's copies: a bot may have been retired meanwhile."""
    retired = Player.objects.filter(
        pk__in=[p.pk for p in players], retired_at__isnull=False
    ).first()
    if retired is not None:
        raise PlayerRetired(
            message=_("%(name)s was deleted by its owner and plays no more games.")
            % {"name": retired.name},
            extra={"name": retired.name},
        )


def _check_one_seat_per_controller(players: Sequence[Player]) -> None:
    """In a rated game no account may hold two seats (itself and its bot, or two bots): it
    would see two hands and could farm a rating. House bots are system players that no
    person plays through, so any number of them may sit at one rated table."""
    controllers = [p.owner_id if p.is_bot else p.user_id for p in players if not p.is_house]
    if len(set(controllers)) != len(controllers):
        raise BadGameSetup(
            "one_seat_per_account",
            _("In a rated game one account may hold only one seat (counting its bots)."),
        )


def lock_game(game_id: int | str) -> Game:
    """Lock and read the game row (for services of other modules that change its seats)."""
    return _lock(game_id)


def _lock(game_id: int | str) -> Game:
    """Lock and read the game row (by pk, or by public id when given a str)."""
    lookup = {"public_id": game_id} if isinstance(game_id, str) else {"pk": game_id}
    try:
        return Game.objects.select_for_update().get(**lookup)
    except Game.DoesNotExist:
        raise GameNotFound(
            message=_("No game %(game_id)s.") % {"game_id": repr(game_id)}, extra={"id": game_id}
        ) from None


def game_join_seat(*, game_id: int, player: Player, position: int | None = None) -> Game:
    """Seat ``player`` at ``position`` (or the first open one); start when the table is full."""
    if position is not None and position not in SEAT_POSITIONS:
        raise BadGameSetup(
            message=_("A seat position is 0, 1, 2 or 3."), extra={"position": position}
        )
    with transaction.atomic():
        game = _lock(game_id)
        if game.status != GameStatus.WAITING:
            raise GameNotWaiting(message=_("This game is no longer taking players."))
        _check_not_retired([player])
        taken = dict(game.seats.values_list("position", "player_id"))
        if player.pk in taken.values():
            raise AlreadySeated(
                message=_("%(name)s already has a seat in this game.") % {"name": player.name}
            )
        held = held_for_invitees(game)  # seats kept for players who have not answered yet
        if player.pk in held.values():
            raise AlreadyInvited(
                message=_("%(name)s is invited to this game: answer the invitation.")
                % {"name": player.name}
            )
        if position is None:
            free = [p for p in SEAT_POSITIONS if p not in taken and p not in held]
            if not free:
                raise SeatTaken(message=_("Every seat is taken or held for an invited player."))
            position = free[0]
        elif position in taken:
            raise SeatTaken(
                message=_("Seat %(position)s is taken.") % {"position": position},
                extra={"position": position},
            )
        elif position in held:
            raise SeatTaken(
                message=_("Seat %(position)s is held for an invited player.")
                % {"position": position},
                extra={"position": position},
            )
        if game.rated:
            others = list(Player.objects.filter(pk__in=taken.values()))
            _check_one_seat_per_controller([*others, player])
        Seat.objects.create(game=game, position=position, player=player)
        if len(taken) + 1 == 4:
            _start(game)
    return game


def held_for_invitees(game: Game) -> dict[int, int]:
    """Positions held by live invitations (pending, not expired): position → player id."""
    return dict(
        Invitation.objects.filter(
            game=game, status=InvitationStatus.PENDING, expires_at__gt=timezone.now()
        ).values_list("position", "player_id")
    )


def game_leave_seat(*, game_id: int, player: Player) -> Game:
    """Take ``player`` out of a game that has not started; a game left empty is aborted."""
    with transaction.atomic():
        game = _lock(game_id)
        if game.status != GameStatus.WAITING:
            raise GameNotWaiting(message=_("Seats can be left only before the game starts."))
        deleted, _unused = Seat.objects.filter(game=game, player=player).delete()
        if not deleted:
            raise NotSeated(message=_("%(name)s has no seat in this game.") % {"name": player.name})
        if not game.seats.exists():
            game.status = GameStatus.ABORTED
            game.finished_at = timezone.now()
            game.save(update_fields=["status", "finished_at"])
    return game


def game_abort(*, game_id: int, by: Player) -> Game:
    """The creator calls off a game that has not started."""
    with transaction.atomic():
        game = _lock(game_id)
        if game.creator_id != by.pk:
            raise NotYourSeat(message=_("Only the game's creator can call it off."))
        if game.status != GameStatus.WAITING:
            raise GameNotWaiting(message=_("Only a game that has not started can be called off."))
        game.status = GameStatus.ABORTED
        game.finished_at = timezone.now()
        game.save(update_fields=["status", "finished_at"])
    return game


def game_call_off(*, game_id: int) -> Game:
    """Call off a game, started or not, that has no result yet: an event's time ran out on
    it (a daylong's window, docs/daylong.md). It ends without totals or a rating, and never
    shows its seed (docs/rules.md §8). Idempotent: a game already over is left as it is."""
    with transaction.atomic():
        game = _lock(game_id)
        if game.status in (GameStatus.WAITING, GameStatus.ACTIVE):
            started = game.status == GameStatus.ACTIVE
            game.status = GameStatus.ABORTED
            game.finished_at = timezone.now()
            game.to_act = None
            game.save(update_fields=["status", "finished_at", "to_act"])
            if started:  # the clients waiting on it, and the bots' and clock's queues, learn now
                outbox.emit([outbox.event(game, "game_called_off", seq=game.move_count)])
    return game


def _start(game: Game) -> None:
    """Fill-in at the fourth seat (inside the caller's transaction, game row locked)."""
    players = {s.position: s.player for s in game.seats.select_related("player")}
    state = GameState.new(game.seed, schedule=game.schedule)
    game.team_0 = team_get_or_create(player_a=players[0], player_b=players[2])
    game.team_1 = team_get_or_create(player_a=players[1], player_b=players[3])
    game.status = GameStatus.ACTIVE
    game.started_at = timezone.now()
    game.to_act = state.seat_to_act
    game.deal_number = state.deal_number
    game.snapshot = statecache.dump(state)
    game.snapshot_seq = 0
    game.save()
    movelog.store_deal(game, state.deal_number, state.attempt, state.dealer, 0)
    transaction.on_commit(lambda: statecache.remember(game, state))
    outbox.emit([outbox.event(game, "game_started", seq=0)])


# --- moves -------------------------------------------------------------------------------


@dataclass(frozen=True)
class MoveResult:
    move: Move
    body: dict[str, Any]  # what the submitter is answered (stored for replays)
    replayed: bool


def action_code(action: object) -> int:
    """The engine's int for an action given as an int, its text or its JSON form."""
    if isinstance(action, bool):
        raise ActionParseError(_("Not an action."), {})
    if isinstance(action, int):
        action_to_json(action)  # validates the range
        return action
    if isinstance(action, str):
        return parse_action(action)
    return action_from_json(action)


def check_key(key: str | None) -> None:
    """An Idempotency-Key is 1 to 100 printable ASCII characters (or absent)."""
    if key is None:
        return
    if not (1 <= len(key) <= 100) or not key.isascii() or not key.isprintable():
        raise BadIdempotencyKey(
            message=_("An Idempotency-Key is 1 to 100 printable ASCII characters.")
        )


SeatChooser = Callable[[list[Seat]], Collection[int]]


def replayed_move(
    game: Game, seat_rows: list[Seat], held: Collection[int], key: str | None, code: int
) -> MoveResult | None:
    """The stored answer to a request retried with the same ``key`` (game row locked), None
    for a new key; ``idempotency_key_reused`` when the key named another move."""
    if key is None:
        return None
    prior = Move.objects.filter(game=game, idempotency_key=key).first()
    if prior is None:
        return None
    if prior.seat not in held or prior.action_code != code:
        raise IdempotencyKeyReused(
            message=_("This Idempotency-Key was already used for another move.")
        )
    body = prior.response
    if body is None:  # answered before the pruning window: the state as of now
        body = {
            "move": {"seq": prior.seq, "seat": prior.seat, "action": prior.action},
            **state_payload(game, seat_rows, statecache.state_for(game), prior.seat),
        }
    return MoveResult(prior, body, True)


def move_submit(
    *,
    game_id: int | str,
    seats: Collection[int] | SeatChooser,
    action: object,
    expected_seq: int | None,
    idempotency_key: str | None = None,
    submitted_by: str | None = None,
    actor: Player | None = None,
    user: Any = None,
) -> MoveResult:
    """Apply one action for the seat to act, if it is one of ``seats`` (those the caller holds).

    Checks, in order, under the game row lock: a replayed ``idempotency_key`` (answered with
    the stored body), the game's status, the caller's seats (403 ``not_your_seat``),
    ``expected_seq`` (409 ``stale_state`` with the current state), the turn (409
    ``not_your_turn``), then the engine's rules (400 with its code). Nothing is written
    unless the move lands.

    ``game_id`` is the pk or the public id. ``seats`` are the positions the caller may act
    for, or a function choosing them from the game's seat rows (read under the lock, so the
    API needs no second look-up).

    ``submitted_by`` defaults to "bot" for a bot's seat and "player" otherwise; the clock
    passes "system" for a substituted move. ``actor`` defaults to the seat's player.
    """
    code = action_code(action)
    if code > BOARD:
        raise ActionParseError("A move is a bid or a card (claims have their own endpoints).", {})
    check_key(idempotency_key)
    with transaction.atomic():
        game = _lock(game_id)
        seat_rows = list(game.seats.select_related("player"))
        held = frozenset(seats(seat_rows) if callable(seats) else seats)
        replay = replayed_move(game, seat_rows, held, idempotency_key, code)
        if replay is not None:
            return replay
        if game.status == GameStatus.WAITING:
            raise GameNotStarted(message=_("The game has not started: seats are still open."))
        if game.status == GameStatus.ABORTED:
            raise GameAborted(message=_("This game was called off."))
        if not held:
            raise NotYourSeat(message=_("You have no seat in this game."))
        state = statecache.state_for(game)
        viewer = state.seat_to_act if state.seat_to_act in held else min(held)
        if expected_seq is not None and expected_seq != game.move_count:
            raise StaleState(
                message=(
                    _(
                        "The game is at move %(move_count)s, not %(expected_seq)s: here is the current state."
                    )
                    % {"move_count": game.move_count, "expected_seq": expected_seq}
                ),
                extra={
                    "expected_seq": expected_seq,
                    "seq": game.move_count,
                    "state": state_payload(game, seat_rows, state, viewer),
                },
            )
        if game.status == GameStatus.FINISHED:
            raise GameOver(message=_("The game is over."))
        to_act = state.seat_to_act
        if to_act is None or to_act not in held:
            raise NotYourTurn(
                message=_("It is seat %(to_act)s's turn.") % {"to_act": to_act},
                extra={"to_act": to_act, "seq": game.move_count},
            )
        new = state.clone()
        events: list[dict[str, Any]] = []
        new.apply(code, seat=to_act, events=events)  # raises the engine's typed error
        return commit_move(
            game, seat_rows, new, events, to_act, code, idempotency_key, submitted_by, actor, user
        )


def commit_move(
    game: Game,
    seat_rows: list[Seat],
    state: GameState,
    events: list[dict[str, Any]],
    seat: int,
    code: int,
    key: str | None,
    submitted_by: str | None,
    actor: Player | None,
    user: Any,
) -> MoveResult:
    """Write the move just applied to ``state``, then what the service plays on its own
    after it (``games.autoplay.play_on``: forced actions, premoves, a settled deal), each
    its own row and event, and the game row once."""
    now = timezone.now()
    written = movelog.Written()
    move = movelog.write_move(
        game,
        seat_rows,
        state,
        events,
        written,
        seat=seat,
        code=code,
        submitted_by=submitted_by,
        actor=actor,
        user=user,
        key=key,
    )
    then = autoplay.play_on(game=game, seat_rows=seat_rows, state=state, written=written)
    abandoned = {s.position for s in seat_rows if s.abandoned_at is not None}
    movelog.finish(game, state, written, now, abandoned=abandoned)
    body = {
        "move": {"seq": move.seq, "seat": seat, "action": move.action},
        **state_payload(game, seat_rows, state, seat),
    }
    if then:
        # What the service played after this move, in order (public moves: any seat sees them).
        body["then"] = [
            {"seq": m.seq, "seat": m.seat, "action": action_to_json(m.code), "by": m.by}
            for m in then
        ]
    # Kept only to answer a retried request with the same key (pruned after a window).
    move.response = body if key is not None else None
    movelog.save_moves(written)
    return MoveResult(move, body, False)
