"""The turn arithmetic and the time-control option, on plain values."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backalley_site.errors import DomainError
from clock import timecontrol

T = datetime(2026, 1, 1, tzinfo=UTC)


def test_turn_times_put_the_reminder_at_80_percent_and_the_bank_after_the_deadline() -> None:
    times = timecontrol.turn_times(T, timedelta(days=5), timedelta(days=2))
    assert times.deadline == T + timedelta(days=5)
    assert times.expires_at == T + timedelta(days=7)
    assert times.remind_at == T + timedelta(days=4)


@settings(max_examples=200, deadline=None)
@given(
    late=st.integers(min_value=-(10**6), max_value=10**7),
    bank=st.integers(min_value=0, max_value=30 * 86400),
)
def test_a_move_spends_between_nothing_and_the_whole_bank(late: int, bank: int) -> None:
    deadline = T + timedelta(days=1)
    used = timecontrol.reserve_used(
        deadline + timedelta(seconds=late), deadline, timedelta(seconds=bank)
    )
    assert timedelta(0) <= used <= timedelta(seconds=bank)
    assert used == timedelta(seconds=min(max(late, 0), bank))


@pytest.mark.parametrize(
    "value",
    [
        {},
        {"days_per_move": True},
        {"days_per_move": 3.5},
        {"days_per_move": "3"},
        {"days_per_move": 3, "reserve_days": -1},
        {"days_per_move": 3, "reserve_days": None},
        {"days_per_move": 3, "increment": 1},
    ],
)
def test_bad_time_controls_are_refused_with_bad_game_setup(value: dict) -> None:
    with pytest.raises(DomainError) as err:
        timecontrol.time_control_clean(value)
    assert err.value.code == "bad_game_setup" and err.value.message


def test_good_time_controls_are_kept() -> None:
    assert timecontrol.time_control_clean({"days_per_move": 14, "reserve_days": 30}) == {
        "days_per_move": 14,
        "reserve_days": 30,
    }
    assert timecontrol.time_control_clean({"days_per_move": 1}) == {
        "days_per_move": 1,
        "reserve_days": 0,
    }
