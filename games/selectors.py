"""Reads for games: look-ups, lists, who holds which seat, and what a seat may see."""

from __future__ import annotations

from typing import Any, Literal

from django.db.models import Case, Count, F, IntegerField, Q, QuerySet, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Player
from backalley_engine.actions import BOARD, action_str, action_to_json
from backalley_engine.cards import mask_to_cards
from backalley_engine.errors import EngineError
from backalley_engine.state import GameState
from backalley_engine.summary import deal_summary
from games import dealsets, statecache
from games.errors import GameNotFound, InvitationNotFound, NotYourSeat
from games.messages import error_message
from games.models import Game, GameStatus, Invitation, InvitationStatus, Move, Seat
from games.presenters import state_payload


def seed_is_public(*, game: Game) -> bool:
    """Whether ``game``'s seed, and every hand of its record, may be shown to anyone: the
    game is finished, and so is every other game dealt from its seed (its deal set, closed).
    The one rule every reader of a seed goes through (``games.dealsets``, docs/rules.md §8)."""
    return dealsets.seed_is_public(game)


def game_get(*, public_id: str) -> Game:
    try:
        return Game.objects.get(public_id=public_id)
    except Game.DoesNotExist:
        raise _not_found(public_id) from None


def _not_found(public_id: str) -> GameNotFound:
    return GameNotFound(
        message=_("No game %(public_id)s.") % {"public_id": repr(public_id)},
        extra={"id": public_id},
    )


def game_hidden(*, game: Game, controlled: list[int]) -> bool:
    """Whether the game is kept from a reader who holds ``controlled`` of its seats: while
    another table may still be dealt, or is playing, the same cards (its deal set is open,
    as a daylong's version is until the window's end, or another game of the set is not
    over, as in a duplicate round or an arena pair), a game is its own players' alone,
    running or finished (docs/rules.md §8). What its table shows, the cards played, would
    tell that table its hands."""
    if controlled:
        return False
    return dealsets.cards_in_play_elsewhere(game)


def game_check_shown(*, game: Game, controlled: list[int]) -> None:
    """Refuse a hidden game (:func:`game_hidden`) as a game that does not exist, in the
    very words of :func:`game_get`: the refusal tells nothing, not even that it exists."""
    if game_hidden(game=game, controlled=controlled):
        raise _not_found(game.public_id)


def game_seats(*, game: Game) -> list[Seat]:
    return list(Seat.objects.filter(game=game).select_related("player").order_by("position"))


def players_controlled_by(*, user: Any, only_bot: int | None = None) -> QuerySet[Player]:
    """The person's own player and the bots they own; ``only_bot`` (a token made for one
    bot): that bot alone."""
    if not getattr(user, "is_authenticated", False):
        return Player.objects.none()
    if only_bot is not None:
        return Player.objects.filter(pk=only_bot, is_bot=True, owner=user)
    return Player.objects.filter(Q(user=user) | Q(is_bot=True, owner=user))


def seats_controlled(*, seats: list[Seat], user: Any, include_bots: bool = True) -> list[int]:
    """Positions ``user`` may act for: their own, and (``include_bots``) their bots'."""
    if not getattr(user, "is_authenticated", False):
        return []
    out = []
    for seat in seats:
        p = seat.player
        if p.user_id == user.pk or (include_bots and p.is_bot and p.owner_id == user.pk):
            out.append(seat.position)
    return sorted(out)


def viewer_seat(*, game: Game, controlled: list[int], requested: int | None = None) -> int | None:
    """Which seat's eyes a request looks through: the requested one (if held), the only one
    held, the held seat to act, or the lowest held; None for a spectator."""
    if requested is not None:
        if requested not in controlled:
            raise NotYourSeat(
                message=_("You do not hold seat %(requested)s in this game.")
                % {"requested": requested}
            )
        return requested
    if not controlled:
        return None
    if game.to_act in controlled:
        return game.to_act
    return controlled[0]


def game_state(*, game: Game) -> GameState | None:
    """The engine state of a started game (shared: do not mutate); None while waiting."""
    if game.started_at is None:
        return None
    return statecache.state_for(game)


def game_view(*, game: Game, seats: list[Seat], seat: int | None) -> dict[str, Any]:
    return state_payload(game, seats, game_state(game=game), seat)


def last_deal_summary(*, game: Game) -> dict[str, Any] | None:
    """The latest finished deal (bids, contracts, tricks, points, rules); public."""
    state = game_state(game=game)
    if state is None or not state.deals:
        return None
    return deal_summary(state.deals[-1])


def current_contracts(*, game: Game) -> list[list[int]] | None:
    """Per team [sum of numbers, board level] of the deal in progress (the engine's)."""
    state = game_state(game=game)
    if state is None or state.is_terminal():
        return None
    return [list(c) for c in state.contracts()]


def illegal_reasons(*, game: Game, seat: int | None) -> dict[str, str]:
    """Why each card of ``seat``'s hand may not be played now, in the engine's own words
    (empty unless it is that seat's turn to play). Only the seat's own cards are named."""
    state = game_state(game=game)
    if state is None or seat is None or state.seat_to_act != seat or state.phase != "playing":
        return {}
    legal = set(state.legal_actions())
    out: dict[str, str] = {}
    for card in mask_to_cards(state.hands[seat]):
        if card in legal:
            continue
        try:
            state.clone().apply(card, seat=seat)
        except EngineError as exc:
            out[action_str(card)] = error_message(exc)
    return out


def legal_actions(*, game: Game, seat: int | None) -> dict[str, Any]:
    """The actions ``seat`` may take now (empty unless it is that seat's turn)."""
    state = game_state(game=game)
    actions: list[int] = []
    if state is not None and seat is not None and state.seat_to_act == seat:
        actions = state.legal_actions()
    return {
        "seat": seat,
        "seq": game.move_count,
        "to_act": state.seat_to_act if state is not None else None,
        "actions": [action_to_json(a) for a in actions],
        "text": [action_str(a) for a in actions],
    }


def game_record(
    *, game: Game, seats: list[Seat], seat: int | None, state: GameState | None = None
) -> dict[str, Any]:
    """The game record (docs/record-format.md): the seat's view while on, everything once
    the seed is public (:func:`seed_is_public`: until every game of its seed is over, a
    finished game's record is still the seat's view, seed ``null``). ``state``: the game's
    engine state when the caller has it already."""
    if state is None:
        state = game_state(game=game)
    if state is None:
        raise GameNotFound(message=_("The game has not started: there is no record yet."))
    names = [s.player.name for s in sorted(seats, key=lambda s: s.position)]
    reveal = dealsets.seed_is_public(game)
    viewer: int | Literal["all"] | None = "all" if reveal else seat
    record = state.record(viewer, players=names, game=game.public_id, reveal=reveal)
    _add_movers(game, record)
    origin = fork_origin(game=game)
    if origin is not None:
        record["forked_from"] = origin
    return record


def fork_origin(*, game: Game) -> dict[str, Any] | None:
    """Where a fork came from (docs/record-format.md, ``forked_from``): the original's id
    (null if it was deleted since) and how many of its moves the fork's log begins with;
    None for a game that is no fork."""
    if game.forked_at_move is None:
        return None
    original = None
    if game.forked_from_id is not None:
        rows = Game.objects.filter(pk=game.forked_from_id).values_list("public_id", flat=True)
        original = rows.first()
    return {"game": original, "move": game.forked_at_move}


def _add_movers(game: Game, record: dict[str, Any]) -> None:
    """Who made each bid and card (docs/record-format.md, version 2's ``by`` keys): the
    seat's player, its bot, the system (a substitution), the service (``auto``: a forced
    action or a settled deal) or the seat's premove."""
    bys = iter(
        Move.objects.filter(game=game, action_code__lte=BOARD)
        .order_by("seq")
        .values_list("submitted_by", flat=True)
    )
    for deal in record["deals"]:
        for bid in deal["bids"]:
            bid["by"] = next(bys, None)
        for trick in deal["tricks"]:
            trick["by"] = [next(bys, None) for _ in trick["cards"]]


def games_open() -> QuerySet[Game]:
    """Games waiting for players, newest first."""
    held = Count(
        "invitations",
        filter=Q(
            invitations__status=InvitationStatus.PENDING,
            invitations__expires_at__gt=timezone.now(),
        ),
        distinct=True,
    )
    return (
        Game.objects.filter(status=GameStatus.WAITING)
        .annotate(n_seats=Count("seats", distinct=True), n_held=held)
        .filter(n_seats__lt=4 - F("n_held"))
        .defer("snapshot", "seed")
        .prefetch_related("seats__player")
        .order_by("-created_at")
    )


def games_for_user(
    *, user: Any, status: str | None = None, only_bot: int | None = None
) -> QuerySet[Game]:
    """The games where the user (or one of their bots; ``only_bot``: that bot) sits, those
    waiting on them first."""
    players = players_controlled_by(user=user, only_bot=only_bot)
    my_turn = Q(
        status=GameStatus.ACTIVE,
        seats__player__in=players,
        seats__position=F("to_act"),
    )
    qs = Game.objects.filter(seats__player__in=players)
    if status:
        qs = qs.filter(status=status)
    waiting_ids = Game.objects.filter(my_turn).values("pk")
    return dealsets.with_seed_public(
        qs.distinct()
        .annotate(
            waiting_on_me=Case(
                When(pk__in=waiting_ids, then=Value(1)),
                default=Value(0),
                output_field=IntegerField(),
            ),
            status_rank=Case(
                When(status=GameStatus.ACTIVE, then=Value(0)),
                When(status=GameStatus.WAITING, then=Value(1)),
                default=Value(2),
                output_field=IntegerField(),
            ),
        )
        .defer("snapshot", "seed")
        .prefetch_related("seats__player")
        .order_by("-waiting_on_me", "status_rank", "-last_move_at", "-created_at")
    )


def invitations_for(
    *, user: Any, status: str | None = "pending", only_bot: int | None = None
) -> QuerySet[Invitation]:
    """Invitations to the user and their bots (``only_bot``: that bot), newest first.
    ``pending`` means still answerable: not expired, and the game still waiting for players."""
    players = players_controlled_by(user=user, only_bot=only_bot)
    qs = Invitation.objects.filter(player__in=players)
    if status == InvitationStatus.PENDING:
        qs = qs.filter(
            status=InvitationStatus.PENDING,
            expires_at__gt=timezone.now(),
            game__status=GameStatus.WAITING,
        )
    elif status:
        qs = qs.filter(status=status)
    return qs.select_related("game", "player", "invited_by").order_by("-created_at", "-pk")


def invitation_of(*, user: Any, invitation_id: int) -> Invitation:
    """One invitation to the user or one of their bots (someone else's: not found)."""
    row = (
        Invitation.objects.filter(pk=invitation_id, player__in=players_controlled_by(user=user))
        .select_related("game", "player", "invited_by")
        .first()
    )
    if row is None:
        raise InvitationNotFound(
            message=_("No invitation %(invitation_id)s.") % {"invitation_id": invitation_id},
            extra={"id": invitation_id},
        )
    return row


def fork_candidates(*, user: Any) -> list[Player]:
    """The bots a person may seat in a fork (games.forks): their own, then the house's."""
    return list(
        Player.objects.filter(is_bot=True, retired_at__isnull=True)
        .filter(Q(owner_id=user.pk) | Q(is_house=True))
        .order_by("is_house", "name")
    )


def deal_starts(*, game: Game) -> list[tuple[int, int]]:
    """(deal number, the move count when it was dealt) of each deal a fork may start at:
    those dealt before the game's last move."""
    return list(
        game.deals.filter(first_seq__lt=game.move_count)
        .order_by("first_seq", "number", "attempt")
        .values_list("number", "first_seq")
    )
