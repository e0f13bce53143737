"""The local runner plays the arena's pairs and scores them by the arena's formula."""

import backalley_engine as ba
from backalley_bot import Bot
from backalley_bot.play import bot_player, heuristic_player, main, pair_seed, run
from backalley_bot.stats import mean_ci
from backalley_engine.heuristic import heuristic_action


class Low(Bot):
    def choose(self, observation):  # type: ignore[no-untyped-def]
        return "pass" if observation.is_bidding else observation.legal[0]


def _totals(seed: str, low_team: int) -> tuple[int, int]:
    """A game played straight on the engine: Low's rule on one team, the heuristic on the
    other (a seat with one legal action plays it)."""
    g = ba.GameState.new(seed)
    while not g.is_terminal():
        seat = g.seat_to_act
        assert seat is not None
        legal = g.legal_actions()
        if ba.team_of(seat) != low_team:
            g.apply(heuristic_action(g.observation(seat)), seat)
        elif g.phase == "bidding":
            g.apply(ba.PASS if len(legal) > 1 else legal[0], seat)
        else:
            g.apply(legal[0], seat)
    assert g.outcome is not None
    return g.outcome.totals


def test_the_runners_score_is_the_arena_formula_on_the_same_seeds() -> None:
    results = run(bot_player(Low()), heuristic_player, pairs=3, seed=7)
    for i, pair in enumerate(results):
        assert pair.seed == pair_seed(7, i)
        a, b = _totals(pair.seed, 0), _totals(pair.seed, 1)
        assert (pair.a, pair.b) == (a, b)
        # The bot is partnership A: team 0 in game a, team 1 in game b.
        assert pair.score == ((a[0] - b[0]) + (b[1] - a[1])) / 2


def test_the_same_bot_on_both_sides_scores_zero() -> None:
    results = run(heuristic_player, heuristic_player, pairs=2, seed=1)
    assert [p.score for p in results] == [0.0, 0.0]
    assert mean_ci([p.score for p in results])[0] == 0.0


def test_the_command_prints_the_score_with_its_interval(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["--bot", "test_runner:Low", "--against", "random", "--pairs", "2", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "Low against random: 2 pairs, duplicate score" in out
    assert "95% interval" in out
