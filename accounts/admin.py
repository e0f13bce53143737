from django.contrib import admin

from accounts.models import Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "is_bot", "user", "owner", "created_at"]
    list_filter = ["is_bot"]
    search_fields = ["name", "user__username", "owner__username"]
    raw_id_fields = ["user", "owner"]
    readonly_fields = ["created_at"]
