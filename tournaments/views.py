"""The tournament pages: the list and one event (conditions, entrants, rounds, standings,
and the register/withdraw/start buttons). Thin: selectors to read, services to write."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.models import Player
from accounts.services import player_for_user
from backalley_site.errors import DomainError
from games import extensions
from tournaments import presenters, selectors, services
from tournaments.errors import TournamentNotFound
from tournaments.models import EntrantStatus, Format, Status


def tournament_list_page(request: HttpRequest) -> HttpResponse:
    status = request.GET.get("status") or None
    fmt = request.GET.get("format") or None
    rows = selectors.tournament_list(status=status, format=fmt)[:100]
    return render(
        request,
        "tournaments/list.html",
        {"rows": rows, "status": status, "format": fmt, "statuses": Status, "formats": Format},
    )


def tournament_page(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        t = selectors.tournament_get(tournament_id=pk)
    except TournamentNotFound:
        raise Http404(_("No such tournament.")) from None
    entrants = selectors.entrants(tournament=t)
    me = None
    if request.user.is_authenticated:
        me = Player.objects.filter(user=request.user).first()
    mine = [
        e for e in entrants if me is not None and me.pk in e.player_ids and e.status != "withdrawn"
    ]
    table = selectors.standings(tournament=t)
    return render(
        request,
        "tournaments/detail.html",
        {
            "t": t,
            "entrants": [
                e for e in entrants if e.status != EntrantStatus.WITHDRAWN or t.started_at
            ],
            "rounds": selectors.rounds_with_tables(tournament=t),
            "lines": table.lines if t.started_at else [],
            "standings_rows": presenters.standings_rows(table),
            "after_round": table.after_round,
            "mine": mine,
            "me": me,
            "is_organiser": me is not None and me.pk == t.organiser_id,
            # In words by the app that owns the option (the clock), whatever its form.
            "time_control_text": (
                extensions.option_text("time_control", t.time_control) if t.time_control else None
            ),
        },
    )


def standings_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The standings alone, after any round (``?after_round=``): a constant number of
    queries whatever the size of the event."""
    try:
        t = selectors.tournament_get(tournament_id=pk)
    except TournamentNotFound:
        raise Http404(_("No such tournament.")) from None
    raw = request.GET.get("after_round", "")
    after = int(raw) if raw.isdigit() and 0 < int(raw) <= t.current_round else None
    table = selectors.standings(tournament=t, after_round=after)
    return render(
        request,
        "tournaments/standings.html",
        {
            "t": t,
            "lines": table.lines,
            "standings_rows": presenters.standings_rows(table),
            "after_round": table.after_round,
            "round_numbers": range(1, t.current_round + 1),
        },
    )


def _act(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    try:
        me = player_for_user(request.user)
        if action == "register":
            partner_name = request.POST.get("partner", "").strip()
            partner = (
                Player.objects.filter(name__iexact=partner_name).first() if partner_name else None
            )
            if partner_name and partner is None:
                raise DomainError(
                    "unknown_player",
                    _("No player named %(partner_name)s.") % {"partner_name": repr(partner_name)},
                )
            services.entrant_register(tournament_id=pk, player=me, partner=partner, by=request.user)
            messages.success(request, _("You are entered."))
        elif action == "withdraw":
            services.entrant_withdraw(tournament_id=pk, player=me)
            messages.success(request, _("You have withdrawn."))
        elif action == "confirm":
            services.entrant_confirm(entrant_id=int(request.POST["entrant"]), player=me)
            messages.success(request, _("Partnership confirmed."))
        elif action == "start":
            services.tournament_start(tournament_id=pk, by=me)
            messages.success(request, _("The event has started: round 1 is paired."))
    except DomainError as exc:
        messages.error(request, exc.message)
    return redirect(reverse("tournaments:detail", args=[pk]))


@login_required
@require_POST
def register(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(request, pk, "register")


@login_required
@require_POST
def withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(request, pk, "withdraw")


@login_required
@require_POST
def confirm(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(request, pk, "confirm")


@login_required
@require_POST
def start(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(request, pk, "start")
