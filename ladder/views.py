"""The ladder's pages: standings, a player, the pairs (a game's page is the games app's).

Views only translate HTTP: the reads are in `ladder.selectors` and `games.selectors`.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from backalley_site.errors import NotFoundError
from ladder import charts, presenters, selectors

PAGE_SIZE = 50


def _flag(request: HttpRequest, name: str) -> bool:
    return request.GET.get(name, "") in {"1", "true", "yes", "on"}


def _int(request: HttpRequest, name: str, default: int = 0) -> int:
    try:
        return max(0, int(request.GET.get(name, default)))
    except ValueError:
        return default


def _query(**params: object) -> str:
    """The filters to keep in page links, ending with "&" (empty values left out)."""
    kept = {k: ("1" if v is True else v) for k, v in params.items() if v not in (False, 0, "")}
    return urlencode(kept) + "&" if kept else ""


def ladder_page(request: HttpRequest) -> HttpResponse:
    kind = request.GET.get("kind", "all")
    if kind not in selectors.KINDS:
        kind = "all"
    provisional = _flag(request, "provisional")
    min_games = _int(request, "min_games")
    qs = selectors.standings(kind=kind, min_games=min_games, include_provisional=provisional)
    page = Paginator(qs, PAGE_SIZE).get_page(request.GET.get("page"))
    rows = presenters.player_rows(page.start_index(), list(page.object_list))
    return render(
        request,
        "ladder/ladder.html",
        {
            "page": page,
            "rows": rows,
            "kind": kind,
            "kinds": selectors.KINDS,
            "provisional": provisional,
            "min_games": min_games,
            "page_query": _query(kind=kind, provisional=provisional, min_games=min_games),
        },
    )


def how_ratings_work(request: HttpRequest) -> HttpResponse:
    """docs/ratings.md in players' words."""
    return render(request, "ladder/how_ratings_work.html")


def pairs_page(request: HttpRequest) -> HttpResponse:
    provisional = _flag(request, "provisional")
    qs = selectors.pair_standings(include_provisional=provisional)
    page = Paginator(qs, PAGE_SIZE).get_page(request.GET.get("page"))
    rows = presenters.pair_rows(page.start_index(), list(page.object_list))
    return render(
        request,
        "ladder/pairs.html",
        {
            "page": page,
            "rows": rows,
            "provisional": provisional,
            "page_query": _query(provisional=provisional),
        },
    )


def player_page(request: HttpRequest, name: str) -> HttpResponse:
    try:
        player = selectors.player_by_name(name)
    except NotFoundError as exc:
        raise Http404(exc.message) from exc
    card = selectors.player_card(player)
    chart = charts.rating_chart(selectors.history_points(player))
    return render(
        request,
        "ladder/player.html",
        {"card": card, "chart": chart, "recent": selectors.recent_games(player)},
    )
