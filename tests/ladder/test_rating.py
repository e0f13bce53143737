"""The rating arithmetic against hand-computed examples (see docs/ratings.md)."""

import doctest
from decimal import Decimal as D

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ladder import ledger, rating
from ladder.rating import Standing


def new(games: int = 0, r: str = "1500") -> Standing:
    return Standing(D(r), games)


def test_module_doctests_pass() -> None:
    failures, _ = doctest.testmod(rating)
    assert failures == 0


def test_equal_newcomers_winners_gain_twenty_losers_lose_twenty() -> None:
    changes = rating.rate_game([new()] * 4, winner=1)
    assert [c.delta for c in changes] == [D(-20), D(20), D(-20), D(20)]
    assert [c.after for c in changes] == [D(1480), D(1520), D(1480), D(1520)]
    assert all(c.expected == D("0.5") and c.k == 40 for c in changes)
    assert [c.result for c in changes] == [0, 1, 0, 1]


def test_established_favourites_win_small_lose_big() -> None:
    # Team 0 = 1600 + 1600, team 1 = 1400 + 1400; E0 = 1/(1+10^-0.5) = 0.759747 (by hand).
    seats = [new(30, "1600"), new(30, "1400"), new(30, "1600"), new(30, "1400")]
    win = rating.rate_game(seats, winner=0)
    assert [c.expected for c in win] == [D("0.759747"), D("0.240253")] * 2
    assert [c.delta for c in win] == [D("4.8051"), D("-4.8051")] * 2
    upset = rating.rate_game(seats, winner=1)
    assert [c.delta for c in upset] == [D("-15.1949"), D("15.1949")] * 2
    assert upset[1].after == D("1415.1949")


def test_draw_moves_the_favourite_down_and_the_underdog_up() -> None:
    seats = [new(30, "1600"), new(30, "1400"), new(30, "1600"), new(30, "1400")]
    draw = rating.rate_game(seats, winner=None)
    # 20 * (0.5 - 0.759747) = -5.19494 -> -5.1949
    assert [c.delta for c in draw] == [D("-5.1949"), D("5.1949")] * 2
    assert all(c.result == D("0.5") for c in draw)


def test_team_rating_is_the_mean_of_the_partners() -> None:
    # Seats 0/2 = 1700 and 1500 (mean 1600) against 1400/1400: same E as 1600 vs 1400.
    seats = [new(30, "1700"), new(30, "1400"), new(30, "1500"), new(30, "1400")]
    assert [c.expected for c in rating.rate_game(seats, winner=0)][:2] == [
        D("0.759747"),
        D("0.240253"),
    ]


def test_provisional_k_is_forty_until_twenty_games_then_twenty() -> None:
    # Partners share E and S but each has their own K.
    seats = [new(19), new(20), new(0), new(100)]
    changes = rating.rate_game(seats, winner=0)
    assert [c.k for c in changes] == [40, 20, 40, 20]
    assert [c.delta for c in changes] == [D(20), D(-10), D(20), D(-10)]
    assert Standing(D(1500), 19).provisional and not Standing(D(1500), 20).provisional


def test_rounding_is_to_four_places_half_even() -> None:
    # 1500 vs 1510 (team means): E0 = 1/(1+10^(10/400)) = 0.4856128 (by hand: 10^0.025 =
    # 1.0592537) -> 0.485613; 40 * (1 - 0.485613) = 20.57548 -> 20.5755.
    seats = [new(0, "1500"), new(0, "1510"), new(0, "1500"), new(0, "1510")]
    changes = rating.rate_game(seats, winner=0)
    assert changes[0].expected == D("0.485613")
    assert changes[0].delta == D("20.5755")
    assert changes[1].delta == D("-20.5755")


def test_abandoned_seat_is_a_loss_the_others_keep_the_real_result() -> None:
    changes = rating.rate_game([new()] * 4, winner=1, abandoned={3})
    assert [c.result for c in changes] == [0, 1, 0, 0]
    assert [c.delta for c in changes] == [D(-20), D(20), D(-20), D(-20)]


def test_pair_ratings_use_the_same_formula_on_pair_ratings() -> None:
    pairs = [new(5, "1600"), new(40, "1400")]
    changes = rating.rate_pairs(pairs, winner=1)
    assert [c.expected for c in changes] == [D("0.759747"), D("0.240253")]
    # Provisional pair: 40 * (0 - 0.759747) = -30.38988 -> -30.3899; established: 20 * 0.759747.
    assert [c.delta for c in changes] == [D("-30.3899"), D("15.1949")]
    assert rating.rate_pairs([new()] * 2, winner=None)[0].delta == 0
    assert [c.result for c in rating.rate_pairs([new()] * 2, 0, abandoned_teams={0})] == [0, 0]


def test_bad_inputs_raise() -> None:
    with pytest.raises(ValueError):
        rating.rate_game([new()] * 3, winner=0)
    with pytest.raises(ValueError):
        rating.rate_game([new()] * 4, winner=2)
    with pytest.raises(ValueError):
        rating.rate_game([new()] * 4, winner=0, abandoned={4})
    with pytest.raises(ValueError):
        ledger.GameResult(1, (1, 2, 1, 3), winner=0)


def test_ledger_tallies_counts_and_trend() -> None:
    book = ledger.Ledger()
    book.rate(ledger.GameResult(1, (1, 2, 3, 4), winner=0, teams=(10, 11)))
    book.rate(ledger.GameResult(2, (1, 2, 3, 4), winner=None, teams=(10, 11)))
    book.rate(ledger.GameResult(3, (2, 1, 4, 3), winner=0, teams=(11, 10)))
    one = book.players[1]
    assert (one.games, one.wins, one.draws, one.losses) == (3, 1, 1, 1)
    assert one.trend == one.rating - rating.START
    assert book.pairs[10].games == 3 and book.pairs[11].wins == 1


money = st.decimals(min_value=800, max_value=2400, places=4)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(money, st.integers(0, 40)), min_size=4, max_size=4),
    st.sampled_from([0, 1, None]),
)
def test_established_game_changes_sum_to_zero_and_winners_never_lose(players, winner) -> None:
    seats = [Standing(r, g) for r, g in players]
    changes = rating.rate_game(seats, winner)
    for c in changes:
        assert c.after == c.before + c.delta
        assert c.delta.as_tuple().exponent == -4
        assert (c.delta >= 0) if c.result == 1 else (c.delta <= 0) if c.result == 0 else True
    if all(s.games >= 20 for s in seats) or all(s.games < 20 for s in seats):
        assert sum(c.delta for c in changes) == 0
