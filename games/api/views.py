"""The play API: thin views that translate HTTP to the games services and selectors."""

from __future__ import annotations

import re
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.generics import ListAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import Player
from accounts.permissions import PLAY, PLAY_OR_BOT, READ, one_bot_of
from accounts.services import player_for_user
from games import claims, forks, invitations, premoves, selectors, services
from games.api.permissions import controlled_seats, require_bot, require_self
from games.api.serializers import (
    ClaimAnswerSerializer,
    ClaimSerializer,
    ErrorSerializer,
    ForkSerializer,
    GameCreateSerializer,
    GameStateSerializer,
    GameSummarySerializer,
    InviteSerializer,
    LegalActionsSerializer,
    MoveResponseSerializer,
    MoveSerializer,
    PremoveSerializer,
    PremoveSetSerializer,
    PresenceSerializer,
    SeatTakeSerializer,
    TablePresenceSerializer,
)
from games.errors import BadGameSetup, NotYourSeat, UnknownPlayer
from games.live import presence
from games.models import Game, GameStatus, Seat

SEAT_PARAM = OpenApiParameter(
    "seat", int, description="Which of your seats to look through, if you hold several."
)
ERRORS = {400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer, 409: ErrorSerializer}


_WHOLE = re.compile(r"-?[0-9]{1,12}")


def _int_param(request: Request, name: str, default: int | None, lo: int, hi: int) -> int | None:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    # ASCII digits only: int() would also accept "٣", "1_000" and spaces.
    if not _WHOLE.fullmatch(raw):
        raise BadGameSetup(
            "bad_parameter", _("'%(name)s' must be a whole number.") % {"name": name}
        )
    value = int(raw)
    if not lo <= value <= hi:
        raise BadGameSetup(
            "bad_parameter",
            _("'%(name)s' must be between %(lo)s and %(hi)s.") % {"name": name, "lo": lo, "hi": hi},
        )
    return value


def _player_named(name: str, *, bot: bool) -> Player:
    player = Player.objects.filter(name__iexact=name.strip(), is_bot=bot).first()
    if player is None:
        raise UnknownPlayer(
            message=(
                _("There is no bot called %(name)s.")
                if bot
                else _("There is no player called %(name)s.")
            )
            % {"name": repr(name)},
            extra={"name": name},
        )
    return player


def _own_bot(request: Request, name: str) -> Player:
    bot = _player_named(name, bot=True)
    if bot.owner_id != request.user.pk:
        raise NotYourSeat(message=_("%(name)s is not your bot.") % {"name": bot.name})
    require_bot(request, bot.pk)
    return bot


class GameAccess:
    """The game of the URL, its seats and which of them the caller holds."""

    def __init__(
        self, request: Request, public_id: str, *, requested_seat: bool = True, acting: bool = False
    ):
        self.game = selectors.game_get(public_id=public_id)
        self.seats = selectors.game_seats(game=self.game)
        self.controlled = controlled_seats(request, self.seats, acting=acting)
        # A game of a deal set whose seed is not public is its players' alone.
        selectors.game_check_shown(game=self.game, controlled=self.controlled)
        self.requested = _int_param(request, "seat", None, 0, 3) if requested_seat else None
        self.seat = selectors.viewer_seat(
            game=self.game, controlled=self.controlled, requested=self.requested
        )


class GameListCreateView(APIView):
    scopes = PLAY_OR_BOT

    @extend_schema(
        request=GameCreateSerializer,
        responses={201: GameStateSerializer, **ERRORS},
        summary="Create a game",
        description=(
            "Four seats, each `me`, a `player` or a `bot` by name, or `open`. You, your own "
            "bots, the house bots and bots that accept your invitations automatically sit "
            "down at once; every other named player is invited (see /invitations/) and sits "
            "down only on accepting. The seed's commitment is published now; the game starts "
            "when all four seats are filled. Limits: 409 `too_many_waiting_games`, 429 "
            "`too_many_new_games`, 409 `creator_not_seated` (seat yourself or a bot of yours)."
        ),
    )
    def post(self, request: Request) -> Response:
        data = GameCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        specs = data.validated_data["seats"]
        if any(spec["kind"] == "me" for spec in specs):
            require_self(request)
        me = player_for_user(request.user)
        seats: list[Player | None] = []
        for spec in data.validated_data["seats"]:
            kind = spec["kind"]
            if kind == "me":
                seats.append(me)
            elif kind == "open":
                seats.append(None)
            else:
                seats.append(_player_named(spec["name"], bot=kind == "bot"))
        game = invitations.game_create_inviting(
            creator=me, seats=seats, options=data.validated_data.get("options")
        )
        access = GameAccess(request, game.public_id, requested_seat=False)
        body = selectors.game_view(game=access.game, seats=access.seats, seat=access.seat)
        return Response(body, status=status.HTTP_201_CREATED)


class OpenGamesView(ListAPIView):  # type: ignore[type-arg]
    """Games waiting for players, newest first."""

    scopes = READ
    serializer_class = GameSummarySerializer

    def get_queryset(self) -> QuerySet[Game]:
        return selectors.games_open()


class MyGamesView(ListAPIView):  # type: ignore[type-arg]
    """Games where you or your bots sit: those waiting on you first (for a token made for
    one bot, that bot's games)."""

    scopes = READ
    serializer_class = GameSummarySerializer

    @extend_schema(
        parameters=[
            OpenApiParameter("status", str, enum=[s.value for s in GameStatus]),
        ]
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    def get_queryset(self) -> QuerySet[Game]:
        wanted = self.request.query_params.get("status") or None
        if wanted is not None and wanted not in GameStatus.values:
            raise BadGameSetup(
                "bad_parameter", _("Unknown status %(wanted)s.") % {"wanted": repr(wanted)}
            )
        return selectors.games_for_user(
            user=self.request.user, status=wanted, only_bot=one_bot_of(self.request)
        )


class GameDetailView(APIView):
    scopes = READ

    @extend_schema(
        parameters=[SEAT_PARAM],
        responses={200: GameStateSerializer, **ERRORS},
        summary="A game as your seat sees it",
        description=(
            "Spectators (no seat) see no hands; the seed appears once the game is over. "
            "`presence` (the game's players only, null for anyone else) says which seats are "
            "at the table now: an open table page or event stream for that seat."
        ),
    )
    def get(self, request: Request, public_id: str) -> Response:
        a = GameAccess(request, public_id)
        body = selectors.game_view(game=a.game, seats=a.seats, seat=a.seat)
        # Who is at the table is the players' business: a spectator is told nothing.
        body["presence"] = (
            _presence_rows(presence.seats_present(a.game.pk))
            if a.controlled and a.game.status == GameStatus.ACTIVE
            else None
        )
        return Response(body)


class SeatsView(APIView):
    scopes = PLAY_OR_BOT

    @extend_schema(
        request=SeatTakeSerializer,
        responses={201: GameStateSerializer, **ERRORS},
        summary="Take an open seat (yourself, or one of your bots)",
    )
    def post(self, request: Request, public_id: str) -> Response:
        data = SeatTakeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = selectors.game_get(public_id=public_id)
        bot = data.validated_data.get("bot")
        if not bot:
            require_self(request)
        player = _own_bot(request, bot) if bot else player_for_user(request.user)
        services.game_join_seat(
            game_id=game.pk, player=player, position=data.validated_data.get("position")
        )
        a = GameAccess(request, public_id, requested_seat=False)
        seat = next((s.position for s in a.seats if s.player_id == player.pk), a.seat)
        return Response(
            selectors.game_view(game=a.game, seats=a.seats, seat=seat),
            status=status.HTTP_201_CREATED,
        )


class GameInvitationsView(APIView):
    scopes = PLAY  # the creator acts as the person

    @extend_schema(
        request=InviteSerializer,
        responses={201: GameStateSerializer, **ERRORS},
        summary="Invite a player to an open seat of your waiting game",
        description=(
            "The game's creator names a `player` or a `bot` for an open seat, by the rules of "
            "creation: your own bots, the house bots and bots that accept your invitations "
            "automatically sit down at once (the fourth seat starts the game); anyone else is "
            "invited and the seat is held for them (`invited` in the answer). For a seat that "
            "was declined or whose invitation expired. 403 `not_your_seat` (not your game), "
            "409 `seat_taken`, `already_seated`, `already_invited`, `game_not_waiting`, "
            "`too_many_invitations` (`GAMES_MAX_INVITATIONS_PER_GAME` per game)."
        ),
    )
    def post(self, request: Request, public_id: str) -> Response:
        data = InviteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = selectors.game_get(public_id=public_id)
        invited = _player_named(
            data.validated_data["name"], bot=data.validated_data["kind"] == "bot"
        )
        invitations.invitation_send(
            game_id=game.pk,
            by=player_for_user(request.user),
            position=data.validated_data["position"],
            player=invited,
        )
        access = GameAccess(request, public_id, requested_seat=False)
        body = selectors.game_view(game=access.game, seats=access.seats, seat=access.seat)
        return Response(body, status=status.HTTP_201_CREATED)


class SeatDetailView(APIView):
    scopes = PLAY_OR_BOT

    @extend_schema(
        responses={200: GameSummarySerializer, **ERRORS},
        summary="Leave a seat (yours or your bot's) before the game starts",
    )
    def delete(self, request: Request, public_id: str, position: int) -> Response:
        a = GameAccess(request, public_id, requested_seat=False, acting=True)
        seat = next((s for s in a.seats if s.position == position), None)
        if seat is None or position not in a.controlled:
            raise NotYourSeat(
                message=_("You do not hold seat %(position)s in this game.")
                % {"position": position}
            )
        game = services.game_leave_seat(game_id=a.game.pk, player=seat.player)
        return Response(GameSummarySerializer(game).data)


class AbortView(APIView):
    scopes = PLAY

    @extend_schema(
        request=None,
        responses={200: GameSummarySerializer, **ERRORS},
        summary="Call off a game you created, before it starts",
    )
    def post(self, request: Request, public_id: str) -> Response:
        game = selectors.game_get(public_id=public_id)
        game = services.game_abort(game_id=game.pk, by=player_for_user(request.user))
        return Response(GameSummarySerializer(game).data)


class LegalActionsView(APIView):
    scopes = READ

    @extend_schema(
        parameters=[SEAT_PARAM],
        responses={200: LegalActionsSerializer, **ERRORS},
        summary="Your legal actions now (empty unless it is your turn)",
    )
    def get(self, request: Request, public_id: str) -> Response:
        a = GameAccess(request, public_id)
        return Response(selectors.legal_actions(game=a.game, seat=a.seat))


class MovesView(APIView):
    scopes = PLAY_OR_BOT

    @extend_schema(
        request=MoveSerializer,
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                str,
                location=OpenApiParameter.HEADER,
                description="Retry with the same key to get the same answer, never a 2nd move.",
            )
        ],
        responses={201: MoveResponseSerializer, **ERRORS, 422: ErrorSerializer},
        summary="Submit a move",
        description=(
            "409 `stale_state` (with the current state in `extra.state`) when `expected_seq` "
            "is not the game's move count; 409 `not_your_turn`; 403 `not_your_seat`; 400 with "
            "the rule broken (`must_follow_suit`, `trump_not_broken`, ...)."
        ),
    )
    def post(self, request: Request, public_id: str) -> Response:
        data = MoveSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        wanted = data.validated_data.get("seat")

        def held(seats: list[Seat]) -> list[int]:
            mine = controlled_seats(request, seats, acting=True)
            if not mine and seats:  # read under the lock; the game is the seats' own row
                selectors.game_check_shown(game=seats[0].game, controlled=mine)
            if wanted is None:
                return mine
            if wanted not in mine:
                raise NotYourSeat(
                    message=_("You do not hold seat %(wanted)s in this game.") % {"wanted": wanted}
                )
            return [wanted]

        result = services.move_submit(
            game_id=public_id,
            seats=held,
            action=data.validated_data["action"],
            expected_seq=data.validated_data["expected_seq"],
            idempotency_key=request.headers.get("Idempotency-Key"),
            user=request.user,
        )
        return Response(result.body, status=status.HTTP_201_CREATED)


def _presence_rows(here: list[bool]) -> list[dict[str, Any]]:
    """Who is at the table now, seat by seat: times stay on the server, only yes or no."""
    return [{"position": p, "present": present} for p, present in enumerate(here)]


class PresenceView(APIView):
    scopes = PLAY_OR_BOT

    @extend_schema(
        request=PresenceSerializer,
        responses={200: TablePresenceSerializer, **ERRORS},
        summary="Say whether your table page is in view",
        description=(
            f"A table page calls this when it is shown (and every {presence.PING_S} s while "
            "it stays in view) and when it is hidden or closed; an open event stream for "
            "your seat counts as being there too. While you are there, nobody pushes you "
            '"your turn": it is pushed once your page has been away for a while. The answer '
            "says who is at the table now (as `presence` in the game's payload), so the page "
            "keeps its seats' marks fresh between moves. 403 `not_your_seat`."
        ),
    )
    def post(self, request: Request, public_id: str) -> Response:
        data = PresenceSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = selectors.game_get(public_id=public_id)
        seats = selectors.game_seats(game=game)
        mine = controlled_seats(request, seats, acting=True)
        wanted = data.validated_data.get("seat")
        if wanted is None and len(mine) == 1:
            wanted = mine[0]
        if wanted is None or wanted not in mine:
            raise NotYourSeat(message=_("Name one of your own seats in this game."))
        presence.mark(game.pk, wanted, shown=data.validated_data["shown"])
        if game.status != GameStatus.ACTIVE:
            return Response({"presence": []})
        here = presence.seats_present(game.pk)  # read once: the answer and the signal
        if data.validated_data["shown"]:
            presence.seat_shown.send(sender=PresenceView, game=game, seats=seats, here=here)
        return Response({"presence": _presence_rows(here)})


class ForkView(APIView):
    scopes = PLAY  # the forker sits as the person, or seats their bots as the person

    @extend_schema(
        request=ForkSerializer,
        responses={201: GameStateSerializer, **ERRORS},
        summary="Fork a finished game: a new unrated game from one of its moves",
        description=(
            "A new game dealt from the same seed, whose move log begins with the original's "
            "first `move` moves (`submitted_by` `fork`); its four `seats` play on from "
            "there: `me`, or a `bot` by name, one of yours or a house bot (one seat is you or "
            "a bot of yours). It is never rated, is compared with no other table, starts at "
            "once (its hosted bots play their turns) and its record names where it came from "
            "(`forked_from`, docs/record-format.md). 409 `game_not_finished`, "
            "`record_not_public` (other tables still play these cards), `creator_not_seated`; "
            "400 `invalid_move_number` (outside 0 to the move count minus one, or a claim "
            "waiting for answers there), `unknown_player` (no bot of that name); 403 "
            "`fork_seat_not_allowed` (another person, or another owner's bot); 429 `too_many_new_games`."
        ),
        examples=[
            OpenApiExample(
                "Your bot and three house bots, from move 120",
                value={
                    "move": 120,
                    "seats": [
                        {"kind": "bot", "name": "my-bot"},
                        {"kind": "bot", "name": "house-strong"},
                        {"kind": "bot", "name": "house-strong-2"},
                        {"kind": "bot", "name": "house-strong-3"},
                    ],
                },
                request_only=True,
            )
        ],
    )
    def post(self, request: Request, public_id: str) -> Response:
        data = ForkSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        original = selectors.game_get(public_id=public_id)
        me = player_for_user(request.user)
        seats: list[Player] = []
        for spec in data.validated_data["seats"]:
            if spec["kind"] == "me":
                seats.append(me)
            else:
                seats.append(_player_named(spec["name"], bot=True))
        fork = forks.game_fork(
            game_id=original.pk, by=me, move=data.validated_data["move"], seats=seats
        )
        a = GameAccess(request, fork.public_id, requested_seat=False)
        body = selectors.game_view(game=a.game, seats=a.seats, seat=a.seat)
        return Response(body, status=status.HTTP_201_CREATED)


class RecordView(APIView):
    scopes = READ

    @extend_schema(
        parameters=[SEAT_PARAM],
        responses={200: dict, **ERRORS},
        summary="The game record (backalley-record v2)",
        description="For your seat while the game is on; whole, with the seed, once it is over.",
    )
    def get(self, request: Request, public_id: str) -> Response:
        a = GameAccess(request, public_id)
        return Response(selectors.game_record(game=a.game, seats=a.seats, seat=a.seat))


class PremoveView(APIView):
    """One seat's queued next action (its secret: only that seat's holder reads it)."""

    scopes = PLAY_OR_BOT

    def _held(self, request: Request, public_id: str) -> tuple[Game, list[int], int | None]:
        game = selectors.game_get(public_id=public_id)
        seats = selectors.game_seats(game=game)
        held = controlled_seats(request, seats, acting=True)
        return game, held, _int_param(request, "seat", None, 0, 3)

    @extend_schema(
        parameters=[SEAT_PARAM],
        responses={200: PremoveSerializer, **ERRORS},
        summary="Your queued premove, or why the last one was dropped",
    )
    def get(self, request: Request, public_id: str) -> Response:
        game, held, seat = self._held(request, public_id)
        if not held or (seat is not None and seat not in held):
            raise NotYourSeat(message="You have no seat in this game.")
        position = seat if seat is not None else held[0]
        return Response(premoves.premove_get(game=game, seat=position))

    @extend_schema(
        request=PremoveSetSerializer,
        responses={200: PremoveSerializer, **ERRORS},
        summary="Queue (or replace) your next action before your turn",
        description=(
            "Played at once when your turn comes, if it is legal then (`submitted_by` "
            "`premove`); otherwise dropped, and `dropped` says why. One per seat, in the "
            "current deal only. 409 `premove_not_allowed` on your own turn; 400 "
            "`premove_not_legal` for a card you do not hold or a bid out of range."
        ),
    )
    def put(self, request: Request, public_id: str) -> Response:
        data = PremoveSetSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game, held, _ = self._held(request, public_id)
        body = premoves.premove_set(
            game_id=game.pk,
            seats=held,
            action=data.validated_data["action"],
            seat=data.validated_data.get("seat"),
        )
        return Response(body)

    @extend_schema(
        parameters=[SEAT_PARAM],
        responses={200: PremoveSerializer, **ERRORS},
        summary="Cancel your queued premove",
    )
    def delete(self, request: Request, public_id: str) -> Response:
        game, held, seat = self._held(request, public_id)
        return Response(premoves.premove_cancel(game_id=game.pk, seats=held, seat=seat))


KEY_PARAM = OpenApiParameter(
    "Idempotency-Key",
    str,
    location=OpenApiParameter.HEADER,
    description="Retry with the same key to get the same answer, never a second claim.",
)


class ClaimView(APIView):
    """Claim (or concede) the remaining tricks of the deal, between tricks."""

    scopes = PLAY_OR_BOT

    @extend_schema(
        request=ClaimSerializer,
        parameters=[KEY_PARAM],
        responses={201: MoveResponseSerializer, **ERRORS, 422: ErrorSerializer},
        summary="Claim that your team takes N of the remaining tricks (0 concedes them)",
        description=(
            "Between tricks of a deal in play. Your hand is shown to the table from now on. "
            "A claim the engine proves against every defence (and a concession) ends the "
            "deal at once (`view.claim.how` = `proven`); otherwise both opponents are asked "
            "and play waits for their answers (`view.claim.status` = `pending`). 409 "
            "`claim_not_allowed` (a trick in progress, a claim pending, a number out of "
            "range), 409 `claim_refused` (your side's claim was refused since the last trick)."
        ),
    )
    def post(self, request: Request, public_id: str) -> Response:
        data = ClaimSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = selectors.game_get(public_id=public_id)
        held = controlled_seats(request, selectors.game_seats(game=game), acting=True)
        result = claims.claim_make(
            game_id=game.pk,
            seats=held,
            tricks=data.validated_data["tricks"],
            seat=data.validated_data.get("seat"),
            idempotency_key=request.headers.get("Idempotency-Key"),
            user=request.user,
        )
        return Response(result.body, status=status.HTTP_201_CREATED)


class ClaimAnswerView(APIView):
    """An opponent's answer to the pending claim."""

    scopes = PLAY_OR_BOT
    accept = True

    @extend_schema(
        request=ClaimAnswerSerializer,
        parameters=[KEY_PARAM],
        responses={201: MoveResponseSerializer, **ERRORS, 422: ErrorSerializer},
        summary="Accept or refuse the pending claim",
        description=(
            "For an opponent of the claimant who has not answered. When both accept, the "
            "claimed tricks are credited and the deal is scored; a refusal changes nothing "
            "and play goes on. 409 `no_claim_pending` when there is no claim for you to answer."
        ),
    )
    def post(self, request: Request, public_id: str) -> Response:
        data = ClaimAnswerSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = selectors.game_get(public_id=public_id)
        held = controlled_seats(request, selectors.game_seats(game=game), acting=True)
        result = claims.claim_answer(
            game_id=game.pk,
            seats=held,
            accept=self.accept,
            seat=data.validated_data.get("seat"),
            idempotency_key=request.headers.get("Idempotency-Key"),
            user=request.user,
        )
        return Response(result.body, status=status.HTTP_201_CREATED)


class ClaimRefuseView(ClaimAnswerView):
    accept = False
