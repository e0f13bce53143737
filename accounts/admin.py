from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from accounts.credentials import credentials_changed_after_commit
from accounts.models import ApiToken, Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = ["name", "is_bot", "is_house", "user", "owner", "created_at"]
    list_filter = ["is_bot", "is_house"]
    search_fields = ["name", "user__username", "owner__username"]
    raw_id_fields = ["user", "owner"]
    readonly_fields = ["created_at"]


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin[ApiToken]):
    """Tokens are made by their owners (the secret is shown to them once); staff can revoke."""

    list_display = [
        "name",
        "user",
        "prefix",
        "scopes",
        "bot",
        "created_at",
        "last_used_at",
        "revoked_at",
    ]
    list_filter = [("revoked_at", admin.EmptyFieldListFilter)]
    search_fields = ["name", "prefix", "user__username"]
    readonly_fields = [
        "user",
        "name",
        "scopes",
        "bot",
        "prefix",
        "created_at",
        "last_used_at",
        "revoked_at",
    ]
    exclude = ["key_hash"]
    actions = ["revoke"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description="Revoke the selected tokens")
    def revoke(self, request: HttpRequest, queryset: QuerySet[ApiToken]) -> None:
        count = queryset.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())
        credentials_changed_after_commit()
        self.message_user(request, f"{count} token(s) revoked.", messages.SUCCESS)
