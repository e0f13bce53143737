"""Read-only admin views of the ladder: it is derived data, changed only by its services."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from ladder.models import PairRating, PairRatingChange, PlayerRating, RatedGame, RatingChange


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(PlayerRating)
class PlayerRatingAdmin(ReadOnlyAdmin):
    list_display = ["player", "rating", "games", "wins", "draws", "losses", "trend"]
    list_select_related = ["player"]
    search_fields = ["player__name"]
    ordering = ["-rating"]


@admin.register(PairRating)
class PairRatingAdmin(ReadOnlyAdmin):
    list_display = ["team", "rating", "games", "wins", "draws", "losses"]
    list_select_related = ["team__player_low", "team__player_high"]
    ordering = ["-rating"]


@admin.register(RatedGame)
class RatedGameAdmin(ReadOnlyAdmin):
    list_display = ["seq", "game", "finished_at", "rated_at"]
    list_select_related = ["game"]
    ordering = ["-seq"]


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ["seq", "game", "player", "seat", "before", "after", "delta", "k", "result"]
    list_select_related = ["game", "player"]
    search_fields = ["player__name", "game__public_id"]
    ordering = ["-seq", "seat"]


@admin.register(PairRatingChange)
class PairRatingChangeAdmin(ReadOnlyAdmin):
    list_display = ["seq", "game", "team", "side", "before", "after", "delta", "k", "result"]
    list_select_related = ["game"]
    ordering = ["-seq", "side"]
