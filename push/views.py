"""The push settings page (under /notifications/push/): this device on or off, the person's
devices (each removable), which kinds are pushed, and the quiet hours.

Thin: each POST calls the same services as the API. The page's script
(``static/js/push.js``) subscribes through the service worker and hands the browser's
subscription to :func:`device_add` as JSON, with the session and its CSRF token; a
refusal comes back in the one error shape.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.services import player_for_user
from backalley_site.errors import DomainError, error_body
from clock import reminders
from push import selectors, services
from push.devices import device_label
from push.errors import BadSubscription
from push.forms import SWITCHES, PushChoicesForm, zone_choices


def endpoint_mark(endpoint: str) -> str:
    """What the page tells a device by: a digest of its endpoint (the endpoint itself is
    the browser's secret address, never written into a page). The script makes the same
    digest of its own subscription to find "this device" in the list."""
    return hashlib.sha256(endpoint.encode()).hexdigest()


@login_required
def push_settings(request: HttpRequest, form: PushChoicesForm | None = None) -> HttpResponse:
    player = player_for_user(request.user)
    prefs = reminders.preferences_for(player)
    devices = [
        {"row": row, "name": row.user_agent or "", "mark": endpoint_mark(row.endpoint)}
        for row in selectors.subscriptions_for(player)
    ]
    context = {
        "active": services.push_active(),
        "public_key": settings.PUSH_VAPID_PUBLIC_KEY if services.push_active() else "",
        "devices": devices,
        "form": form or PushChoicesForm(instance=prefs),
        "switches": [name for name, _label in SWITCHES],
        "zones": zone_choices(),
    }
    return render(request, "push/settings.html", context, status=400 if form else 200)


def _json_error(err: DomainError) -> JsonResponse:
    return JsonResponse(error_body(err.code, err.message, err.extra), status=err.http_status)


def _body(request: HttpRequest) -> dict[str, Any]:
    try:
        body = json.loads(request.body or b"{}")
    except (ValueError, UnicodeDecodeError):
        body = None
    if not isinstance(body, dict):
        raise BadSubscription(message=_("The browser's subscription did not come as JSON."))
    return body


@login_required
@require_POST
def device_add(request: HttpRequest) -> JsonResponse:
    """This device, subscribed: the body of ``PushSubscription.toJSON()``."""
    try:
        body = _body(request)
        given = body.get("keys")
        keys: dict[str, Any] = given if isinstance(given, dict) else {}
        row = services.subscription_save(
            player=player_for_user(request.user),
            endpoint=str(body.get("endpoint") or ""),
            p256dh=str(keys.get("p256dh") or ""),
            auth=str(keys.get("auth") or ""),
            user_agent=device_label(request.headers.get("User-Agent", "")),
        )
    except DomainError as err:
        return _json_error(err)
    return JsonResponse({"id": row.pk, "name": row.user_agent}, status=201)


@login_required
@require_POST
def device_forget(request: HttpRequest) -> HttpResponse:
    """This device, turned off: its endpoint forgotten (the script then unsubscribes it)."""
    try:
        body = _body(request)
    except DomainError as err:
        return _json_error(err)
    services.subscription_delete(
        player=player_for_user(request.user), endpoint=str(body.get("endpoint") or "")
    )
    return HttpResponse(status=204)


@login_required
@require_POST
def device_remove(request: HttpRequest, subscription_id: int) -> HttpResponse:
    """One device of the list removed (this one or another: a lost phone)."""
    if services.subscription_delete(
        player=player_for_user(request.user), subscription_id=subscription_id
    ):
        messages.success(request, _("The device is removed: it is told nothing more."))
    else:
        messages.error(request, _("You have no such device (removed already?)."))
    return redirect("push:settings")


@login_required
@require_POST
def choices_save(request: HttpRequest) -> HttpResponse:
    prefs = reminders.preferences_for(player_for_user(request.user))
    form = PushChoicesForm(request.POST, instance=prefs)
    if not form.is_valid():
        return push_settings(request, form=form)
    form.save()
    messages.success(request, _("Your push notification choices are saved."))
    return redirect("push:settings")
