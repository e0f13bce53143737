import math

from backalley_bot.stats import duplicate_score, mean_ci, t95


def test_duplicate_score_is_the_margin_per_game_over_both_sides_of_the_cards() -> None:
    assert duplicate_score((120, 80), (90, 100)) == 25.0
    assert duplicate_score((100, 50), (100, 50)) == 0.0  # the same games: no edge


def test_t_quantiles_match_the_tables() -> None:
    # Student t, two-sided 95% (any statistics table).
    for df, t in ((1, 12.706), (2, 4.303), (5, 2.571), (10, 2.228), (30, 2.042), (120, 1.980)):
        assert abs(t95(df) - t) < 5e-4


def test_one_pair_has_an_unbounded_interval() -> None:
    assert mean_ci([5.0]) == (5.0, -math.inf, math.inf)
