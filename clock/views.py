"""The site's notifications page (Django templates)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from accounts.services import player_for_user
from clock import selectors
from clock.models import Notification

PAGE_SIZE = 30


@login_required
def notifications_page(request: HttpRequest) -> HttpResponse:
    player = player_for_user(request.user)
    page = Paginator(selectors.notifications_for(player), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    return render(request, "clock/notifications.html", {"page": page, "player": player})


@login_required
@require_POST
def notifications_mark_read(request: HttpRequest) -> HttpResponse:
    player = player_for_user(request.user)
    Notification.objects.filter(player=player, read_at__isnull=True).update(read_at=timezone.now())
    return redirect("clock:notifications")
