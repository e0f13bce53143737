"""A bot author's fork: their bot's lost hand replayed against three house bots, played by
the bots' own path (the fork's start event, the outbox, the bot-turn task) to the end."""

from __future__ import annotations

import importlib
from collections.abc import Iterator

import pytest
from django.apps import apps

from backalley_engine.validate import validate_record
from backalley_site.celery import app as celery_app
from bots import house as house_roster
from games import forks, selectors
from games.models import Move
from games.services import game_create
from games.verify import verify_game
from tests.bots.helpers import hosted_bot
from tests.factories import PlayerFactory
from tests.games.helpers import play

pytestmark = pytest.mark.django_db(transaction=True)

house = importlib.import_module("bots.migrations.0002_house_bots")


@pytest.fixture
def eager_tasks() -> Iterator[None]:
    """Bot turns run in the process that committed the move (no worker needed here)."""
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = False


def test_a_fork_of_three_house_bots_and_the_authors_bot_plays_to_the_end(eager_tasks) -> None:  # type: ignore[no-untyped-def]
    house.create_house_bots(apps, None)
    house_roster.house_bots_ensure()
    author = PlayerFactory()
    people = [author, *(PlayerFactory() for _ in range(3))]
    options = {"rated": False, "schedule": {"first": 10, "last": 14}}
    original = play(game_create(creator=author, seats=people, options=options), 10_000)
    assert original.status == "finished"
    mine = hosted_bot("Forky", strategy="heuristic", owner=author.user).player
    strong = house_roster.house_players(strength="hard")
    at = 17
    fork = forks.game_fork(game_id=original.pk, by=author, move=at, seats=[mine, *strong])
    fork.refresh_from_db()
    assert fork.status == "finished" and not fork.rated
    assert verify_game(fork) == []
    own = Move.objects.filter(game=fork, seq__gt=at)
    assert set(own.values_list("submitted_by", flat=True)) <= {"bot", "auto"}
    assert set(own.values_list("seat", flat=True)) == {0, 1, 2, 3}
    # Every card known afterwards: the whole record, the seed, every hand.
    record = selectors.game_record(game=fork, seats=selectors.game_seats(game=fork), seat=0)
    assert validate_record(record) == []
    assert record["seed"] == original.seed
    assert all(h is not None for d in record["deals"] for h in d["hands"])
    assert record["forked_from"] == {"game": original.public_id, "move": at}
