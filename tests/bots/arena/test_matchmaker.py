"""The matchmaker: duplicate pairs on one seed with swapped seats, limits, opting out,
benching and re-admission, one seat per account, and lapsed API-bot turns."""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta

import pytest
from django.utils import timezone

from bots.arena import matchmaker
from bots.arena.models import ArenaEntry, ArenaPair
from bots.arena.services import arena_game_finished, arena_settings_update, arena_tick
from bots.models import BotFault, BotKind
from games.models import Game, Move
from tests.bots.arena.helpers import entered_bot, finish
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _seat_ids(game: Game) -> list[int]:
    return list(game.seats.order_by("position").values_list("player__bot__id", flat=True))


def test_a_pair_is_two_rated_games_on_one_seed_with_the_partnerships_seats_swapped() -> None:
    bots = [entered_bot(f"Pairbot-{i}") for i in range(4)]
    result = arena_tick(rng=random.Random(1))
    assert result.eligible == 4 and len(result.pairs) == 1
    pair = ArenaPair.objects.get()
    a, b = pair.game_a, pair.game_b
    assert a.seed == b.seed == pair.seed and a.commitment == b.commitment
    assert a.status == b.status == "active" and a.rated and b.rated
    b0, b1, b2, b3 = pair.bot_ids
    assert sorted(pair.bot_ids) == sorted(bot.pk for bot in bots)
    assert _seat_ids(a) == [b0, b1, b2, b3]
    assert _seat_ids(b) == [b1, b0, b3, b2]  # each partnership holds the other's cards
    # Same seed, same cards at the same seats in both games.
    assert list(a.deals.values_list("hands", flat=True)) == list(
        b.deals.values_list("hands", flat=True)
    )
    assert set(ArenaEntry.objects.values_list("in_flight", "games_today")) == {(2, 2)}


def test_no_bot_plays_over_its_limits_of_games_at_once_and_per_day() -> None:
    busy = entered_bot("Busy", max_concurrent=2, max_per_day=100)
    daily = entered_bot("Daily", max_concurrent=20, max_per_day=4)
    others = [entered_bot(f"Other-{i}", max_concurrent=20, max_per_day=100) for i in range(10)]
    rng = random.Random(3)
    for _ in range(6):
        arena_tick(rng=rng)
        for pair in ArenaPair.objects.filter(status="playing", done_a=False):
            # Finish the pairs that hold Daily, so only its daily limit stops it.
            if daily.pk in pair.bot_ids:
                finish(pair.game_a, (100, 50))
                finish(pair.game_b, (60, 90))
                arena_game_finished(game_id=pair.game_a_id)
                arena_game_finished(game_id=pair.game_b_id)
    games = Counter(bid for p in ArenaPair.objects.all() for bid in p.bot_ids)
    assert games[busy.pk] == 1  # its one pair never finished: 2 games at once is its limit
    assert games[daily.pk] == 2  # two pairs = four games: its daily limit
    assert all(games[o.pk] >= 2 for o in others)
    for entry in ArenaEntry.objects.all():
        assert entry.in_flight <= entry.max_concurrent
        assert entry.games_today <= entry.max_per_day
        assert entry.games_today % 2 == 0
    assert ArenaEntry.objects.get(bot=daily).in_flight == 0


def test_a_table_never_seats_two_bots_of_one_account() -> None:
    owner = UserFactory()
    mine = [entered_bot(f"Mine-{i}", owner=owner) for i in range(3)]
    for i in range(9):
        entered_bot(f"Theirs-{i}")
    arena_tick(rng=random.Random(5))
    mine_ids = {b.pk for b in mine}
    pairs = list(ArenaPair.objects.all())
    assert len(pairs) >= 2
    assert all(len(mine_ids & set(p.bot_ids)) <= 1 for p in pairs)
    # The same rule in the pure matchmaker, over many draws.
    cands = [matchmaker.Candidate(i, i % 3 if i < 9 else i, 1500.0) for i in range(20)]
    for s in range(50):
        for t in matchmaker.choose_tables(cands, random.Random(s), jitter=50):
            assert len({c if c >= 9 else c % 3 for c in t}) == 4


def test_the_matchmaker_prefers_close_ratings() -> None:
    cands = [matchmaker.Candidate(i, i, 1000.0 + 100 * i) for i in range(16)]
    tables = matchmaker.choose_tables(cands, random.Random(2), jitter=10)
    assert [sorted(t) for t in tables] == [list(range(k, k + 4)) for k in (0, 4, 8, 12)]
    # With a jitter as wide as the field, the tables change from draw to draw.
    draws = {
        tuple(
            sorted(
                tuple(sorted(t))
                for t in matchmaker.choose_tables(cands, random.Random(s), jitter=800)
            )
        )
        for s in range(5)
    }
    assert len(draws) > 1


def test_opting_out_stops_new_games_and_lets_running_ones_finish() -> None:
    bots = [entered_bot(f"Quit-{i}") for i in range(4)]
    arena_tick(rng=random.Random(1))
    pair = ArenaPair.objects.get()
    arena_settings_update(bot=bots[0], opted_in=False)
    assert arena_tick(rng=random.Random(2)).pairs == []
    pair.game_a.refresh_from_db()
    assert pair.game_a.status == "active"  # not aborted
    finish(pair.game_a, (80, 40))
    finish(pair.game_b, (70, 20))
    assert arena_game_finished(game_id=pair.game_a_id) == "counted"
    assert arena_game_finished(game_id=pair.game_b_id) == "scored"
    entry = ArenaEntry.objects.get(bot=bots[0])
    assert (entry.in_flight, entry.games, entry.pairs) == (0, 2, 1)
    assert arena_tick(rng=random.Random(3)).pairs == []
    arena_settings_update(bot=bots[0], opted_in=True)
    assert len(arena_tick(rng=random.Random(4)).pairs) == 1


def test_finishing_a_game_twice_counts_it_once() -> None:
    for i in range(4):
        entered_bot(f"Twice-{i}")
    arena_tick(rng=random.Random(1))
    pair = ArenaPair.objects.get()
    finish(pair.game_a, (50, 30))
    assert arena_game_finished(game_id=pair.game_a_id) == "counted"
    assert arena_game_finished(game_id=pair.game_a_id) == "already_counted"
    assert arena_game_finished(game_id=pair.game_b_id) == "not_finished"
    finish(pair.game_b, (30, 50))
    assert arena_game_finished(game_id=pair.game_b_id) == "scored"
    assert arena_game_finished(game_id=pair.game_b_id) == "already_counted"
    assert set(ArenaEntry.objects.values_list("games", "pairs", "in_flight")) == {(2, 1, 0)}


def _fault(bot, n: int, when) -> None:  # type: ignore[no-untyped-def]
    for i in range(n):
        f = BotFault.objects.create(bot=bot, kind="timeout", detail="slow", seq=1000 + i)
        BotFault.objects.filter(pk=f.pk).update(created_at=when)


def test_a_bot_that_faults_too_often_is_benched_with_a_reason_and_readmitted_later(
    settings,  # type: ignore[no-untyped-def]
) -> None:
    settings.ARENA_BENCH_COOLDOWN_S = 600
    flaky = entered_bot("Flaky", kind=BotKind.API)
    for i in range(4):
        entered_bot(f"Steady-{i}")
    now = timezone.now()
    _fault(flaky, 6, now - timedelta(minutes=5))
    result = arena_tick(now=now, rng=random.Random(1))
    assert result.benched == [flaky.pk]
    entry = ArenaEntry.objects.get(bot=flaky)
    assert entry.benched_until == now + timedelta(seconds=600)
    assert entry.bench_reason == "6 of its last 6 turns faulted (timeout ×6)"
    assert all(flaky.pk not in p.bot_ids for p in ArenaPair.objects.all())
    # Still benched a little later; back after the cool-down, and its old faults are forgiven.
    ArenaPair.objects.update(status="finished")
    ArenaEntry.objects.update(in_flight=0)
    assert arena_tick(now=now + timedelta(seconds=300), rng=random.Random(2)).eligible == 4
    ArenaPair.objects.update(status="finished")
    ArenaEntry.objects.update(in_flight=0)
    later = arena_tick(now=now + timedelta(seconds=601), rng=random.Random(3))
    assert later.benched == [] and later.eligible == 5 and len(later.pairs) == 1


def test_a_few_faults_among_many_good_turns_do_not_bench() -> None:
    ok = entered_bot("Mostly-ok", kind=BotKind.API)
    now = timezone.now()
    _fault(ok, 5, now - timedelta(minutes=1))
    others = [entered_bot(f"Seat-{i}") for i in range(3)]
    game = Game.objects.create(seed="0" * 64, commitment="x", first_dealer=0)
    Move.objects.bulk_create(
        Move(
            game=game,
            seq=i + 1,
            seat=0,
            action={},
            action_code=0,
            submitted_by="bot",
            actor=ok.player,
        )
        for i in range(40)
    )
    assert arena_tick(now=now, rng=random.Random(1)).benched == []
    assert others  # the table of four still forms
    assert ArenaEntry.objects.get(bot=ok).benched_until is None


def test_an_api_bots_lapsed_arena_turn_is_played_by_the_house_and_logged(settings) -> None:  # type: ignore[no-untyped-def]
    settings.ARENA_API_TURN_S = 30
    api = [entered_bot(f"Api-{i}", kind=BotKind.API) for i in range(4)]
    arena_tick(rng=random.Random(1))
    pair = ArenaPair.objects.get()
    game = pair.game_a
    Game.objects.filter(pk__in=[pair.game_a_id, pair.game_b_id]).update(
        started_at=timezone.now() - timedelta(seconds=31)
    )
    result = arena_tick(rng=random.Random(2))
    assert result.substituted == 2  # one lapsed turn in each game
    game.refresh_from_db()
    move = Move.objects.get(game=game, seq=1)
    assert move.submitted_by == "system" and move.actor is None
    fault = BotFault.objects.get(game=game)
    assert fault.kind == "timeout" and fault.seq == 0
    assert fault.bot_id in {b.pk for b in api}
    # The next turn has just begun: nothing to do yet.
    assert arena_tick(rng=random.Random(3)).substituted == 0


def test_the_beat_tick_only_chooses_tables_and_each_pair_starts_in_its_own_task(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The tick's cost does not grow with the games it makes: it hands each table on."""
    from bots.arena import tasks

    for i in range(4):
        entered_bot(f"Taskbot-{i}", max_concurrent=2)
    sent: list[list[int]] = []
    monkeypatch.setattr(tasks.arena_start_pair, "delay", lambda ids: sent.append(ids))
    summary = tasks.arena_tick()
    assert summary["tables"] == 1 and len(sent) == 1 and len(set(sent[0])) == 4
    assert not ArenaPair.objects.exists()  # nothing started by the tick itself
    pair_id = tasks.arena_start_pair(sent[0])
    assert ArenaPair.objects.get().pk == pair_id
    assert tasks.arena_start_pair(sent[0]) is None  # run twice: the bots have no room left
