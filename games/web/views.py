"""The play pages: my games, open games, a new game, and the table.

Thin views: they read through ``games.selectors``, write through ``games.services``, and turn
a domain error into a message on the page. Moves are not posted here: the table page posts
them to the JSON API (``/api/v1/games/<id>/moves/``) like any other client.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import resolve, reverse
from django.utils import formats
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.models import Player
from accounts.selectors import player_get_by_name
from accounts.services import player_for_user
from backalley_site.errors import DomainError
from games import extensions, forks, invitations, premoves, selectors, services
from games.errors import BadGameSetup, GameNotFound
from games.live import presence
from games.models import Game, GameStatus, Seat
from games.presenters import game_summary
from games.web import present
from games.web.fork import fork_form
from games.web.forms import GameCreateForm
from games.web.record import game_page_context


def _page(request: HttpRequest, template: str, context: dict[str, Any]) -> HttpResponse:
    return render(request, template, context)


def _game(public_id: str) -> Game:
    try:
        return selectors.game_get(public_id=public_id)
    except GameNotFound:
        raise Http404(_("No such game.")) from None


def _requested_seat(request: HttpRequest) -> int | None:
    raw = request.GET.get("seat", "")
    return int(raw) if raw in ("0", "1", "2", "3") else None


class _Access:
    """The game of the URL, its seats, and the seat whose eyes the page looks through."""

    def __init__(self, request: HttpRequest, public_id: str) -> None:
        self.game = _game(public_id)
        self.seats: list[Seat] = selectors.game_seats(game=self.game)
        self.controlled = selectors.seats_controlled(seats=self.seats, user=request.user)
        if selectors.game_hidden(game=self.game, controlled=self.controlled):
            raise Http404(_("No such game."))
        requested = _requested_seat(request)
        if requested not in self.controlled:
            requested = None
        self.seat = selectors.viewer_seat(
            game=self.game, controlled=self.controlled, requested=requested
        )

    def payload(self) -> dict[str, Any]:
        return selectors.game_view(game=self.game, seats=self.seats, seat=self.seat)


def _row(game: Game, user: Any) -> dict[str, Any]:
    """One line of a games list (public facts only: no hands)."""
    seats = sorted(game.seats.all(), key=lambda s: s.position)
    summary = game_summary(game, seats)
    if game.status == GameStatus.ACTIVE:
        summary.update(extensions.game_parts(game))  # the clock's deadline, …
    summary.setdefault("clock", None)
    return {
        "game": game,
        "seats": present.seat_views(summary, None),
        "teams": present.teams(present.seat_views(summary, None)),
        "open_positions": [p for p, s in enumerate(summary["seats"]) if s is None],
        "open_choices": present.open_choices(summary),
        "mine": bool(selectors.seats_controlled(seats=seats, user=user)),
        "waiting_on_me": bool(getattr(game, "waiting_on_me", 0)),
        "to_act_name": next((s.player.name for s in seats if s.position == game.to_act), None),
        "deadline": present.deadline(summary),
        "time_control": present.time_control_text(game.options),
    }


@login_required
def my_games(request: HttpRequest) -> HttpResponse:
    games = selectors.games_for_user(user=request.user)
    rows = [_row(g, request.user) for g in games[:200]]
    _mark_others_here(rows, request.user)
    return _page(
        request,
        "games/my_games.html",
        {
            "nav": "mine",
            # Games where someone else is at the table now come first (then, as before,
            # those waiting on you): a move there may be answered at once.
            "active": sorted(
                (r for r in rows if r["game"].status == GameStatus.ACTIVE),
                key=lambda r: not r["others_here"],
            ),
            "waiting": [r for r in rows if r["game"].status == GameStatus.WAITING],
            "done": [
                r for r in rows if r["game"].status in (GameStatus.FINISHED, GameStatus.ABORTED)
            ][:30],
            "invitations": list(selectors.invitations_for(user=request.user)[:50]),
        },
    )


def _mark_others_here(rows: list[dict[str, Any]], user: Any) -> None:
    """Give each row ``others_here``: how many other people sit at that running table now
    (games.live.presence; bots are always there, so they are not counted)."""
    active = [r for r in rows if r["game"].status == GameStatus.ACTIVE]
    present = presence.tables_present([r["game"].pk for r in active])
    for r in rows:
        r["others_here"] = 0
    for r in active:
        seats = r["game"].seats.all()
        mine = set(selectors.seats_controlled(seats=list(seats), user=user))
        here = present.get(r["game"].pk) or [False] * 4
        r["others_here"] = sum(
            1 for s in seats if here[s.position] and s.position not in mine and not s.player.is_bot
        )


@login_required
@require_POST
def answer_invitation(request: HttpRequest, invitation_id: int) -> HttpResponse:
    """Accept or decline an invitation to you or one of your bots (the site session holds
    every scope, as on the API)."""
    accept = request.POST.get("answer") == "accept"
    try:
        row = invitations.invitation_answer(
            invitation_id=invitation_id, user=request.user, accept=accept
        )
    except DomainError as exc:
        messages.error(request, exc.message)
        return redirect("my-games")
    if accept:
        messages.success(request, _("You took seat %(number)s.") % {"number": row.position})
        return redirect("game-table", public_id=row.game.public_id)
    messages.success(request, _("Invitation declined."))
    return redirect("my-games")


@login_required
def open_games(request: HttpRequest) -> HttpResponse:
    rows = [_row(g, request.user) for g in selectors.games_open()[:100]]
    return _page(request, "games/open_games.html", {"rows": rows, "nav": "open"})


def _name_suggestions() -> list[str]:
    bots = Player.objects.filter(is_bot=True).order_by("name").values_list("name", flat=True)
    return list(bots[:50])


@login_required
def new_game(request: HttpRequest) -> HttpResponse:
    me = player_for_user(request.user)
    form = GameCreateForm(request.POST or None, me=me)
    if request.method == "POST" and form.is_valid():
        try:
            game = invitations.game_create_inviting(
                creator=me, seats=form.seats(), options=form.options()
            )
        except DomainError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect("game-table", public_id=game.public_id)
    return _page(
        request,
        "games/new_game.html",
        {"form": form, "me": me, "names": _name_suggestions(), "nav": "new"},
    )


@login_required
@require_POST
def join(request: HttpRequest, public_id: str) -> HttpResponse:
    game = _game(public_id)
    raw = request.POST.get("position", "")
    position = int(raw) if raw in ("0", "1", "2", "3") else None
    try:
        services.game_join_seat(
            game_id=game.pk, player=player_for_user(request.user), position=position
        )
    except DomainError as exc:
        messages.error(request, exc.message)
        return redirect("open-games")
    messages.success(request, _("You have a seat."))
    return redirect("game-table", public_id=public_id)


@login_required
@require_POST
def leave(request: HttpRequest, public_id: str) -> HttpResponse:
    return _leave_table(
        request,
        public_id,
        lambda game, me: services.game_leave_seat(game_id=game.pk, player=me),
        done=_("You left the game."),
    )


def _leave_table(
    request: HttpRequest,
    public_id: str,
    change: Callable[[Game, Player], object],
    *,
    done: str,
) -> HttpResponse:
    """Make a change that takes the viewer away from a waiting table: back to the table
    with the reason if it is refused, else to their games."""
    game = _game(public_id)
    try:
        change(game, player_for_user(request.user))
    except DomainError as exc:
        messages.error(request, exc.message)
        return redirect("game-table", public_id=public_id)
    messages.success(request, done)
    return redirect("my-games")


@login_required
@require_POST
def invite(request: HttpRequest, public_id: str) -> HttpResponse:
    """The creator names a player or bot for an open seat (``invitations.invitation_send``)."""
    game = _game(public_id)
    raw = request.POST.get("position", "")
    try:
        if raw not in ("0", "1", "2", "3"):
            raise BadGameSetup(message=_("Choose one of the open seats."))
        invited = player_get_by_name(request.POST.get("name", "")[:30])
        invitations.invitation_send(
            game_id=game.pk, by=player_for_user(request.user), position=int(raw), player=invited
        )
    except DomainError as exc:
        messages.error(request, exc.message)
        return redirect("game-table", public_id=public_id)
    if game.seats.filter(player=invited).exists():
        messages.success(request, _("%(name)s sits down.") % {"name": invited.name})
    else:
        messages.success(request, _("%(name)s is invited.") % {"name": invited.name})
    return redirect("game-table", public_id=public_id)


@login_required
@require_POST
def call_off(request: HttpRequest, public_id: str) -> HttpResponse:
    """The creator calls off a game that has not started."""
    return _leave_table(
        request,
        public_id,
        lambda game, me: services.game_abort(game_id=game.pk, by=me),
        done=_("The game is called off."),
    )


@functools.cache
def _async_feed() -> bool:
    """Whether the event feed is served by async views (then streams and waits are cheap)."""
    stream = resolve(reverse("games-api:game-events-stream", kwargs={"public_id": "g_x"}))
    return inspect.iscoroutinefunction(stream.func)


def _result(a: _Access, t: present.TableView) -> dict[str, Any] | None:
    """The end-of-game panel: totals, winner, each seat's rating change, links, rematch."""
    if a.game.status != GameStatus.FINISHED:
        return None
    ratings = extensions.game_parts(a.game).get("ratings") or {}
    deltas = {r["seat"]: r for r in ratings.get("seats") or []}
    rows = []
    for s in sorted(t.seats, key=lambda s: s.position):
        r = deltas.get(s.position)
        delta = Decimal(r["delta"]) if r else None
        rows.append(
            {
                "seat": s,
                "team": t.team_names[s.team],
                "delta": _signed(delta) if delta is not None else "",
                "after": formats.number_format(Decimal(r["after"]), 0) if r else "",
                "up": delta is not None and delta > 0,
            }
        )
    winner = a.game.winner
    return {
        "totals": [a.game.total_0, a.game.total_1],
        "winner": winner,
        "headline": (
            _("A draw") if winner is None else _("%(team)s win") % {"team": t.team_names[winner]}
        ),
        "mine": t.seat is not None and winner is not None and t.seat % 2 == winner,
        "rows": rows,
        "rated": a.game.rated,
        "pending": bool(ratings.get("pending")),
        "can_rematch": bool(a.controlled),
    }


def _signed(value: Decimal) -> str:
    """A rating change with its sign and one decimal, in the language's number format."""
    text = formats.number_format(value, 1)
    return f"+{text}" if value > 0 else text


def _is_host(request: HttpRequest, game: Game) -> bool:
    """Whether the viewer created this game that still waits (may invite and call it off)."""
    if game.status != GameStatus.WAITING or not request.user.is_authenticated:
        return False
    return game.creator_id == player_for_user(request.user).pk


def _queued_bid(queued: dict[str, Any] | None) -> str | None:
    """The bid a seat queued, as the page's buttons name it ("pass", "3", "board")."""
    bid = ((queued or {}).get("premove") or {}).get("action", {}).get("bid")
    return None if bid is None else str(bid)


def _table_context(request: HttpRequest, a: _Access) -> dict[str, Any]:
    payload = a.payload()
    summary = {k: v for k, v in payload.items() if k != "view"}
    t = present.table_view(
        payload,
        reasons=selectors.illegal_reasons(game=a.game, seat=a.seat),
        contracts=selectors.current_contracts(game=a.game),
        last_deal=selectors.last_deal_summary(game=a.game),
    )
    host = _is_host(request, a.game)
    queued = (
        premoves.premove_get(game=a.game, seat=a.seat)
        if a.seat is not None and a.game.status == GameStatus.ACTIVE
        else None
    )
    return {
        "game": a.game,
        "premove": queued,
        "premove_card": ((queued or {}).get("premove") or {}).get("action", {}).get("card"),
        "claim": present.claim_panel(payload, t.seats),
        # Out of turn in the play phase, a card clicked is queued (docs/rules.md §10).
        "premovable": queued is not None
        and not t.my_turn
        and t.phase == "playing"
        and (payload.get("view") or {}).get("claim") is None,
        # Out of turn in the bidding, before its own bid, a seat may queue that bid.
        "premove_bids": present.premove_bids(payload) if queued is not None else [],
        "premove_bid": _queued_bid(queued),
        "claim_choices": present.claim_choices(payload),
        "shown_hands": present.shown_hands(payload, t.seats),
        "summary": summary,
        "t": t,
        "result": _result(a, t),
        "open_choices": present.open_choices(payload),
        "trick_pause": getattr(settings, "GAMES_TRICK_PAUSE_MS", 1500),
        "seq": a.game.move_count,
        "deadline": present.deadline(payload),
        "time_control": present.time_control_text(a.game.options),
        "can_join": a.game.status == GameStatus.WAITING and a.seat is None,
        "can_leave": a.game.status == GameStatus.WAITING and a.seat is not None,
        "waiting_seats": (
            present.waiting_seats(payload, t.seats, host=host)
            if a.game.status == GameStatus.WAITING
            else []
        ),
        "names": _name_suggestions() if host else [],
        "is_host": host,
        "api": reverse("games-api:game", kwargs={"public_id": a.game.public_id}),
        "board_url": reverse("game-board", kwargs={"public_id": a.game.public_id}),
        # How the page follows the game: server-sent events where the feed is served by
        # async views (a waiting client costs a coroutine), else polls of the event feed
        # that wait ``poll_wait`` seconds for news (0: short polls, which never hold one of
        # a few sync workers).
        "stream": _async_feed(),
        "poll_wait": max(settings.GAMES_PAGE_POLL_WAIT, 25 if _async_feed() else 0),
        # A seat's page says when it is in view (games.live.presence), this often.
        "presence_every": presence.PING_S,
        "here": _here(a),
    }


def _here(a: _Access) -> set[int] | None:
    """The seats whose people are at the table now, for the game's players only (None:
    the viewer is a spectator, or the game is not being played). The viewer's own seat is
    there: the page being drawn is the sign, before its first ping arrives."""
    if not a.controlled or a.game.status != GameStatus.ACTIVE:
        return None
    here = {p for p, present in enumerate(presence.seats_present(a.game.pk)) if present}
    return here | ({a.seat} if a.seat is not None else set())


@login_required
@require_POST
def rematch(request: HttpRequest, public_id: str) -> HttpResponse:
    """The same players in the same seats, a new seed and the same options, through the game
    creation service: the requester and the house bots sit at once, other people are invited
    (``games.invitations``), as for any new game."""
    a = _Access(request, public_id)
    if a.game.status != GameStatus.FINISHED or not a.controlled:
        messages.error(request, _("Only a player of a finished game can ask for a rematch."))
        return redirect("game-table", public_id=public_id)
    me = player_for_user(request.user)
    players = [s.player for s in a.seats]
    try:
        game = invitations.game_create_inviting(creator=me, seats=players, options=a.game.options)
    except DomainError as exc:
        messages.error(request, exc.message)
        return redirect("game-table", public_id=public_id)
    return redirect("game-table", public_id=game.public_id)


@login_required
def table(request: HttpRequest, public_id: str) -> HttpResponse:
    return _page(request, "games/table.html", _table_context(request, _Access(request, public_id)))


@login_required
def board(request: HttpRequest, public_id: str) -> HttpResponse:
    """The board alone, for the page's script to swap in when the game moves on."""
    response = render(
        request, "games/_board.html", _table_context(request, _Access(request, public_id))
    )
    response["Cache-Control"] = "no-store"
    return response


def record(request: HttpRequest, public_id: str) -> HttpResponse:
    """A game's record: seats, deal scores and the replay (public: a spectator's view), and
    for a signed-in reader of a finished game, the form to fork it."""
    context = game_page_context(public_id, user=request.user)
    context["fork_form"] = fork_form(context["game"], request.user)
    return _page(request, "games/record.html", context)


@login_required
@require_POST
def fork(request: HttpRequest, public_id: str) -> HttpResponse:
    """Fork this hand (games.forks): the new game's table, or the record with the reason."""
    game = _game(public_id)
    form = fork_form(game, request.user, request.POST)
    if form is None:
        messages.error(request, _("Only a finished game whose record is public can be forked."))
        return redirect("game-record", public_id=public_id)
    if not form.is_valid():
        messages.error(request, _("Choose where the fork starts and who sits in each seat."))
        return redirect("game-record", public_id=public_id)
    try:
        new = forks.game_fork(
            game_id=game.pk, by=form.me, move=form.move_number(), seats=form.seats()
        )
    except DomainError as exc:
        messages.error(request, exc.message)
        return redirect("game-record", public_id=public_id)
    return redirect("game-table", public_id=new.public_id)
