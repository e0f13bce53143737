"""Shapes of the clock's API: notifications, preferences, vacation."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from clock.models import PREFERENCE_FIELDS, Notification, NotificationPreference
from clock.quiet import zone_names


class NotificationSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    game = serializers.SerializerMethodField()
    read = serializers.SerializerMethodField()

    class Meta:
        model = Notification
        fields = ["id", "kind", "game", "title", "body", "created_at", "read", "read_at"]

    def get_game(self, obj: Notification) -> str | None:
        return obj.game.public_id if obj.game is not None else None

    def get_read(self, obj: Notification) -> bool:
        return obj.read_at is not None


@extend_schema_field(
    {"type": "string", "pattern": r"^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$", "example": "22:00"}
)
class WallClockField(serializers.TimeField):
    """A time of day on the person's own clock ("22:00" or "22:00:00", no zone: the zone is the
    preference's ``time_zone``). OpenAPI's "time" format would ask for an offset."""


class PreferenceSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    quiet_from = WallClockField(allow_null=True, required=False)
    quiet_until = WallClockField(allow_null=True, required=False)

    class Meta:
        model = NotificationPreference
        fields = list(PREFERENCE_FIELDS)

    def validate_time_zone(self, value: str) -> str:
        if value not in zone_names():
            raise serializers.ValidationError(_("Not a time zone we know."))
        return value


class MarkReadSerializer(serializers.Serializer[Any]):
    ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        max_length=500,
        help_text="The notifications to mark read; omit to mark all of yours read.",
    )


class VacationSerializer(serializers.Serializer[Any]):
    days_played = serializers.IntegerField()
    earned = serializers.IntegerField()
    used = serializers.IntegerField()
    available = serializers.IntegerField()
    on_vacation = serializers.BooleanField()
    started_at = serializers.DateTimeField(allow_null=True)
    ends_at = serializers.DateTimeField(allow_null=True)


class TimeControlPresetSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # a field, not the Field attribute
    seconds_per_move = serializers.IntegerField()
    bank_seconds = serializers.IntegerField()
    time_control = serializers.DictField(help_text='{"preset": name}: the option that chooses it.')
