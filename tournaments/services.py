"""Writes for tournaments: create, register, confirm, withdraw, start, cancel, and the
round machinery (pair a round, score its tables, advance) that the Celery tasks call.

Every write runs in a short transaction that locks the tournament row first
(``select_for_update``), then the rows below it: so two games finishing at the same
instant are scored one after the other, and the next round is paired exactly once.
Games are created through ``games.services.game_create``; their after-commit hooks start
the bots and the clocks once this transaction commits.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Player
from games.models import Game, GameStatus, Seat
from games.services import deal_set_create, game_create, game_options_clean
from ladder.models import PlayerRating
from ladder.rating import START
from tournaments import pairing, scoring, selectors
from tournaments.errors import (
    AlreadyRegistered,
    BadTournament,
    BadTournamentState,
    ConditionNotMet,
    NotOrganiser,
    NotRegistered,
    NotYourEntry,
    RegistrationClosed,
    TournamentNotFound,
)
from tournaments.models import (
    Entrant,
    EntrantStatus,
    Entry,
    Format,
    Result,
    Round,
    RoundStatus,
    Scoring,
    Status,
    Table,
    Tournament,
)

MAX_ROUNDS = 20


# --- creating ------------------------------------------------------------------------------


def _choice(value: str, choices: Any, field: str) -> str:
    if value not in choices.values:
        raise BadTournament(
            message=_("%(field)s is one of %(value)s.")
            % {"field": field, "value": ", ".join(choices.values)},
            extra={field: value},
        )
    return value


def tournament_create(
    *,
    organiser: Player,
    name: str,
    description: str = "",
    format: str = Format.SWISS,
    entry: str = Entry.PAIRS,
    scoring: str = Scoring.GAME,
    rounds: int = 3,
    rated: bool = False,
    time_control: Mapping[str, Any] | None = None,
    registration_opens_at: datetime | None = None,
    registration_closes_at: datetime | None = None,
    starts_at: datetime | None = None,
    min_rating: int | None = None,
    max_rating: int | None = None,
    min_rated_games: int = 0,
    max_entrants: int | None = None,
    bots_allowed: bool = False,
) -> Tournament:
    """Create an event open for registration. Every field is checked before anything is
    written; a bad one raises ``bad_tournament`` (or the games app's ``bad_game_setup``
    for a bad time control)."""
    name = (name or "").strip()
    if not 3 <= len(name) <= 100:
        raise BadTournament(message=_("A tournament's name is 3 to 100 characters."))
    _choice(format, Format, "format")
    _choice(entry, Entry, "entry")
    _choice(scoring, Scoring, "scoring")
    if format == Format.ROUND_ROBIN and entry == Entry.INDIVIDUAL:
        raise BadTournament(
            message=_("A round robin is for fixed partnerships: individual events are Swiss.")
        )
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise BadTournament(
            message=_("rounds is a whole number from 1 to %(max_rounds)s.")
            % {"max_rounds": MAX_ROUNDS}
        )
    options = game_options_clean({"rated": rated, "time_control": time_control})
    if min_rating is not None and max_rating is not None and min_rating > max_rating:
        raise BadTournament(message=_("min_rating is above max_rating."))
    if max_entrants is not None and max_entrants < 2:
        raise BadTournament(message=_("max_entrants is at least 2."))
    if (
        registration_opens_at
        and registration_closes_at
        and (registration_closes_at <= registration_opens_at)
    ):
        raise BadTournament(message=_("Registration closes after it opens."))
    if starts_at and registration_closes_at and starts_at < registration_closes_at:
        raise BadTournament(message=_("The event starts after registration closes."))
    return Tournament.objects.create(
        organiser=organiser,
        name=name,
        description=description,
        format=format,
        entry=entry,
        scoring=scoring,
        rounds=rounds,
        rated=options["rated"],
        time_control=options["time_control"],
        registration_opens_at=registration_opens_at,
        registration_closes_at=registration_closes_at,
        starts_at=starts_at,
        min_rating=min_rating,
        max_rating=max_rating,
        min_rated_games=min_rated_games,
        max_entrants=max_entrants,
        bots_allowed=bots_allowed,
    )


def _lock(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise TournamentNotFound(
            message=_("No tournament %(tournament_id)s.") % {"tournament_id": repr(tournament_id)},
            extra={"id": tournament_id},
        ) from None


# --- registration -------------------------------------------------------------------------


def _controller(player: Player) -> tuple[str, int | None]:
    return ("user", player.owner_id if player.is_bot else player.user_id)


def _check_conditions(t: Tournament, players: list[Player]) -> None:
    """Refuse a player who does not meet the event's conditions (typed codes)."""
    ratings = {r.player_id: r for r in PlayerRating.objects.filter(player__in=players)}
    for p in players:
        if p.is_bot and not t.bots_allowed:
            raise ConditionNotMet(
                "bots_not_allowed",
                _("%(name)s is a bot; this event is for people only.") % {"name": p.name},
            )
        row = ratings.get(p.pk)
        rating = row.rating if row else START
        games = row.games if row else 0
        if t.min_rating is not None and rating < t.min_rating:
            raise ConditionNotMet(
                "rating_too_low",
                _("%(name)s is rated %(rating)s; this event needs at least %(min_rating)s.")
                % {"name": p.name, "rating": format(rating, ".0f"), "min_rating": t.min_rating},
                http_status=403,
                extra={"player": p.name, "rating": str(rating), "min_rating": t.min_rating},
            )
        if t.max_rating is not None and rating > t.max_rating:
            raise ConditionNotMet(
                "rating_too_high",
                _("%(name)s is rated %(rating)s; this event is for %(max_rating)s and below.")
                % {"name": p.name, "rating": format(rating, ".0f"), "max_rating": t.max_rating},
                extra={"player": p.name, "rating": str(rating), "max_rating": t.max_rating},
            )
        if games < t.min_rated_games:
            raise ConditionNotMet(
                "too_few_rated_games",
                _(
                    "%(name)s has played %(games)s rated games; this event needs %(min_rated_games)s."
                )
                % {"name": p.name, "games": games, "min_rated_games": t.min_rated_games},
                extra={"player": p.name, "games": games, "min": t.min_rated_games},
            )


def _registration_open(t: Tournament, now: datetime) -> None:
    if t.status != Status.REGISTERING:
        raise RegistrationClosed(
            message=_("Registration is closed: the event has started or ended.")
        )
    if t.registration_opens_at and now < t.registration_opens_at:
        raise RegistrationClosed(
            message=_("Registration has not opened yet."),
            extra={"opens_at": t.registration_opens_at.isoformat()},
        )
    if t.registration_closes_at and now >= t.registration_closes_at:
        raise RegistrationClosed(message=_("Registration has closed."))


def entrant_register(
    *, tournament_id: int, player: Player, partner: Player | None = None, by: Any
) -> Entrant:
    """Enter ``player`` (and ``partner`` in pairs events). ``by`` is the user asking: it
    must control ``player`` (itself or its bot). A partner the same user controls is
    entered at once; another person must confirm (the entry is ``pending`` until then)."""
    mine = (player.user_id == by.pk) or (player.is_bot and player.owner_id == by.pk)
    if not mine:
        raise NotYourEntry(
            message=_("You cannot register %(name)s: not you or your bot.") % {"name": player.name}
        )
    with transaction.atomic():
        t = _lock(tournament_id)
        _registration_open(t, timezone.now())
        if t.entry == Entry.PAIRS and partner is None:
            raise BadTournament(message=_("This event is for partnerships: name your partner."))
        if t.entry == Entry.INDIVIDUAL and partner is not None:
            raise BadTournament(
                message=_("This is an individual event: the event chooses partners.")
            )
        players = [player] if partner is None else [player, partner]
        if partner is not None and partner.pk == player.pk:
            raise BadTournament(message=_("A partnership is two different players."))
        taken = Entrant.objects.filter(tournament=t).exclude(status=EntrantStatus.WITHDRAWN)
        ids = [p.pk for p in players]
        if taken.filter(Q(player_a__in=ids) | Q(player_b__in=ids)).exists():
            raise AlreadyRegistered(message=_("Already entered in this event."))
        if t.max_entrants is not None and taken.count() >= t.max_entrants:
            raise ConditionNotMet(
                "event_full",
                _("The event is full (%(max_entrants)s entrants).")
                % {"max_entrants": t.max_entrants},
                extra={"max_entrants": t.max_entrants},
            )
        _check_conditions(t, players)
        if t.rated:
            _check_controllers(t, taken, players)
        partner_mine = partner is not None and (
            partner.user_id == by.pk or (partner.is_bot and partner.owner_id == by.pk)
        )
        Entrant.objects.filter(
            tournament=t, status=EntrantStatus.WITHDRAWN, player_a__in=ids
        ).delete()  # a withdrawn registration may be made again
        return Entrant.objects.create(
            tournament=t,
            player_a=player,
            player_b=partner,
            status=(
                EntrantStatus.ACTIVE if partner is None or partner_mine else EntrantStatus.PENDING
            ),
        )


def _check_controllers(t: Tournament, taken: Any, players: list[Player]) -> None:
    """In a rated event no account may hold two seats at a table (itself and its bot, or
    two bots): so no account is behind two players of the event."""
    seen = [
        c
        for e in taken.select_related("player_a", "player_b")
        for p in (e.player_a, e.player_b)
        if p is not None
        for c in [_controller(p)]
    ]
    new = [_controller(p) for p in players]
    if len(set(new)) != len(new) or set(new) & set(seen):
        raise ConditionNotMet(
            "one_seat_per_account",
            _("In a rated event one account may enter only one player (counting its bots)."),
        )


def entrant_confirm(*, entrant_id: int, player: Player) -> Entrant:
    """The named partner confirms a pending partnership."""
    with transaction.atomic():
        entrant = Entrant.objects.select_related("tournament").get(pk=entrant_id)
        t = _lock(entrant.tournament_id)
        entrant = Entrant.objects.select_for_update().get(pk=entrant_id)
        _registration_open(t, timezone.now())
        if entrant.player_b_id != player.pk:
            raise NotYourEntry(message=_("Only the named partner can confirm this partnership."))
        if entrant.status != EntrantStatus.PENDING:
            raise BadTournamentState(message=_("This partnership is not waiting for confirmation."))
        entrant.status = EntrantStatus.ACTIVE
        entrant.save(update_fields=["status"])
        return entrant


def entrant_withdraw(*, tournament_id: int, player: Player) -> Entrant:
    """Withdraw the entry ``player`` is part of. While registering it is simply gone; once
    running, it is not paired again (the game in progress is still played and scored)."""
    with transaction.atomic():
        t = _lock(tournament_id)
        if t.status not in (Status.REGISTERING, Status.RUNNING):
            raise BadTournamentState(message=_("The event is over."))
        entrant = (
            Entrant.objects.select_for_update()
            .filter(tournament=t, status__in=[EntrantStatus.ACTIVE, EntrantStatus.PENDING])
            .filter(Q(player_a=player) | Q(player_b=player))
            .first()
        )
        if entrant is None:
            raise NotRegistered(
                message=_("%(name)s is not entered in this event.") % {"name": player.name}
            )
        entrant.status = EntrantStatus.WITHDRAWN
        entrant.withdrawn_at = timezone.now()
        if t.status == Status.RUNNING:
            entrant.withdrawn_after_round = t.current_round
        entrant.save(update_fields=["status", "withdrawn_at", "withdrawn_after_round"])
        return entrant


def tournament_cancel(*, tournament_id: int, by: Player) -> Tournament:
    with transaction.atomic():
        t = _lock(tournament_id)
        if t.organiser_id != by.pk:
            raise NotOrganiser(message=_("Only the organiser can cancel the event."))
        if t.status != Status.REGISTERING:
            raise BadTournamentState(
                message=_("Only an event that has not started can be cancelled.")
            )
        t.status = Status.CANCELLED
        t.finished_at = timezone.now()
        t.save(update_fields=["status", "finished_at"])
        return t


# --- running --------------------------------------------------------------------------------


def tournament_start(*, tournament_id: int, by: Player | None = None) -> Tournament:
    """Start the event and pair round 1: by its organiser, or by the beat at ``starts_at``
    (``by`` None). Pending partnerships are dropped. Starting a started event is refused
    (the beat's task treats that as done)."""
    with transaction.atomic():
        t = _lock(tournament_id)
        if by is not None and t.organiser_id != by.pk:
            raise NotOrganiser(message=_("Only the organiser can start the event."))
        if t.status != Status.REGISTERING:
            raise BadTournamentState(message=_("The event has already started or ended."))
        now = timezone.now()
        Entrant.objects.filter(tournament=t, status=EntrantStatus.PENDING).update(
            status=EntrantStatus.WITHDRAWN, withdrawn_at=now
        )
        n = Entrant.objects.filter(tournament=t, status=EntrantStatus.ACTIVE).count()
        need = 4 if t.entry == Entry.INDIVIDUAL else 2
        if n < need:
            raise BadTournamentState(
                "too_few_entrants",
                _("An event needs at least %(need)s entrants to start; it has %(n)s.")
                % {"need": need, "n": n},
                extra={"entrants": n, "needed": need},
            )
        if t.format == Format.ROUND_ROBIN:
            t.rounds = n - 1 if n % 2 == 0 else n
        t.status = Status.RUNNING
        t.started_at = now
        t.save(update_fields=["status", "started_at", "rounds"])
        _pair_round(t, 1)
        return t


def _round_pairing(t: Tournament, number: int) -> pairing.Round:
    histories = selectors.pairing_histories(tournament=t)
    if t.format == Format.ROUND_ROBIN:
        field_ = list(
            Entrant.objects.filter(tournament=t)
            .filter(
                Q(status=EntrantStatus.ACTIVE)
                | Q(status=EntrantStatus.WITHDRAWN, withdrawn_after_round__isnull=False)
            )
            .order_by("id")
            .values_list("id", flat=True)
        )
        scheduled = pairing.round_robin(field_)[number - 1]
        active = {h.id for h in histories}
        # A withdrawn entrant's scheduled opponent has a bye.
        tables, byes = [], [b for b in scheduled.byes if b in active]
        for tb in scheduled.tables:
            ns, ew = tb.seats[0], tb.seats[1]
            if ns in active and ew in active:
                tables.append(tb)
            else:
                byes += [e for e in (ns, ew) if e in active]
        return pairing.Round(tables, byes)
    if t.entry == Entry.INDIVIDUAL:
        return pairing.individual_tables(histories, round_number=number)
    return pairing.swiss_pairs(histories, round_number=number)


def _pair_round(t: Tournament, number: int) -> Round:
    """Create round ``number``: its pairing, its games (started at once) and its rows."""
    plan = _round_pairing(t, number)
    # Duplicate: every table of the round is dealt from one deal set, whose seed stays
    # secret until its last table is over (games.selectors.seed_is_public).
    deals = deal_set_create(kind="tournament_round") if t.is_duplicate else None
    rnd = Round.objects.create(tournament=t, number=number, seed=deals.seed if deals else "")
    t.current_round = number
    t.save(update_fields=["current_round"])
    entrants = Entrant.objects.select_related("player_a", "player_b").in_bulk(
        [e for tb in plan.tables for e in tb.seats] + plan.byes
    )
    options = {"rated": t.rated, "time_control": t.time_control}
    results = []
    for k, tb in enumerate(plan.tables, start=1):
        players = _seat_players(t, tb, entrants)
        game = game_create(creator=t.organiser, seats=players, options=options, deal_set=deals)
        table = Table.objects.create(round=rnd, number=k, game=game)
        seen = set()
        for seat, entrant_id in enumerate(tb.seats):
            if entrant_id in seen:
                continue  # a partnership holds seats s and s + 2 on one row
            seen.add(entrant_id)
            results.append(Result(round=rnd, entrant_id=entrant_id, table=table, seat=seat))
    for entrant_id in plan.byes:
        results.append(_bye(rnd, entrant_id, t, len(plan.tables)))
    Result.objects.bulk_create(results)
    return rnd


def _seat_players(t: Tournament, tb: pairing.Table, entrants: dict[int, Entrant]) -> list[Player]:
    if t.entry == Entry.INDIVIDUAL:
        return [entrants[e].player_a for e in tb.seats]
    ns, ew = entrants[tb.seats[0]], entrants[tb.seats[1]]
    return [ns.player_a, ew.player_a, ns.player_b, ew.player_b]  # type: ignore[list-item]


def _bye(rnd: Round, entrant_id: int, t: Tournament, tables: int) -> Result:
    top = 2 * max(tables - 1, 0)
    return Result(
        round=rnd,
        entrant_id=entrant_id,
        bye=True,
        scored=True,
        half_points=scoring.WIN,
        matchpoints=top * scoring.BYE_SHARE,
        matchpoints_top=top,
    )


def _score_table(table: Table, game: Game, seats: list[Seat]) -> None:
    """Score the rows of one finished table (game points; duplicate matchpoints come when
    the whole round is in)."""
    abandoned = {s.position for s in seats if s.abandoned_at is not None}
    forfeits = (bool(abandoned & {0, 2}), bool(abandoned & {1, 3}))
    halves = scoring.side_half_points(game.winner, forfeits)
    totals = (game.total_0 or 0, game.total_1 or 0)
    rows = list(table.results.all())
    individual = len(rows) == 4
    for r in rows:
        side = r.seat % 2  # type: ignore[operator]
        mine = {r.seat} if individual else {r.seat, r.seat + 2}  # type: ignore[operator]
        r.forfeit = bool(abandoned & mine)
        r.half_points = halves[side]
        if individual and forfeits[side] and not r.forfeit:
            r.half_points = scoring.DRAW  # the partner of a player who abandoned
        r.total, r.against = totals[side], totals[1 - side]
        r.scored = True
    Result.objects.bulk_update(rows, ["forfeit", "half_points", "total", "against", "scored"])
    table.scored_at = timezone.now()
    table.save(update_fields=["scored_at"])


def _score_duplicate(rnd: Round, tables: list[Table]) -> None:
    rows = list(Result.objects.filter(round=rnd, bye=False))
    forfeited_tables = {r.table_id for r in rows if r.forfeit}
    for side in (0, 1):
        mine = [r for r in rows if r.seat % 2 == side]  # type: ignore[operator]
        per_table: dict[int, list[Result]] = {}
        for r in mine:
            per_table.setdefault(r.table_id, []).append(r)  # type: ignore[arg-type]
        sides = []
        for table_id, rs in per_table.items():
            lost = any(r.forfeit for r in rows if r.table_id == table_id and r.seat % 2 == side)  # type: ignore[operator]
            sides.append(
                scoring.TableScore(
                    table_id,
                    rs[0].total,
                    forfeited=lost,
                    awarded=table_id in forfeited_tables and not lost,
                )
            )
        mps = scoring.matchpoints(sides, len(tables))
        for r in mine:
            r.matchpoints, r.matchpoints_top = mps[r.table_id]
    Result.objects.bulk_update(rows, ["matchpoints", "matchpoints_top"])


def tournament_game_finished(*, game_id: int) -> str:
    """A game ended: score every finished table of its round and, once the whole round is
    in, close the round and pair the next (or finish the event). Safe to repeat and to run
    concurrently: under the tournament's lock, whatever is already done is left alone.

    Returns what happened: ``not_a_tournament_game``, ``waiting`` (tables still playing),
    ``already_done``, ``next_round`` or ``finished``.
    """
    table = Table.objects.filter(game_id=game_id).values("round__tournament_id", "round_id").first()
    if table is None:
        return "not_a_tournament_game"
    with transaction.atomic():
        t = _lock(table["round__tournament_id"])
        rnd = Round.objects.select_for_update().get(pk=table["round_id"])
        if rnd.status == RoundStatus.FINISHED or t.status != Status.RUNNING:
            return "already_done"
        tables = list(rnd.tables.select_related("game").order_by("number"))
        for tb in tables:
            if tb.scored_at is None and tb.game.status == GameStatus.FINISHED:
                _score_table(tb, tb.game, list(tb.game.seats.all()))
        if any(tb.scored_at is None for tb in tables):
            return "waiting"
        if t.is_duplicate:
            _score_duplicate(rnd, tables)
        rnd.status = RoundStatus.FINISHED
        rnd.finished_at = timezone.now()
        rnd.save(update_fields=["status", "finished_at"])
        active = Entrant.objects.filter(tournament=t, status=EntrantStatus.ACTIVE).count()
        need = 4 if t.entry == Entry.INDIVIDUAL else 2
        if rnd.number >= t.rounds or active < need:
            t.status = Status.FINISHED
            t.finished_at = timezone.now()
            t.save(update_fields=["status", "finished_at"])
            return "finished"
        _pair_round(t, rnd.number + 1)
        return "next_round"


def tournaments_due(*, now: datetime | None = None) -> list[int]:
    """Events registering whose start time has come (for the beat)."""
    now = now or timezone.now()
    return list(
        Tournament.objects.filter(status=Status.REGISTERING, starts_at__lte=now)
        .order_by("starts_at")
        .values_list("pk", flat=True)
    )
