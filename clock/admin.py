from django.contrib import admin

from clock.models import (
    GameClock,
    Notification,
    NotificationPreference,
    OutgoingMail,
    ReminderSent,
    SeatClock,
    Vacation,
)


class SeatClockInline(admin.TabularInline):  # type: ignore[type-arg]
    model = SeatClock
    extra = 0
    readonly_fields = ["position", "player", "reserve_left", "consecutive_timeouts", "timeouts"]


@admin.register(GameClock)
class GameClockAdmin(admin.ModelAdmin[GameClock]):
    list_display = [
        "game",
        "seconds_per_move",
        "bank_seconds",
        "turn_seat",
        "deadline",
        "expires_at",
        "paused_at",
    ]
    inlines = [SeatClockInline]
    raw_id_fields = ["game"]


@admin.register(Vacation)
class VacationAdmin(admin.ModelAdmin[Vacation]):
    list_display = ["player", "started_at", "planned_end", "ended_at", "days_charged"]
    raw_id_fields = ["player"]


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin[Notification]):
    list_display = ["player", "kind", "title", "created_at", "read_at"]
    list_filter = ["kind"]
    raw_id_fields = ["player", "game"]


@admin.register(OutgoingMail)
class OutgoingMailAdmin(admin.ModelAdmin[OutgoingMail]):
    """What is waiting, sent or given up; read only (a worker owns each row's sending)."""

    list_display = ["pk", "player", "kind", "created_at", "attempts", "next_attempt_at", "sent_at"]
    list_filter = ["kind", "last_error"]
    readonly_fields = [
        "player",
        "kind",
        "address",
        "subject",
        "body",
        "created_at",
        "attempts",
        "next_attempt_at",
        "sent_at",
        "last_error",
    ]
    raw_id_fields = ["player"]


admin.site.register(NotificationPreference)
admin.site.register(ReminderSent)
