"""A duplicate round where one table passes a deal out (docs/rules.md §4, docs/tournaments.md):
every table still holds the same cards on every deal, and the matchpoints compare only those."""

from __future__ import annotations

from typing import Any

import pytest

from backalley_engine.actions import PASS
from games import statecache
from games.models import Game, SeededDeal
from games.services import move_submit
from tests.tournaments.helpers import event, pairs
from tournaments import selectors, services
from tournaments.models import Result, Round

pytestmark = pytest.mark.django_db

SEED = "c3" * 32


def _play(game: Game, *, played: set[int]) -> Game:
    """Everyone passes, except on the deal numbers ``played``: there each bids 1 (when it
    may) and plays its first legal card."""
    while True:
        game.refresh_from_db()
        if game.to_act is None:
            return game
        state = statecache.state_for(game)
        legal = state.legal_actions()
        if state.phase == "bidding":
            action = legal[1] if state.deal_number in played and len(legal) > 1 else PASS
        else:
            action = legal[0]
        move_submit(
            game_id=game.pk, seats=[game.to_act], action=action, expected_seq=game.move_count
        )


def _deals(game: Game) -> list[tuple[Any, ...]]:
    rows = SeededDeal.objects.filter(game=game).order_by("first_seq")
    return [(d.number, d.attempt, d.dealer, d.upcard, d.hands) for d in rows]


def test_a_passed_out_deal_at_one_table_keeps_both_tables_on_the_same_cards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("games.services.secrets.token_hex", lambda n: SEED)
    t = event(scoring="duplicate", rounds=1)
    pairs(t, 4)
    services.tournament_start(tournament_id=t.pk, by=t.organiser)
    rnd = Round.objects.get(tournament=t, number=1)
    one, two = (tb.game for tb in rnd.tables.select_related("game").order_by("number"))
    assert one.seed == two.seed == SEED and one.schedule.redeal is False

    # Table 1 passes every deal out; table 2 plays deal 1 and passes the rest out.
    one = _play(one, played=set())
    two = _play(two, played={1})
    assert _deals(one) == _deals(two)  # the same 25 deals, each dealt once, same dealers
    assert len(_deals(one)) == 25 and all(d[1] == 0 for d in _deals(one))
    # By hand (docs/rules.md §6): at table 2 on deal 1 everyone bid 1, so each side's
    # contract is 2; side 0 took 7 tricks, 5·2 + (7 − 2) = 15; side 1 took 6, 5·2 + 4 = 14.
    # Every other deal there, and every deal at table 1, was passed out: 0 to both sides.
    first = statecache.state_for(two).deals[0]
    assert (first.status, first.state.team_tricks(), first.score) == ("played", (7, 6), (15, 14))
    assert [i.status for i in statecache.state_for(two).deals[1:]] == ["passed_out"] * 24
    assert (one.total_0, one.total_1, two.total_0, two.total_1) == (0, 0, 15, 14)
    for game in (one, two):
        services.tournament_game_finished(game_id=game.pk)
    rnd.refresh_from_db()
    assert rnd.status == "finished"
    # Two tables, top 2 × (2 − 1) = 2: on each side table 2 beat table 1 on the same cards.
    got = {
        (r.table.number, r.seat): (r.matchpoints, r.matchpoints_top)
        for r in Result.objects.filter(round=rnd).select_related("table")
    }
    assert got == {(1, 0): (0, 2), (1, 1): (0, 2), (2, 0): (2, 2), (2, 1): (2, 2)}
    percents = sorted(str(line.percent) for line in selectors.standings(tournament=t).lines)
    assert percents == ["0.00", "0.00", "100.00", "100.00"]
