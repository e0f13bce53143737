"""Writes for the ladder: rating finished games one by one, in finishing order, exactly once.

Every writer first locks the single `LadderState` row, so ratings are applied by one
transaction at a time; inside it the player and pair rows are locked in id order.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime
from decimal import Decimal

from django.db import transaction
from django.db.models import Model

from ladder import ledger as ledger_mod
from ladder import sources
from ladder.ledger import GameResult, Ledger, RatedGame, Tally
from ladder.models import (
    LadderState,
    PairRating,
    PairRatingChange,
    PlayerRating,
    RatingChange,
    Standings,
)
from ladder.models import (
    RatedGame as RatedGameRow,
)

log = logging.getLogger(__name__)

STANDING_FIELDS = ["rating", "games", "wins", "draws", "losses", "recent", "trend"]


def ladder_lock() -> LadderState:
    """Lock the ladder (inside a transaction) and return its state row."""
    LadderState.objects.get_or_create(pk=1)
    return LadderState.objects.select_for_update().get(pk=1)


def tally_of(row: Standings) -> Tally:
    return Tally(
        rating=row.rating,
        games=row.games,
        wins=row.wins,
        draws=row.draws,
        losses=row.losses,
        recent=[Decimal(x) for x in row.recent],
    )


def standing_fields(tally: Tally) -> dict[str, object]:
    return {
        "rating": tally.rating,
        "games": tally.games,
        "wins": tally.wins,
        "draws": tally.draws,
        "losses": tally.losses,
        "recent": [str(d) for d in tally.recent],
        "trend": tally.trend,
    }


def change_rows(rated: RatedGame, seq: int) -> tuple[list[RatingChange], list[PairRatingChange]]:
    """The unique change rows one rated game writes."""
    people = [
        RatingChange(
            game_id=rated.game_id,
            seq=seq,
            player_id=pid,
            seat=seat,
            before=c.before,
            after=c.after,
            delta=c.delta,
            k=int(c.k),
            expected=c.expected,
            result=c.result,
        )
        for seat, (pid, c) in enumerate(rated.player_changes)
    ]
    pairs = [
        PairRatingChange(
            game_id=rated.game_id,
            seq=seq,
            team_id=tid,
            side=side,
            before=c.before,
            after=c.after,
            delta=c.delta,
            k=int(c.k),
            expected=c.expected,
            result=c.result,
        )
        for side, (tid, c) in enumerate(rated.pair_changes)
    ]
    return people, pairs


def _upsert(model: type[Standings], key: str, tallies: dict[int, Tally]) -> None:
    rows = [model(**{key: ident}, **standing_fields(t)) for ident, t in tallies.items()]
    model.objects.bulk_create(  # type: ignore[attr-defined]
        rows, update_conflicts=True, unique_fields=[key], update_fields=STANDING_FIELDS
    )


def _load_ledger(results: Sequence[GameResult]) -> Ledger:
    """A ledger holding the current (locked) tallies of everyone in these games."""
    player_ids = sorted({pid for r in results for pid in r.players})
    team_ids = sorted({tid for r in results if r.teams for tid in r.teams})
    players = {
        row.player_id: tally_of(row)
        for row in PlayerRating.objects.select_for_update()
        .filter(player_id__in=player_ids)
        .order_by("player_id")
    }
    pairs = {
        row.team_id: tally_of(row)
        for row in PairRating.objects.select_for_update()
        .filter(team_id__in=team_ids)
        .order_by("team_id")
    }
    return Ledger(players, pairs)


def _unwind(state: LadderState, first_seq: int) -> None:
    """Undo every rated game from `first_seq` on, restoring the tallies they moved."""
    gone_people = list(RatingChange.objects.filter(seq__gte=first_seq).order_by("seq"))
    gone_pairs = list(PairRatingChange.objects.filter(seq__gte=first_seq).order_by("seq"))
    _restore(PlayerRating, RatingChange, "player_id", gone_people, first_seq)
    _restore(PairRating, PairRatingChange, "team_id", gone_pairs, first_seq)
    RatingChange.objects.filter(seq__gte=first_seq).delete()
    PairRatingChange.objects.filter(seq__gte=first_seq).delete()
    RatedGameRow.objects.filter(seq__gte=first_seq).delete()
    state.last_seq = first_seq - 1
    log.info("ladder: unwound the games rated from #%d to re-rate in finishing order", first_seq)


def _restore(
    model: type[Standings],
    change_model: type[RatingChange] | type[PairRatingChange],
    key: str,
    gone: Sequence[RatingChange | PairRatingChange],
    first_seq: int,
) -> None:
    by_entity: dict[int, list[RatingChange | PairRatingChange]] = defaultdict(list)
    for change in gone:
        by_entity[getattr(change, key)].append(change)
    rows = {
        getattr(r, key): r
        for r in model.objects.select_for_update()  # type: ignore[attr-defined]
        .filter(**{f"{key}__in": sorted(by_entity)})
        .order_by(key)
    }
    for ident, changes in sorted(by_entity.items()):
        row = rows[ident]
        tally = tally_of(row)
        tally.rating = changes[0].before
        tally.games -= len(changes)
        tally.wins -= sum(1 for c in changes if c.outcome == "W")
        tally.draws -= sum(1 for c in changes if c.outcome == "D")
        tally.losses -= sum(1 for c in changes if c.outcome == "L")
        if tally.games == 0:
            row.delete()
            continue
        earlier = (
            change_model.objects.filter(**{key: ident}, seq__lt=first_seq)
            .order_by("-seq")
            .values_list("delta", flat=True)[: ledger_mod.TREND_GAMES]
        )
        tally.recent = list(reversed(list(earlier)))
        for name, value in standing_fields(tally).items():
            setattr(row, name, value)
        row.save(update_fields=STANDING_FIELDS)


def write_rated(
    state: LadderState,
    book: Ledger,
    rated: Sequence[tuple[RatedGame, datetime]],
) -> None:
    """Store the changes of games just rated in `book`, and the tallies they moved."""
    markers: list[Model] = []
    people: list[RatingChange] = []
    pairs: list[PairRatingChange] = []
    touched_players: set[int] = set()
    touched_pairs: set[int] = set()
    for rated_game, finished_at in rated:
        state.last_seq += 1
        markers.append(
            RatedGameRow(game_id=rated_game.game_id, seq=state.last_seq, finished_at=finished_at)
        )
        p, q = change_rows(rated_game, state.last_seq)
        people += p
        pairs += q
        touched_players.update(pid for pid, _ in rated_game.player_changes)
        touched_pairs.update(tid for tid, _ in rated_game.pair_changes)
    RatedGameRow.objects.bulk_create(markers)  # type: ignore[arg-type]
    RatingChange.objects.bulk_create(people)
    PairRatingChange.objects.bulk_create(pairs)
    _upsert(PlayerRating, "player_id", {i: book.players[i] for i in sorted(touched_players)})
    _upsert(PairRating, "team_id", {i: book.pairs[i] for i in sorted(touched_pairs)})
    state.save(update_fields=["last_seq"])


def ladder_rate_game(*, game_id: int) -> int:
    """Rate a finished rated game, after any earlier finished game still waiting.

    Returns how many games were rated (0 when the game is not rateable or already rated,
    which makes a redelivered task a no-op).
    """
    with transaction.atomic():
        state = ladder_lock()
        game = sources.eligible_games().filter(pk=game_id).values_list(*sources.GAME_FIELDS)
        row = game.first()
        if row is None or RatedGameRow.objects.filter(game_id=game_id).exists():
            return 0
        finished_at = row[1]
        later = (
            RatedGameRow.objects.filter(sources.after_key(finished_at, game_id))
            .order_by("seq")
            .values_list("seq", "finished_at", "game_id")
        )
        horizon = (finished_at, game_id)
        later_rows = list(later)
        if later_rows:
            # This game finished before games already rated (its commit came late):
            # take them off the ladder and rate them again after it.
            _unwind(state, later_rows[0][0])
            horizon = max(horizon, (later_rows[-1][1], later_rows[-1][2]))
        pending = list(
            sources.eligible_games()
            .filter(sources.up_to_key(*horizon), ladder_rated__isnull=True)
            .values_list(*sources.GAME_FIELDS)
        )
        seats = sources.seats_by_game([g[0] for g in pending])
        results = list(sources.game_results(pending, seats))
        book = _load_ledger([r for r, _ in results])
        rated = [(book.rate(result), finished) for result, finished in results]
        write_rated(state, book, rated)
        return len(rated)
