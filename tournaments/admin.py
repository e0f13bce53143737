from django.contrib import admin

from tournaments.models import Entrant, Result, Round, Table, Tournament


class EntrantInline(admin.TabularInline[Entrant, Tournament]):
    model = Entrant
    extra = 0
    raw_id_fields = ("player_a", "player_b")


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin[Tournament]):
    list_display = ("name", "format", "entry", "scoring", "status", "current_round", "rounds")
    list_filter = ("status", "format", "entry", "scoring", "rated")
    search_fields = ("name",)
    raw_id_fields = ("organiser",)
    readonly_fields = ("current_round", "started_at", "finished_at", "created_at")
    inlines = [EntrantInline]


class TableInline(admin.TabularInline[Table, Round]):
    model = Table
    extra = 0
    raw_id_fields = ("game",)
    readonly_fields = ("scored_at",)


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin[Round]):
    list_display = ("tournament", "number", "status", "started_at", "finished_at")
    list_filter = ("status",)
    readonly_fields = ("seed",)
    inlines = [TableInline]


@admin.register(Result)
class ResultAdmin(admin.ModelAdmin[Result]):
    list_display = ("round", "entrant", "table", "seat", "bye", "forfeit", "half_points", "total")
    list_filter = ("bye", "forfeit", "scored")
    raw_id_fields = ("round", "entrant", "table")
