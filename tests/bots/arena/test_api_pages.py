"""The arena's API and pages: the leaderboard, a bot's card (fault log for its owner only),
and the owner's settings, with typed errors."""

from __future__ import annotations

import random

import pytest
from rest_framework.test import APIClient

from bots.arena.models import ArenaEntry, ArenaPair
from bots.arena.services import arena_game_finished, arena_tick
from bots.models import BotFault
from tests.bots.arena.helpers import entered_bot, finish
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def scored():  # type: ignore[no-untyped-def]
    """Four bots with two scored pairs: A (bot_0, bot_2) +25 then, in the second, +5."""
    bots = [entered_bot(f"Card-{i}") for i in range(4)]
    arena_tick(rng=random.Random(1))
    for totals in (((120, 80), (90, 100)), ((60, 70), (40, 60))):
        pair = ArenaPair.objects.filter(status="playing").get()
        finish(pair.game_a, totals[0])
        finish(pair.game_b, totals[1])
        arena_game_finished(game_id=pair.game_a_id)
        arena_game_finished(game_id=pair.game_b_id)
        ArenaEntry.objects.update(in_flight=0)
        arena_tick(rng=random.Random(2))
    return bots


def test_the_duplicate_score_follows_the_worked_example(scored) -> None:  # type: ignore[no-untyped-def]
    first, second = ArenaPair.objects.filter(status="finished").order_by("id")
    # (120 - 90 on seats 0/2, 100 - 80 on seats 1/3) / 2 = 25; (60 - 40 + 60 - 70) / 2 = 5.
    assert (first.score_a, second.score_a) == (25.0, 5.0)
    for entry in ArenaEntry.objects.all():
        mine = [
            p.score_a if entry.bot_id in (p.bot_0_id, p.bot_2_id) else -p.score_a
            for p in (first, second)
        ]
        mean, low, high = entry.duplicate_score  # type: ignore[misc]
        assert mean == pytest.approx(sum(mine) / 2)
        # Two pairs: t(1) = 12.706, sd = |a - b| / sqrt(2), half width = t * sd / sqrt(2).
        half = 12.706 * abs(mine[0] - mine[1]) / 2
        assert (low, high) == (pytest.approx(mean - half), pytest.approx(mean + half))


def test_the_leaderboard_api_lists_bots_with_score_games_and_fault_rate(scored) -> None:  # type: ignore[no-untyped-def]
    body = APIClient().get("/api/v1/arena/").json()
    assert body["count"] == 4
    rows = body["results"]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]
    assert {r["games"] for r in rows} == {4}
    assert {r["pairs"] for r in rows} == {2}
    assert all(r["score_low"] < r["score"] < r["score_high"] for r in rows)
    assert {r["fault_rate"] for r in rows} == {0.0} or {r["fault_rate"] for r in rows} == {None}
    ratings = [float(r["rating"]) for r in rows]
    assert ratings == sorted(ratings, reverse=True)


def test_a_bots_card_shows_its_fault_log_to_its_owner_only(scored, client) -> None:  # type: ignore[no-untyped-def]
    bot = scored[0]
    BotFault.objects.create(bot=bot, kind="malformed", detail="not JSON", seq=7)
    public = APIClient().get(f"/api/v1/arena/bots/{bot.player.name.lower()}/").json()
    assert public["name"] == bot.player.name and public["faults"] is None
    assert public["owner"] == bot.player.owner.username
    # Two scored pairs and the one the last tick started.
    assert [p["status"] for p in public["recent_pairs"]] == ["playing", "finished", "finished"]
    # The playing pair's two games are left out until both are over (one seed, docs/rules.md §8).
    assert len(public["recent_games"]) == 4
    owner = APIClient()
    owner.force_login(bot.player.owner)
    mine = owner.get(f"/api/v1/arena/bots/{bot.player.name}/").json()
    assert [(f["kind"], f["detail"]) for f in mine["faults"]] == [("malformed", "not JSON")]
    # The page: the same card, the log only for the owner.
    page = client.get(f"/arena/bots/{bot.player.name}/").content.decode()
    assert "rating-chart" in page and "not JSON" not in page
    client.force_login(bot.player.owner)
    page = client.get(f"/arena/bots/{bot.player.name}/").content.decode()
    assert "not JSON" in page and "malformed" in page
    assert APIClient().get("/api/v1/arena/bots/nobody/").json()["code"] == "not_found"


def test_the_owner_opts_in_and_sets_limits_through_the_api() -> None:
    bot = entered_bot("Settable")
    api = APIClient()
    api.force_login(bot.player.owner)
    url = f"/api/v1/bots/{bot.player.name}/arena/"
    r = api.patch(url, {"max_concurrent": 3}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "bad_arena_settings"
    assert "even" in r.json()["message"]
    r = api.patch(url, {"opted_in": False, "max_concurrent": 4, "max_per_day": 10}, format="json")
    assert r.status_code == 200, r.json()
    assert r.json()["opted_in"] is False and r.json()["max_concurrent"] == 4
    assert api.get(url).json()["max_per_day"] == 10
    stranger = APIClient()
    stranger.force_login(UserFactory())
    assert stranger.patch(url, {"opted_in": True}, format="json").status_code == 404


def test_the_settings_page_saves_and_shows_errors(client) -> None:  # type: ignore[no-untyped-def]
    bot = entered_bot("Formbot")
    client.force_login(bot.player.owner)
    url = f"/arena/bots/{bot.player.name}/settings/"
    r = client.post(url, {"max_concurrent": "6", "max_per_day": "20"})
    assert r.status_code == 302
    entry = ArenaEntry.objects.get(bot=bot)
    assert (entry.opted_in, entry.max_concurrent, entry.max_per_day) == (False, 6, 20)
    r = client.post(url, {"opted_in": "on", "max_concurrent": "5", "max_per_day": "20"})
    assert "even number" in r.content.decode()
    assert not ArenaEntry.objects.get(bot=bot).opted_in  # nothing written on error
    assert client.get("/arena/").status_code == 200


def test_the_schema_describes_the_arena_endpoints(client) -> None:  # type: ignore[no-untyped-def]
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").content.decode()
    for path in ("/api/v1/arena/", "/api/v1/arena/bots/{name}/", "/api/v1/bots/{name}/arena/"):
        assert path in schema
