from django.contrib import admin

from bots.models import Bot, BotFault


@admin.register(Bot)
class BotAdmin(admin.ModelAdmin[Bot]):
    list_display = ["player", "kind", "strategy", "status", "consecutive_faults", "created_at"]
    list_filter = ["kind", "status"]
    search_fields = ["player__name"]
    readonly_fields = ["created_at", "updated_at", "secret_rotated_at"]
    exclude = ["secret_nonce"]  # with the server key it gives the secret


@admin.register(BotFault)
class BotFaultAdmin(admin.ModelAdmin[BotFault]):
    list_display = ["bot", "kind", "game", "seq", "created_at"]
    list_filter = ["kind"]
    raw_id_fields = ["bot", "game"]
