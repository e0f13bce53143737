"""Vacations: days earned by playing, every clock paused at once, opponents told."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine

from accounts.models import Player
from backalley_site.errors import DomainError
from clock import vacation
from clock.models import GameClock, Vacation
from clock.selectors import clock_info
from clock.sweeper import sweep
from games.models import Game
from games.services import game_create
from tests.clock.helpers import DAY, T0, play, timed_game, to_act_player
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)


def play_on_days(player: Player, days: int, start: int = 0) -> None:
    """``player`` makes at least one move on each of ``days`` calendar days (an untimed game)."""
    others = [PlayerFactory() for _ in range(3)]
    game = game_create(creator=player, seats=[player, *others], options={"rated": False})
    for d in range(start, start + days):
        with time_machine.travel(T0 - timedelta(days=40) + d * DAY, tick=False):
            while True:
                moved_by = to_act_player(game.pk)
                play(game.pk)
                if moved_by.pk == player.pk:
                    break


def test_one_vacation_day_is_earned_per_eight_days_played() -> None:
    player = PlayerFactory()
    play_on_days(player, 7)
    b = vacation.balance(player)
    assert (b.days_played, b.earned, b.available) == (7, 0, 0)
    play_on_days(player, 1, start=7)
    b = vacation.balance(player)
    assert (b.days_played, b.earned, b.available) == (8, 1, 1)


def test_the_balance_is_capped_at_thirty_days_and_spent_days_count() -> None:
    player = PlayerFactory()
    Vacation.objects.create(
        player=player, started_at=T0, planned_end=T0 + DAY, ended_at=T0 + DAY, days_charged=1
    )
    assert vacation.balance(player).available == 0  # nothing earned, one day spent: not negative
    assert vacation.MAX_VACATION_DAYS == 30
    assert vacation.charged_days(T0, T0 + timedelta(hours=1)) == 1
    assert vacation.charged_days(T0, T0 + DAY + timedelta(hours=2)) == 2


def test_starting_without_days_is_refused_and_changes_nothing() -> None:
    player = PlayerFactory()
    with pytest.raises(DomainError) as err:
        vacation.vacation_start(player=player)
    assert err.value.code == "no_vacation_days"
    assert not Vacation.objects.exists()


def test_a_vacation_pauses_every_clock_at_once_and_opponents_see_it() -> None:
    traveller_player = PlayerFactory()
    play_on_days(traveller_player, 16)  # two days earned
    with time_machine.travel(T0, tick=False) as traveller:
        games = []
        for _ in range(2):
            g = timed_game(days=1, players=[traveller_player] + [PlayerFactory() for _ in range(3)])
            while to_act_player(g.pk).pk != traveller_player.pk:
                play(g.pk)
            games.append(Game.objects.get(pk=g.pk))
        other = timed_game(days=1)  # a game without the traveller runs on
        traveller.move_to(T0 + timedelta(hours=6))
        v = vacation.vacation_start(player=traveller_player)
        assert v.planned_end == T0 + timedelta(hours=6) + 2 * DAY
        for g in games:
            info = clock_info(g)
            assert info is not None and info["running"]["paused"] is True
            assert info["running"]["time_left_seconds"] == 18 * 3600
            assert info["seats"][0]["on_vacation"] is True
            assert info["seats"][0]["vacation_until"] == v.planned_end.isoformat()
        traveller.move_to(T0 + timedelta(hours=30))  # past every original deadline
        report = sweep()
        assert report.moved == [(other.pk, 1)]  # only the game without the traveller moved
        traveller.move_to(T0 + timedelta(hours=36))
        vacation.vacation_stop(player=traveller_player)
    v.refresh_from_db()
    assert v.days_charged == 2  # thirty hours: two started days
    for g in games:
        clock = GameClock.objects.get(game=g)
        assert clock.paused_at is None
        # 18 hours were left when it paused; it runs again from hour 36.
        assert clock.deadline == T0 + timedelta(hours=36 + 18)
        assert clock_info(Game.objects.get(pk=g.pk))["seats"][0]["on_vacation"] is False  # type: ignore[index]


def test_a_turn_that_reaches_a_player_on_vacation_starts_paused() -> None:
    player = PlayerFactory()
    play_on_days(player, 8)
    with time_machine.travel(T0, tick=False) as traveller:
        game = timed_game(days=2, players=[player] + [PlayerFactory() for _ in range(3)])
        if to_act_player(game.pk).pk == player.pk:
            play(game.pk)
        vacation.vacation_start(player=player)
        while to_act_player(game.pk).pk != player.pk:
            play(game.pk)
        clock = GameClock.objects.get(game=game)
        assert clock.paused_at == clock.turn_started_at
        traveller.shift(DAY + timedelta(hours=12))
        report = sweep()  # the one-day vacation is over: the turn's two days start from then
    assert report.vacations_ended == 1 and report.moved == []
    clock.refresh_from_db()
    assert clock.paused_at is None and clock.deadline == T0 + DAY + 2 * DAY


def test_a_vacation_ends_by_itself_when_its_days_run_out() -> None:
    player = PlayerFactory()
    play_on_days(player, 8)  # one day
    with time_machine.travel(T0, tick=False) as traveller:
        game = timed_game(days=1, players=[player] + [PlayerFactory() for _ in range(3)])
        while to_act_player(game.pk).pk != player.pk:
            play(game.pk)
        vacation.vacation_start(player=player)
        traveller.shift(DAY + timedelta(hours=1))
        report = sweep()
    assert report.vacations_ended == 1
    v = Vacation.objects.get(player=player)
    assert v.ended_at == T0 + DAY and v.days_charged == 1
    clock = GameClock.objects.get(game=game)
    assert clock.paused_at is None and clock.deadline == T0 + 2 * DAY
    assert report.moved == []  # resumed with its whole day still to run
