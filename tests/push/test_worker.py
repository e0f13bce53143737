"""Through a real Celery worker: the bots' moves, played by the worker, bring the turn back
to the one person at the table, and that person's phone is told once, by the worker, in a
push the test decrypts with the phone's own keys (made by the test, as a browser would)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from backalley_engine.cards import NUM_CARDS, cards_str
from games import statecache
from games.models import Game
from games.services import move_submit
from push.models import PushSent
from tests.bots.helpers import game_with, hosted_bot
from tests.bots.worker import Worker, purge_broker, require_worker_services, wait_for
from tests.factories import PlayerFactory
from tests.games.conftest import clear_presence
from tests.push.helpers import PUSH_SETTINGS, FakePushService, subscribe

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

CARDS = set(cards_str(range(NUM_CARDS)))


@pytest.fixture
def worker(transactional_db: Any, tmp_path: Any) -> Iterator[Worker]:
    """One real worker on the test database, with push on and the tests' keys."""
    require_worker_services()
    purge_broker()
    env = {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in PUSH_SETTINGS.items()}
    started = Worker(tmp_path, env, name="push-test").start(timeout=90)
    yield started
    started.stop()
    purge_broker()


@pytest.fixture
def pushes(settings: Any) -> Iterator[FakePushService]:
    """Push on here and in the worker (the same keys), tasks sent to the broker."""
    from backalley_site.celery import app

    for name, value in PUSH_SETTINGS.items():
        setattr(settings, name, value)
    clear_presence()  # nobody's table page is open: a turn is told at once
    before = app.conf.task_always_eager
    app.conf.task_always_eager = False
    service = FakePushService()
    yield service
    service.stop()
    app.conf.task_always_eager = before
    clear_presence()


def test_a_bot_s_move_in_the_worker_tells_the_person_whose_turn_it_is_once(
    pushes: FakePushService, worker: Worker
) -> None:
    me = PlayerFactory()
    phone = pushes.browser("me")
    subscribe(me, phone)
    bots = [hosted_bot(f"Pusher-{i}") for i in range(3)]
    game = game_with([me, *(b.player for b in bots)], rated=False)

    def my_turn() -> Game | None:
        g = Game.objects.get(pk=game.pk)
        return g if g.to_act == 0 else None

    # My first turn (the start's, or after the bots' first moves), then one move of mine:
    # from here the worker plays the three bots until it is my turn again.
    try:
        game = wait_for(my_turn, 60, "my first turn", 0.05)
    except AssertionError:
        raise AssertionError(worker.log()[-4000:]) from None
    mine = game.move_count
    # That turn of mine was told first (by the worker too): counted before my move.
    wait_for(
        lambda: PushSent.objects.filter(key=f"turn:{game.pk}:{mine}").exists(),
        30,
        "the push of my first turn",
    )
    before = len(pushes.to(phone))
    move_submit(
        game_id=game.pk,
        seats=[0],
        action=statecache.state_for(game).legal_actions()[0],
        expected_seq=mine,
        actor=me,
    )
    game = wait_for(
        lambda: (g := my_turn()) is not None and g.move_count > mine + 1 and g, 60, "my next turn"
    )
    due = game.move_count
    assert due >= mine + 2  # my move, then the bots' (one at least), in the worker
    wait_for(lambda: len(pushes.to(phone)) > before, 30, "the push to my phone")
    time.sleep(2.0)  # a second push of the same turn (a repeated task) would land by now
    new = pushes.to(phone)[before:]
    assert len(new) == 1, [r.path for r in new]
    payload = phone.decrypt(new[0].body)
    assert payload == {
        "title": f"Your move in game {game.public_id}",
        "body": "It is your turn at the table (seat 0).",
        "url": f"/games/{game.public_id}/",
        "tag": f"game-{game.public_id}",
    }
    assert not set(re.findall(r"[0-9A-Za-z]+", json.dumps(payload))) & CARDS
    assert new[0].headers["urgency"] == "high"
    assert PushSent.objects.filter(key=f"turn:{game.pk}:{due}").count() == 1
    assert "push.tasks.push_turn" in worker.log()  # told by the worker, not by this process
