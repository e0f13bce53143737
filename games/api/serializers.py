"""Input validation and response shapes (for the schema) of the games API."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from backalley_site.api_schema import ErrorSerializer as ErrorSerializer  # the one error shape
from games.models import GameStatus
from games.presenters import game_summary


class SeatSpecSerializer(serializers.Serializer[Any]):
    """One seat at creation: ``me``, an invited ``player`` or a ``bot`` by name, or ``open``."""

    kind = serializers.ChoiceField(choices=["me", "player", "bot", "open"])
    name = serializers.CharField(required=False, max_length=30)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["kind"] in ("player", "bot") and not attrs.get("name"):
            raise serializers.ValidationError({"name": "A player or bot seat needs a name."})
        if attrs["kind"] in ("me", "open") and attrs.get("name"):
            raise serializers.ValidationError({"name": f"A '{attrs['kind']}' seat takes no name."})
        return attrs


class GameOptionsSerializer(serializers.Serializer[Any]):
    # Rated unless said otherwise, as on the site.
    rated = serializers.BooleanField(default=True)
    # The clock's option, checked by the clock (games.extensions): bounds live there.
    time_control = serializers.JSONField(
        required=False,
        allow_null=True,
        default=None,
        help_text=(
            '{"preset": "fast"} (GET /api/v1/time-controls/), {"hours_per_move": 12, '
            '"bank_seconds": 259200}, {"minutes_per_move": 2}, {"days_per_move": 1..14, '
            '"reserve_days": 0..30}, or null (docs/clock.md).'
        ),
    )


class GameCreateSerializer(serializers.Serializer[Any]):
    # many=True hands min_length/max_length to the ListSerializer, which the stubs do not know.
    seats = SeatSpecSerializer(many=True, min_length=4, max_length=4)  # type: ignore[call-arg]
    options = GameOptionsSerializer(required=False)


class ForkSeatSerializer(serializers.Serializer[Any]):
    """One seat of a fork: ``me``, or a ``bot`` by name (one of yours, or a house bot)."""

    kind = serializers.ChoiceField(choices=["me", "bot"])
    name = serializers.CharField(required=False, max_length=30)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["kind"] == "bot" and not attrs.get("name"):
            raise serializers.ValidationError({"name": _("A bot seat needs the bot's name.")})
        if attrs["kind"] == "me" and attrs.get("name"):
            raise serializers.ValidationError({"name": _("A 'me' seat takes no name.")})
        return attrs


class ForkSerializer(serializers.Serializer[Any]):
    move = serializers.IntegerField(
        min_value=0,
        help_text=(
            "How many of the original's moves the fork begins with (0: its first deal, "
            "unplayed); from 0 to the original's move count minus one."
        ),
    )
    seats = ForkSeatSerializer(many=True, min_length=4, max_length=4)  # type: ignore[call-arg]


class SeatTakeSerializer(serializers.Serializer[Any]):
    position = serializers.IntegerField(min_value=0, max_value=3, required=False)
    bot = serializers.CharField(
        required=False, max_length=30, help_text="Seat one of your bots instead of yourself."
    )


class InviteSerializer(serializers.Serializer[Any]):
    """An open seat of a waiting game, and the ``player`` or ``bot`` named for it."""

    position = serializers.IntegerField(min_value=0, max_value=3)
    kind = serializers.ChoiceField(choices=["player", "bot"])
    name = serializers.CharField(max_length=30)


class ActionField(serializers.JSONField):
    """``{"bid": "pass" | "board" | 1..12}`` or ``{"card": "AS"}``."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, dict):
            raise serializers.ValidationError(
                _('An action is an object: {"bid": "pass"|"board"|n} or {"card": "AS"}.')
            )
        return super().to_internal_value(data)


class MoveSerializer(serializers.Serializer[Any]):
    action = ActionField()
    expected_seq = serializers.IntegerField(
        min_value=0, help_text="The number of moves you have seen (the game's `seq`)."
    )
    seat = serializers.IntegerField(
        min_value=0,
        max_value=3,
        required=False,
        help_text="Which of your seats moves, if you hold more than one (e.g. your bot's).",
    )


class SeatPresenceSerializer(serializers.Serializer[Any]):
    position = serializers.IntegerField(min_value=0, max_value=3)
    present = serializers.BooleanField(
        help_text="An open table page or event stream for that seat within the last ~45 s."
    )


class TablePresenceSerializer(serializers.Serializer[Any]):
    presence = SeatPresenceSerializer(many=True)


class PresenceSerializer(serializers.Serializer[Any]):
    shown = serializers.BooleanField(
        help_text="Whether your table page is in view now (false: hidden, or being closed)."
    )
    seat = serializers.IntegerField(
        min_value=0,
        max_value=3,
        required=False,
        help_text="Which of your seats, if you hold more than one.",
    )


class ClaimSerializer(serializers.Serializer[Any]):
    tricks = serializers.IntegerField(
        min_value=0, max_value=13, help_text="Tricks your team takes of the remaining ones."
    )
    seat = serializers.IntegerField(
        min_value=0, max_value=3, required=False, help_text="Which of your seats claims."
    )


class ClaimAnswerSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField(
        min_value=0, max_value=3, required=False, help_text="Which of your seats answers."
    )


class PremoveSetSerializer(serializers.Serializer[Any]):
    action = ActionField()
    seat = serializers.IntegerField(
        min_value=0,
        max_value=3,
        required=False,
        help_text="Which of your seats queues it, if you hold more than one.",
    )


class PremoveDroppedSerializer(serializers.Serializer[Any]):
    action = serializers.DictField()
    code = serializers.CharField(help_text="`premove_not_legal` or `premove_stale`.")
    message = serializers.CharField()


class PremoveQueuedSerializer(serializers.Serializer[Any]):
    action = serializers.DictField()


class PremoveSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    premove = PremoveQueuedSerializer(allow_null=True)
    dropped = PremoveDroppedSerializer(allow_null=True)


class SeatOutSerializer(serializers.Serializer[Any]):
    position = serializers.IntegerField()
    player = serializers.CharField()
    is_bot = serializers.BooleanField()


class InvitedOutSerializer(serializers.Serializer[Any]):
    position = serializers.IntegerField()
    player = serializers.CharField()
    is_bot = serializers.BooleanField()
    expires_at = serializers.DateTimeField()


class ResultOutSerializer(serializers.Serializer[Any]):
    totals = serializers.ListField(child=serializers.IntegerField())
    winner = serializers.IntegerField(allow_null=True)


class GameSummarySerializer(serializers.Serializer[Any]):
    """A game as anyone may see it (no hands; the seed only after the end)."""

    id = serializers.CharField()
    status = serializers.ChoiceField(choices=GameStatus.choices)
    rated = serializers.BooleanField()
    options = serializers.JSONField()
    seats = serializers.ListField(
        child=SeatOutSerializer(allow_null=True),
        min_length=4,
        max_length=4,
        help_text="By position; an open seat (or one held for an invited player) is null.",
    )
    invited = InvitedOutSerializer(
        many=True, help_text="Seats held for invited players who have not answered yet."
    )
    seq = serializers.IntegerField(help_text="Moves made so far.")
    to_act = serializers.IntegerField(allow_null=True)
    deal_number = serializers.IntegerField()
    commitment = serializers.CharField()
    first_dealer = serializers.IntegerField()
    seed = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    result = ResultOutSerializer(allow_null=True)

    def to_representation(self, instance: Any) -> dict[str, Any]:
        body = game_summary(instance, list(instance.seats.all()))
        waiting = getattr(instance, "waiting_on_me", None)
        if waiting is not None:
            body["waiting_on_me"] = bool(waiting)
        return body


class GameStateSerializer(GameSummarySerializer):
    """A game as one seat sees it (``your_seat`` None: a spectator, with no hand)."""

    your_seat = serializers.IntegerField(allow_null=True)
    view = serializers.JSONField(allow_null=True, help_text="The engine's view for your seat.")
    clock = serializers.JSONField(
        allow_null=True, help_text="The time control, the running deadline (clock.selectors)."
    )


class MoveOutSerializer(serializers.Serializer[Any]):
    seq = serializers.IntegerField()
    seat = serializers.IntegerField()
    action = serializers.JSONField()


class MoveResponseSerializer(GameStateSerializer):
    move = MoveOutSerializer()


class LegalActionsSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField(allow_null=True)
    seq = serializers.IntegerField()
    to_act = serializers.IntegerField(allow_null=True)
    actions = serializers.ListField(child=serializers.JSONField())
    text = serializers.ListField(child=serializers.CharField())


class EventsSerializer(serializers.Serializer[Any]):
    seq = serializers.IntegerField(help_text="The game's move count: pass it as `since` next.")
    status = serializers.CharField()
    events = serializers.ListField(child=serializers.JSONField())
    clock = serializers.JSONField(allow_null=True, help_text="The game's clock now.")
