"""The tournament lifecycle through the services: registration and its conditions,
rounds paired and advanced, duplicate seeds, withdrawals, forfeits and byes."""

from __future__ import annotations

from decimal import Decimal

import pytest

from games.models import Game
from ladder.models import PlayerRating
from tests.factories import BotPlayerFactory, PlayerFactory, UserFactory
from tests.tournaments.helpers import end_game, event, individuals, pairs
from tournaments import selectors, services
from tournaments.errors import (
    AlreadyRegistered,
    BadTournament,
    BadTournamentState,
    ConditionNotMet,
    NotOrganiser,
    RegistrationClosed,
)
from tournaments.models import Entrant, EntrantStatus, Result, Round, Status, Tournament

pytestmark = pytest.mark.django_db


def _games(t: Tournament, number: int) -> list[Game]:
    return list(
        Game.objects.filter(
            tournament_table__round__tournament=t, tournament_table__round__number=number
        ).order_by("tournament_table__number")
    )


def test_bad_fields_are_refused_with_typed_codes() -> None:
    organiser = PlayerFactory()
    with pytest.raises(BadTournament) as exc:
        services.tournament_create(
            organiser=organiser, name="RR", format="round_robin", entry="individual"
        )
    assert exc.value.code == "bad_tournament"
    with pytest.raises(BadTournament):
        services.tournament_create(organiser=organiser, name="Swiss", rounds=0)
    with pytest.raises(BadTournament):
        services.tournament_create(organiser=organiser, name="Swiss", format="knockout")
    with pytest.raises(Exception) as tc:
        services.tournament_create(
            organiser=organiser, name="Swiss", time_control={"days_per_move": 99}
        )
    assert tc.value.code == "bad_game_setup"  # type: ignore[attr-defined]
    assert not Tournament.objects.exists()


def test_conditions_refuse_entrants_with_typed_codes() -> None:
    t = event(min_rating=1600, max_entrants=2)
    a, b = PlayerFactory(), PlayerFactory()
    with pytest.raises(ConditionNotMet) as exc:
        services.entrant_register(tournament_id=t.pk, player=a, partner=b, by=a.user)
    assert exc.value.code == "rating_too_low"
    PlayerRating.objects.create(player=a, rating=Decimal(1700), games=30)
    PlayerRating.objects.create(player=b, rating=Decimal(1650), games=30)
    services.entrant_register(tournament_id=t.pk, player=a, partner=b, by=a.user)
    with pytest.raises(AlreadyRegistered):
        services.entrant_register(tournament_id=t.pk, player=b, partner=PlayerFactory(), by=b.user)

    bots = event(bots_allowed=False)
    owner = UserFactory()
    with pytest.raises(ConditionNotMet) as exc:
        services.entrant_register(
            tournament_id=bots.pk,
            player=BotPlayerFactory(owner=owner),
            partner=BotPlayerFactory(owner=owner),
            by=owner,
        )
    assert exc.value.code == "bots_not_allowed"

    veterans = event(min_rated_games=10, max_rating=1600)
    c = PlayerFactory()
    with pytest.raises(ConditionNotMet) as exc:
        services.entrant_register(
            tournament_id=veterans.pk, player=c, partner=PlayerFactory(), by=c.user
        )
    assert exc.value.code == "too_few_rated_games"

    full = event(max_entrants=2)
    pairs(full, 2)
    d = PlayerFactory()
    with pytest.raises(ConditionNotMet) as exc:
        services.entrant_register(
            tournament_id=full.pk, player=d, partner=PlayerFactory(), by=d.user
        )
    assert exc.value.code == "event_full"
    assert Entrant.objects.filter(tournament=full).count() == 2


def test_a_partnership_waits_for_the_partner_to_confirm() -> None:
    t = event()
    a, b = PlayerFactory(), PlayerFactory()
    entrant = services.entrant_register(tournament_id=t.pk, player=a, partner=b, by=a.user)
    assert entrant.status == EntrantStatus.PENDING
    with pytest.raises(Exception) as exc:
        services.entrant_confirm(entrant_id=entrant.pk, player=a)
    assert exc.value.code == "not_your_entry"  # type: ignore[attr-defined]
    assert services.entrant_confirm(entrant_id=entrant.pk, player=b).status == "active"


def test_a_pending_partnership_is_dropped_at_the_start_and_only_the_organiser_starts() -> None:
    t = event()
    pairs(t, 2)
    a = PlayerFactory()
    pending = services.entrant_register(
        tournament_id=t.pk, player=a, partner=PlayerFactory(), by=a.user
    )
    with pytest.raises(NotOrganiser):
        services.tournament_start(tournament_id=t.pk, by=a)
    services.tournament_start(tournament_id=t.pk, by=t.organiser)
    pending.refresh_from_db()
    assert pending.status == EntrantStatus.WITHDRAWN
    assert len(_games(t, 1)) == 1
    late = PlayerFactory()
    with pytest.raises(RegistrationClosed):
        services.entrant_register(
            tournament_id=t.pk, player=late, partner=PlayerFactory(), by=late.user
        )
    with pytest.raises(BadTournamentState):
        services.tournament_start(tournament_id=t.pk, by=t.organiser)


def test_a_swiss_runs_round_by_round_to_final_standings() -> None:
    t = event(rounds=3)
    entrants = pairs(t, 5)  # odd: one bye a round
    services.tournament_start(tournament_id=t.pk, by=t.organiser)
    byes = []
    for number in (1, 2, 3):
        games = _games(t, number)
        assert len(games) == 2
        rnd = Round.objects.get(tournament=t, number=number)
        byes += list(
            Result.objects.filter(round=rnd, bye=True).values_list("entrant_id", flat=True)
        )
        assert end_game(games[0], totals=(150, 90)) == "waiting"
        outcome = end_game(games[1], totals=(80, 80))
        assert outcome == ("finished" if number == 3 else "next_round")
        assert end_game(games[1], totals=(80, 80)) == "already_done"  # a repeated event
    assert len(set(byes)) == 3  # the bye rotated
    t.refresh_from_db()
    assert t.status == Status.FINISHED
    table = selectors.standings(tournament=t)
    assert len(table.lines) == 5
    assert sum(line.half_points for line in table.lines) == 3 * (2 * 2 + 2)
    assert [line.rank for line in table.lines] == sorted(line.rank for line in table.lines)
    assert {line.entrant_id for line in table.lines} == {e.pk for e in entrants}
    # Nobody met anyone twice in three rounds of five entrants.
    for line in table.lines:
        opponents = list(
            Result.objects.filter(table__results__entrant_id=line.entrant_id, bye=False)
            .exclude(entrant_id=line.entrant_id)
            .values_list("entrant_id", flat=True)
        )
        assert len(opponents) == len(set(opponents))


def test_a_duplicate_round_shares_one_seed_and_scores_matchpoints() -> None:
    t = event(scoring="duplicate", rounds=1)
    pairs(t, 6)
    services.tournament_start(tournament_id=t.pk, by=t.organiser)
    games = _games(t, 1)
    rnd = Round.objects.get(tournament=t, number=1)
    assert len(games) == 3
    assert {g.seed for g in games} == {rnd.seed} and len(rnd.seed) == 64
    # Side 0 totals 120, 80, 80: 4, 1, 1 matchpoints of 4. Side 1: 10, 60, 60 -> 0, 3, 3.
    end_game(games[0], totals=(120, 10))
    end_game(games[1], totals=(80, 60))
    assert end_game(games[2], totals=(80, 60)) == "finished"
    got = {
        (r.table.number, r.seat): (r.matchpoints, r.matchpoints_top)
        for r in Result.objects.filter(round=rnd).select_related("table")
    }
    assert got == {
        (1, 0): (4, 4),
        (2, 0): (1, 4),
        (3, 0): (1, 4),
        (1, 1): (0, 4),
        (2, 1): (3, 4),
        (3, 1): (3, 4),
    }
    table = selectors.standings(tournament=t)
    assert [str(line.percent) for line in table.lines] == [
        "100.00",
        "75.00",
        "75.00",
        "25.00",
        "25.00",
        "0.00",
    ]
    # Equal percentages are ordered by total score: 60 beats 80? No: higher total first.
    assert table.lines[1].total == table.lines[2].total == 60


def test_withdrawn_entrants_are_not_paired_again_and_an_abandoner_forfeits() -> None:
    t = event(rounds=2)
    entrants = pairs(t, 4)
    services.tournament_start(tournament_id=t.pk, by=t.organiser)
    g1, g2 = _games(t, 1)
    # Seat 2 of the first table abandoned (the clock); its side loses whatever the totals.
    end_game(g1, totals=(200, 10), abandoned=(2,))
    leaver = Result.objects.get(table__game=g1, seat=0)
    assert leaver.forfeit and leaver.half_points == 0
    assert Result.objects.get(table__game=g1, seat=1).half_points == 2
    quitter = Result.objects.get(table__game=g2, seat=1).entrant
    services.entrant_withdraw(tournament_id=t.pk, player=quitter.player_a)
    end_game(g2, totals=(50, 70))
    round2 = Result.objects.filter(round__number=2, round__tournament=t)
    assert quitter.pk not in set(round2.values_list("entrant_id", flat=True))
    assert round2.filter(bye=True).count() == 1
    assert len(entrants) == 4


def test_an_individual_event_chooses_partners_each_round() -> None:
    t = event(entry="individual", rounds=3)
    people = individuals(t, 8)
    services.tournament_start(tournament_id=t.pk, by=t.organiser)
    partners: set[frozenset[int]] = set()
    for number in (1, 2, 3):
        for game in _games(t, number):
            rows = {r.seat: r.entrant_id for r in Result.objects.filter(table__game=game)}
            for pair in (frozenset((rows[0], rows[2])), frozenset((rows[1], rows[3]))):
                assert pair not in partners
                partners.add(pair)
            end_game(game, totals=(100, 40))
    assert len(partners) == 12 and len(people) == 8


def test_a_round_robin_meets_everyone_once() -> None:
    t = event(format="round_robin")
    entrants = pairs(t, 4)
    services.tournament_start(tournament_id=t.pk, by=t.organiser)
    t.refresh_from_db()
    assert t.rounds == 3
    met = set()
    for number in (1, 2, 3):
        for game in _games(t, number):
            rows = Result.objects.filter(table__game=game).values_list("entrant_id", flat=True)
            met.add(frozenset(rows))
            end_game(game, totals=(90, 30))
    assert len(met) == 6 == len(entrants) * 3 // 2
    t.refresh_from_db()
    assert t.status == Status.FINISHED


def test_a_rated_event_creates_rated_games_with_its_time_control() -> None:
    t = event(rated=True, time_control={"days_per_move": 3})
    pairs(t, 2)
    services.tournament_start(tournament_id=t.pk, by=t.organiser)
    (game,) = _games(t, 1)
    assert game.rated is True
    assert game.options["time_control"] == {"days_per_move": 3, "reserve_days": 0}


def test_the_beat_starts_events_whose_time_has_come(settings) -> None:  # type: ignore[no-untyped-def]
    from datetime import timedelta

    from django.utils import timezone

    from tournaments import tasks

    assert (
        settings.CELERY_BEAT_SCHEDULE["tournaments-start-due"]["task"]
        == "tournaments.tasks.start_due"
    )
    due = event(starts_at=timezone.now() - timedelta(minutes=1))
    later = event(starts_at=timezone.now() + timedelta(days=1))
    pairs(due, 2)
    pairs(later, 2)
    assert services.tournaments_due() == [due.pk]
    assert tasks.start_tournament(due.pk) == "started"
    assert tasks.start_tournament(due.pk) == "bad_tournament_state"  # a repeated task
    due.refresh_from_db()
    later.refresh_from_db()
    assert (due.status, later.status) == (Status.RUNNING, Status.REGISTERING)
    assert Round.objects.filter(tournament=due).count() == 1
