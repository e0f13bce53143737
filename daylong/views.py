"""The daylong pages: the list, an event (its stages, the Enter and Play buttons, the
reader's breakdown and the standings as the reader may see them) and, once closed, every
table with its record and seed. Thin: selectors to read, services to write."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.models import Player
from accounts.services import player_for_user
from backalley_site.errors import DomainError
from bots import house
from bots import selectors as bot_selectors
from bots.models import BotKind
from daylong import selectors, services
from daylong.errors import EventNotFound
from daylong.models import Event


def _event(pk: int) -> Event:
    try:
        return selectors.event_get(event_id=pk)
    except EventNotFound:
        raise Http404(_("No such daylong.")) from None


def _reader(request: HttpRequest) -> Player | None:
    if not request.user.is_authenticated:
        return None
    return Player.objects.filter(user=request.user).first()


def _strength(key: str) -> Any:
    found = house.STRENGTHS.get(key)
    return found.label if found else key


def _row(event: Event) -> dict[str, Any]:
    return {
        "event": event,
        "title": selectors.event_title(event),
        "state": selectors.event_state(event),
    }


# The standings on the event's page, a page at a time (the API answers every line): a
# template row costs what a JSON line does several times over (docs/daylong.md, Benchmark).
STANDINGS_PAGE = 100


def _standings_page(request: HttpRequest, lines: list[Any], me: Player | None) -> dict[str, Any]:
    """One page of the standings, and the reader's own line when it is on another page."""
    page = Paginator(lines, STANDINGS_PAGE).get_page(request.GET.get("page"))
    my_id = None if me is None else me.pk
    shown = {line.player_id for line in page.object_list}
    mine = None
    if my_id is not None and my_id not in shown:
        mine = next((line for line in lines if line.player_id == my_id), None)
    return {"standings_page": page, "my_line": mine, "my_id": my_id}


def _my_bots(request: HttpRequest, event: Event) -> list[dict[str, Any]]:
    """The reader's own bots, each with its entry in the event, the stage it is playing
    and the one it plays next (a few queries per bot: a person owns a handful)."""
    if not request.user.is_authenticated:
        return []
    rows = []
    for bot in bot_selectors.bots_of(request.user):
        entry = selectors.entry_of(event=event, player=bot.player)
        rows.append(
            {
                "player": bot.player,
                "hosted": bot.kind == BotKind.HOSTED,
                "entry": entry,
                "playing": None if entry is None else selectors.playing_table(entry=entry),
                "next_board": None if entry is None else selectors.next_board(entry=entry),
            }
        )
    return rows


def _acting(request: HttpRequest) -> Player:
    """Who the form acts for: the reader, or the bot of theirs it names (``bot``)."""
    name = request.POST.get("bot", "").strip()
    if not name:
        return player_for_user(request.user)
    return bot_selectors.bot_of(request.user, name).player


def daylong_list_page(request: HttpRequest) -> HttpResponse:
    rows = [_row(e) for e in selectors.event_list(limit=100)]
    return render(request, "daylong/list.html", {"rows": rows})


def daylong_page(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(pk)
    me = _reader(request)
    entry = None if me is None else selectors.entry_of(event=event, player=me)
    playing = None if entry is None else selectors.playing_table(entry=entry)
    table = selectors.standings_for(event=event, viewer=me)
    return render(
        request,
        "daylong/detail.html",
        {
            **_row(event),
            "boards": selectors.boards_of(event=event),
            "partner": _strength(event.partner_strength),
            "opponents": _strength(event.opponent_strength),
            "me": me,
            "entry": entry,
            "playing": playing,
            "next_board": None if entry is None else selectors.next_board(entry=entry),
            "breakdown": [] if entry is None else selectors.breakdown(entry=entry),
            "standings": table,
            **_standings_page(request, table.lines, me),
            "my_bots": _my_bots(request, event),
        },
    )


def tables_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Every table of a closed event: its entrant, version, result, record and seed."""
    event = _event(pk)
    records = selectors.tables_after_close(event=event) if event.closed_at else []
    return render(request, "daylong/tables.html", {**_row(event), "records": records})


@login_required
@require_POST
def enter(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        player = _acting(request)
        services.entry_create(event_id=pk, player=player)
        if player.is_bot:
            messages.success(
                request,
                _("%(name)s is entered: start its first stage whenever you like.")
                % {"name": player.name},
            )
        else:
            messages.success(request, _("You are entered: play the first stage whenever you like."))
    except DomainError as exc:
        messages.error(request, exc.message)
    return redirect(reverse("daylong:detail", args=[pk]))


@login_required
@require_POST
def play(request: HttpRequest, pk: int) -> HttpResponse:
    """To the entrant's table (the reader's, or their bot's named by ``bot``): the stage
    being played, else a new one for the next. The owner watches a bot's table: a hosted
    bot plays it by itself, a bot of the owner's code through the API."""
    try:
        table = services.board_play_next(event_id=pk, player=_acting(request))
    except DomainError as exc:
        messages.error(request, exc.message)
        return redirect(reverse("daylong:detail", args=[pk]))
    return redirect(reverse("game-table", args=[table.game.public_id]))
