"""Time controls in minutes and hours with a bank in seconds, the presets, reminders scaled
to the time per move, and each turn's own timeout and reminder tasks (with an ETA)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.core import mail

from backalley_site.errors import DomainError
from clock import enqueue, presets, services, timecontrol
from clock.models import GameClock, SeatClock
from clock.reminders import send_daily_digests, send_due_reminders
from clock.selectors import clock_info
from clock.sweeper import sweep
from clock.tasks import expire_turn, remind_turn
from games.models import Game, Move, SubmittedBy
from games.services import game_create
from games.web.present import time_control_text
from tests.clock.helpers import T0, play, to_act_player
from tests.factories import PlayerFactory
from tests.games.conftest import client_for

MIN = timedelta(minutes=1)
HOUR = timedelta(hours=1)


def game_with(time_control: dict[str, Any]) -> Game:
    seated = [PlayerFactory() for _ in range(4)]
    game = game_create(
        creator=seated[0], seats=seated, options={"rated": False, "time_control": time_control}
    )
    return Game.objects.get(pk=game.pk)


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        (
            {"hours_per_move": 12, "bank_seconds": 259200},
            {"minutes_per_move": 720, "bank_seconds": 259200},
        ),
        ({"minutes_per_move": 1}, {"minutes_per_move": 1, "bank_seconds": 0}),
        ({"hours_per_move": 48}, {"days_per_move": 2, "reserve_days": 0}),  # whole days
        (
            {"days_per_move": 2, "bank_seconds": 3600},
            {"minutes_per_move": 2880, "bank_seconds": 3600},
        ),
        ({"minutes_per_move": 14 * 24 * 60}, {"days_per_move": 14, "reserve_days": 0}),
        ({"preset": "live"}, {"minutes_per_move": 2, "bank_seconds": 600}),
        ({"preset": "fast"}, {"minutes_per_move": 720, "bank_seconds": 3 * 86400}),
        ({"preset": "slow"}, {"days_per_move": 3, "reserve_days": 0}),
        ({"days_per_move": 3, "reserve_days": 2}, {"days_per_move": 3, "reserve_days": 2}),
    ],
)
def test_time_controls_in_minutes_hours_and_presets_are_stored_as_times(
    given: dict[str, Any], stored: dict[str, int]
) -> None:
    assert timecontrol.time_control_clean(given) == stored
    assert timecontrol.time_control_clean(stored) == stored  # the stored form reads back


@pytest.mark.parametrize(
    "value",
    [
        {"minutes_per_move": 0},
        {"minutes_per_move": 14 * 24 * 60 + 1},
        {"hours_per_move": 337},
        {"hours_per_move": 1.5},
        {"minutes_per_move": 5, "bank_seconds": 30 * 86400 + 1},
        {"minutes_per_move": 5, "bank_seconds": -1},
        {"minutes_per_move": 5, "hours_per_move": 1},
        {"minutes_per_move": 5, "bank_seconds": 60, "reserve_days": 1},
        {"preset": "blitz"},
        {"preset": "live", "minutes_per_move": 5},
        {"bank_seconds": 60},
    ],
)
def test_bad_hour_controls_are_refused_with_bad_game_setup(value: dict[str, Any]) -> None:
    with pytest.raises(DomainError) as err:
        timecontrol.time_control_clean(value)
    assert err.value.code == "bad_game_setup" and err.value.message


@pytest.mark.django_db
def test_the_presets_are_listed_for_anyone(client: Any) -> None:
    body = client.get("/api/v1/time-controls/").json()
    assert [p["name"] for p in body] == [p.name for p in presets.PRESETS]
    live = body[0]
    assert live["seconds_per_move"] == 120 and live["bank_seconds"] == 600
    assert live["time_control"] == {"preset": "live"} and live["label"]
    for p in body:  # every preset is a time control the clock accepts
        timecontrol.time_control_clean(p["time_control"])


@pytest.mark.django_db
def test_a_game_created_through_the_api_with_a_preset_keeps_its_times() -> None:
    me = PlayerFactory()
    r = client_for(me.user).post(
        "/api/v1/games/",
        {
            "seats": [{"kind": "me"}] + [{"kind": "open"}] * 3,
            "options": {"time_control": {"preset": "fast"}},
        },
        format="json",
    )
    assert r.status_code == 201, r.content
    game = Game.objects.get(public_id=r.json()["id"])
    assert game.options["time_control"] == {"minutes_per_move": 720, "bank_seconds": 259200}
    r = client_for(me.user).post(
        "/api/v1/games/",
        {
            "seats": [{"kind": "me"}] + [{"kind": "open"}] * 3,
            "options": {"time_control": {"minutes_per_move": 0}},
        },
        format="json",
    )
    assert r.status_code == 400 and r.json()["code"] == "bad_game_setup"


@pytest.mark.django_db(transaction=True)
def test_a_live_game_runs_two_minutes_a_move_with_a_bank_in_seconds() -> None:
    with time_machine.travel(T0, tick=False) as traveller:
        game = game_with({"preset": "live"})
        info = clock_info(game)
        assert info is not None
        assert (info["seconds_per_move"], info["bank_seconds"], info["preset"]) == (
            120,
            600,
            "live",
        )
        assert info["days_per_move"] is None and info["reserve_days"] is None
        assert info["running"]["deadline"] == (T0 + 2 * MIN).isoformat()
        assert info["running"]["final_deadline"] == (T0 + 12 * MIN).isoformat()
        assert [s["reserve_left_seconds"] for s in info["seats"]] == [600] * 4
        seat = game.to_act
        assert seat is not None
        traveller.move_to(T0 + 5 * MIN)  # three minutes late: three of the bank's ten spent
        play(game.pk)
        sc = SeatClock.objects.get(game_clock__game=game, position=seat)
        assert sc.reserve_left == 7 * MIN and sc.consecutive_timeouts == 0
        # The next seat: two minutes and its whole bank, then the house bot.
        nxt = Game.objects.get(pk=game.pk).to_act
        traveller.move_to(T0 + 5 * MIN + 12 * MIN - timedelta(seconds=1))
        assert sweep().moved == []
        traveller.move_to(T0 + 5 * MIN + 12 * MIN)
        assert sweep().moved == [(game.pk, 2)]
    move = Move.objects.get(game=game, seq=2)
    assert move.seat == nxt and move.submitted_by == SubmittedBy.SYSTEM


@pytest.mark.django_db(transaction=True)
def test_reminders_scale_with_the_time_per_move() -> None:
    with time_machine.travel(T0, tick=False) as traveller:
        live = game_with({"minutes_per_move": 5, "bank_seconds": 600})
        fast = game_with({"preset": "fast"})
        assert GameClock.objects.get(game=live).remind_at is None  # played at the table
        assert GameClock.objects.get(game=fast).remind_at == T0 + 12 * HOUR * 0.8
        mail.outbox.clear()
        traveller.move_to(T0 + 9 * HOUR + 36 * MIN - timedelta(seconds=1))
        assert send_due_reminders() == 0
        traveller.move_to(T0 + 9 * HOUR + 36 * MIN)
        assert send_due_reminders() == 1  # the fast game's only: the live one has none
        assert len(mail.outbox) == 1 and fast.public_id in mail.outbox[0].subject
        # The morning digest lists games of an hour a move or more, not a live table.
        traveller.move_to(T0 + 24 * HOUR)
        mail.outbox.clear()
        send_daily_digests()
    bodies = " ".join(m.body for m in mail.outbox)
    assert fast.public_id in bodies and live.public_id not in bodies


@pytest.mark.django_db(transaction=True)
def test_a_turn_due_soon_gets_its_own_tasks_with_an_eta(monkeypatch: Any) -> None:
    sent: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []

    def record(name: str, *, args: tuple[Any, ...], task_id: str, **options: Any) -> None:
        sent.append((name, args, {"task_id": task_id, **options}))

    monkeypatch.setattr(enqueue, "on_commit", record)
    with time_machine.travel(T0, tick=False):
        live = game_with({"minutes_per_move": 10, "bank_seconds": 60})
        slow = game_with({"preset": "slow"})
        services.clock_sync(game_id=live.pk)
        services.clock_sync(game_id=slow.pk)
    by_name = {name: (args, opts) for name, args, opts in sent}
    assert set(by_name) == {enqueue.EXPIRE_TURN, enqueue.REMIND_TURN}  # none for the slow game
    args, opts = by_name[enqueue.EXPIRE_TURN]
    assert args == (live.pk, 0) and opts["eta"] == T0 + 11 * MIN
    args, opts = by_name[enqueue.REMIND_TURN]
    assert args == (live.pk, 0) and opts["eta"] == T0 + 8 * MIN


@pytest.mark.django_db(transaction=True)
def test_the_turn_task_plays_for_the_seat_only_when_that_turn_is_up() -> None:
    with time_machine.travel(T0, tick=False) as traveller:
        game = game_with({"minutes_per_move": 1})
        assert expire_turn(game.pk, 0) == "not_due"  # early (a worker's clock ahead)
        traveller.move_to(T0 + MIN)
        assert expire_turn(game.pk, 5) == "not_due"  # another turn: left alone
        assert expire_turn(game.pk, 0) == "moved"
        assert expire_turn(game.pk, 0) == "not_due"  # delivered twice: one move
    assert Game.objects.get(pk=game.pk).move_count >= 1
    assert Move.objects.filter(game=game, submitted_by=SubmittedBy.SYSTEM).count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_turn_reminder_task_reminds_once() -> None:
    with time_machine.travel(T0, tick=False) as traveller:
        game = game_with({"minutes_per_move": 60})
        player = to_act_player(game.pk)
        assert remind_turn(game.pk, 0) == 0  # not yet
        traveller.move_to(T0 + 48 * MIN)
        assert remind_turn(game.pk, 1) == 0  # a turn already gone
        assert remind_turn(game.pk, 0) == 1
        assert remind_turn(game.pk, 0) == 0
    assert player.notifications.filter(kind="reminder").count() == 1


@pytest.mark.parametrize(
    ("stored", "words"),
    [
        (
            {"minutes_per_move": 720, "bank_seconds": 3 * 86400},
            "12 hours per move + 3 days reserve",
        ),
        ({"minutes_per_move": 2, "bank_seconds": 600}, "2 minutes per move + 10 minutes reserve"),
        ({"minutes_per_move": 90, "bank_seconds": 0}, "90 minutes per move"),
        ({"days_per_move": 1, "reserve_days": 2}, "1 day per move + 2 days reserve"),
    ],
)
def test_a_stored_time_control_is_said_in_its_largest_whole_units_on_the_pages(
    stored: dict[str, int], words: str
) -> None:
    assert timecontrol.time_control_text(stored) == words
    assert time_control_text({"time_control": stored}) == words  # the pages ask the clock


def test_a_game_without_a_readable_time_control_says_it_has_no_clock() -> None:
    assert timecontrol.time_control_text({"weeks_per_move": 1}) is None
    assert time_control_text({"time_control": {"weeks_per_move": 1}}) == "no clock"
    assert time_control_text({}) == "no clock"
