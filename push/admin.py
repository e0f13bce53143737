from django.contrib import admin

from push.models import PushSubscription


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin[PushSubscription]):
    list_display = ["id", "player", "user_agent", "created_at", "last_success_at"]
    list_select_related = ["player"]
    search_fields = ["player__name"]
    # The endpoint and keys are the browser's secrets: shown to nobody, the admin included.
    exclude = ["endpoint", "p256dh", "auth"]
    readonly_fields = ["player", "user_agent", "created_at", "last_success_at"]
