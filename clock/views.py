"""The site's notifications page (Django templates): the list, the reminder preferences and
the vacation switch. Thin: each POST calls the same services as the API."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from accounts.services import player_for_user
from backalley_site.errors import DomainError
from clock import reminders, selectors, vacation
from clock.models import Notification

PAGE_SIZE = 30
PREFERENCES = [
    ("reminder_email", gettext_lazy("Reminder by e-mail when 80 percent of a move's time is used")),
    ("reminder_inapp", gettext_lazy("Reminder here, in the app")),
    ("digest_email", gettext_lazy("Daily digest of the games waiting on me, by e-mail")),
    ("digest_inapp", gettext_lazy("Daily digest here, in the app")),
]


@login_required
def notifications_page(request: HttpRequest) -> HttpResponse:
    player = player_for_user(request.user)
    page = Paginator(selectors.notifications_for(player), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    prefs = reminders.preferences_for(player)
    context = {
        "page": page,
        "player": player,
        "preferences": [(name, label, getattr(prefs, name)) for name, label in PREFERENCES],
        "balance": vacation.balance(player),
        "vacation": vacation.current_vacation(player),
    }
    return render(request, "clock/notifications.html", context)


@login_required
@require_POST
def notifications_mark_read(request: HttpRequest) -> HttpResponse:
    player = player_for_user(request.user)
    Notification.objects.filter(player=player, read_at__isnull=True).update(read_at=timezone.now())
    return redirect("clock:notifications")


@login_required
@require_POST
def preferences_save(request: HttpRequest) -> HttpResponse:
    """Checkboxes: a preference missing from the form is off."""
    prefs = reminders.preferences_for(player_for_user(request.user))
    for name, _unused in PREFERENCES:
        setattr(prefs, name, request.POST.get(name) == "on")
    prefs.save(update_fields=[name for name, _unused in PREFERENCES])
    messages.success(request, _("Your reminder preferences are saved."))
    return redirect("clock:notifications")


@login_required
@require_POST
def vacation_switch(request: HttpRequest) -> HttpResponse:
    player = player_for_user(request.user)
    try:
        if request.POST.get("action") == "start":
            v = vacation.vacation_start(player=player)
            messages.success(
                request,
                _("Enjoy your vacation: your clocks are paused until %(planned_end)s UTC.")
                % {"planned_end": format(v.planned_end, "%Y-%m-%d %H:%M")},
            )
        else:
            vacation.vacation_stop(player=player)
            messages.success(request, _("Welcome back: your clocks run again."))
    except DomainError as err:
        messages.error(request, err.message)
    return redirect("clock:notifications")
