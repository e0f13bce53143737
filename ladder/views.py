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


def _shown(request: HttpRequest, name: str) -> bool:
    """A flag that is on unless the query turns it off (``?provisional=0``)."""
    return request.GET.get(name, "1") not in {"0", "false", "no", "off"}


def _mine(request: HttpRequest, rows: list[presenters.Row]) -> set[int]:
    """The ranks of the rows that are the signed-in player's (or their partnership's)."""
    me = getattr(getattr(request.user, "player", None), "name", None)
    return {r.rank for r in rows if me and any(w.name == me for w in r.who)}


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
    # Provisional players are shown (with "?") unless asked not to: a new ladder is mostly them.
    provisional = _shown(request, "provisional")
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
            "mine": _mine(request, rows),
            "kind": kind,
            "kinds": selectors.KINDS,
            "provisional": provisional,
            "min_games": min_games,
            "page_query": _query(
                kind=kind, provisional="1" if provisional else "0", min_games=min_games
            ),
        },
    )


def how_ratings_work(request: HttpRequest) -> HttpResponse:
    """docs/ratings.md in players' words."""
    return render(request, "ladder/how_ratings_work.html")


def pairs_page(request: HttpRequest) -> HttpResponse:
    provisional = _shown(request, "provisional")
    qs = selectors.pair_standings(include_provisional=provisional)
    page = Paginator(qs, PAGE_SIZE).get_page(request.GET.get("page"))
    rows = presenters.pair_rows(page.start_index(), list(page.object_list))
    return render(
        request,
        "ladder/pairs.html",
        {
            "page": page,
            "rows": rows,
            "mine": _mine(request, rows),
            "provisional": provisional,
            "page_query": _query(provisional="1" if provisional else "0"),
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
