"""Admin pages for games. The move log and seeded deals are read-only: they are history."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.models import Game, Move, Seat, SeededDeal, Team


class ReadOnlyInline(admin.TabularInline):  # type: ignore[type-arg]
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ("position", "player", "joined_at")
    readonly_fields = fields


@admin.register(Game)
class GameAdmin(admin.ModelAdmin[Game]):
    list_display = (
        "public_id",
        "status",
        "rated",
        "move_count",
        "deal_number",
        "to_act",
        "total_0",
        "total_1",
        "winner",
        "created_at",
        "finished_at",
    )
    list_filter = ("status", "rated")
    search_fields = ("public_id", "seats__player__name")
    readonly_fields = (
        "public_id",
        "commitment",
        "seed",
        "first_dealer",
        "move_count",
        "to_act",
        "deal_number",
        "created_at",
        "started_at",
        "finished_at",
        "last_move_at",
        "total_0",
        "total_1",
        "winner",
        "team_0",
        "team_1",
    )
    exclude = ("snapshot",)
    inlines = [SeatInline]

    def get_queryset(self, request: HttpRequest) -> Any:
        return super().get_queryset(request).defer("snapshot")


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin[Team]):
    list_display = ("id", "player_low", "player_high", "created_at")
    search_fields = ("player_low__name", "player_high__name")
    raw_id_fields = ("player_low", "player_high")


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin[Seat]):
    list_display = ("game", "position", "player", "joined_at")
    search_fields = ("game__public_id", "player__name")
    raw_id_fields = ("game", "player")


class HistoryAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """History is written by the services only."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(SeededDeal)
class SeededDealAdmin(HistoryAdmin):
    list_display = ("game", "number", "attempt", "dealer", "hand_size", "upcard", "first_seq")
    search_fields = ("game__public_id",)
    list_select_related = ("game",)


@admin.register(Move)
class MoveAdmin(HistoryAdmin):
    list_display = ("game", "seq", "seat", "action", "submitted_by", "actor", "created_at")
    list_filter = ("submitted_by",)
    search_fields = ("game__public_id", "idempotency_key")
    list_select_related = ("game", "actor")
    exclude = ("response",)
