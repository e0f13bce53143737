"""The arena's pages: the leaderboard, a bot's page, and its owner's arena settings.

Views only translate HTTP; the reads are in :mod:`bots.arena.selectors` (through the same
card the API answers) and the writes in :mod:`bots.arena.services`.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from backalley_site.errors import DomainError, NotFoundError
from bots import selectors as bot_selectors
from bots.arena import selectors, services
from bots.arena.api import bot_card
from bots.arena.models import ArenaEntry
from ladder import charts

PAGE_SIZE = 50


def leaderboard_page(request: HttpRequest) -> HttpResponse:
    page = Paginator(selectors.leaderboard(), PAGE_SIZE).get_page(request.GET.get("page"))
    rows = list(enumerate(selectors.standings(list(page.object_list)), start=page.start_index()))
    return render(
        request, "arena/leaderboard.html", {"page": page, "rows": rows, "now": timezone.now()}
    )


def bot_page(request: HttpRequest, name: str) -> HttpResponse:
    try:
        bot = selectors.bot_by_name(name)
    except NotFoundError as exc:
        raise Http404(exc.message) from exc
    card = bot_card(bot, viewer=request.user)
    chart = charts.rating_chart([(int(n), r) for n, r in card["rating_history"]])
    return render(request, "arena/bot.html", {"card": card, "chart": chart, "bot": bot})


@login_required
def settings_page(request: HttpRequest, name: str) -> HttpResponse:
    try:
        bot = bot_selectors.bot_of(request.user, name)
    except NotFoundError as exc:
        raise Http404(exc.message) from exc
    error = None
    if request.method == "POST":
        try:
            services.arena_settings_update(
                bot=bot,
                opted_in=request.POST.get("opted_in") == "on",
                max_concurrent=_int(request.POST.get("max_concurrent")),
                max_per_day=_int(request.POST.get("max_per_day")),
            )
            return redirect("arena:settings", name=bot.player.name)
        except DomainError as exc:
            error = exc.message
    entry = selectors.entry_of(bot) or ArenaEntry(bot=bot)
    return render(request, "arena/settings.html", {"bot": bot, "entry": entry, "error": error})


def _int(raw: str | None) -> int | None:
    try:
        return int(raw) if raw not in (None, "") else None
    except ValueError:
        return -1  # refused by the service with its message
