from django.contrib import admin

from daylong.models import Board, Entry, Event, Table


class BoardInline(admin.TabularInline[Board, Event]):
    model = Board
    extra = 0


@admin.register(Event)
class EventAdmin(admin.ModelAdmin[Event]):
    list_display = ("title", "starts_at", "ends_at", "pool_size", "rated", "closed_at")
    list_filter = ("rated",)
    search_fields = ("title",)
    readonly_fields = ("created_at", "closed_at", "daily_for")
    inlines = [BoardInline]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin[Entry]):
    list_display = ("event", "player", "entered_at", "rank", "percent")
    raw_id_fields = ("event", "player")


@admin.register(Table)
class TableAdmin(admin.ModelAdmin[Table]):
    list_display = ("entry", "board", "instance", "game", "status", "total", "percent")
    list_filter = ("status",)
    raw_id_fields = ("entry", "board", "instance", "game")
