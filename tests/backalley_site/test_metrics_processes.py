"""A whole game against three house bots, played through a real web node (gunicorn with
uvicorn workers) and a real Celery worker, both counting in Prometheus' multiprocess mode;
then both are scraped: every named metric is there and plausible (the moves counted are the
moves made, one bot-turn latency per bot move), and the request id of a move reaches the
worker's log of the bot turn it caused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from backalley_site import health
from bots.house import house_bots_ensure, house_players
from games import services
from games.models import Event, Game, GameStatus, Move, SubmittedBy
from tests.bots.worker import Worker, purge_broker, require_worker_services, wait_for
from tests.factories import PlayerFactory
from tests.games.live_clients import auth, token_for

pytestmark = [pytest.mark.server, pytest.mark.django_db(transaction=True)]

TOKEN = "scrape-me-0123456789abcdef"
NAMED = [
    "backalley_http_request_duration_seconds",
    "backalley_moves_total",
    "backalley_bot_turn_latency_seconds",
    "backalley_outbox_backlog",
    "backalley_outbox_lag_seconds",
    "backalley_live_waiting_clients",
    "backalley_celery_queue_length",
    "backalley_webhook_failures_total",
    "backalley_push_failures_total",
    "backalley_workers_alive",
]


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def parse(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    samples: dict[tuple[str, tuple[tuple[str, str], ...]], float] = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            samples[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return samples


def total(samples: dict[Any, float], name: str, **labels: str) -> float:
    want = set(labels.items())
    return sum(v for (n, k), v in samples.items() if n == name and want <= set(k))


def play_my_seat(url: str, token: str, game_id: str, seat: int, request_ids: list[str]) -> int:
    """Play ``seat`` to the end of the game (the first legal action each turn), waiting on
    the long poll for the bots; returns how many moves it made."""
    made = 0
    with httpx.Client(base_url=url, headers=auth(token), timeout=30) as http:
        while True:
            legal = http.get(f"/api/v1/games/{game_id}/legal/").json()
            seq = legal["seq"]
            if legal["to_act"] is None:
                return made
            if not legal["actions"]:
                http.get(f"/api/v1/games/{game_id}/events/", params={"since": seq, "wait": 20})
                continue
            rid = f"move-{made}"
            r = http.post(
                f"/api/v1/games/{game_id}/moves/",
                json={"action": legal["actions"][0], "expected_seq": seq},
                headers={"X-Request-ID": rid},
            )
            assert r.status_code == 201, r.text
            assert r.headers["X-Request-ID"] == rid
            request_ids.append(rid)
            made += 1


def test_a_scrape_after_a_game_counts_what_was_played(
    asgi_server_factory: Any, tmp_path: Path
) -> None:
    require_worker_services()
    purge_broker()
    web_dir, worker_dir = tmp_path / "prom-web", tmp_path / "prom-worker"
    server = asgi_server_factory(
        {"PROMETHEUS_MULTIPROC_DIR": str(web_dir), "METRICS_TOKEN": TOKEN}
    ).start()
    port = _free_port()
    worker = Worker(
        tmp_path,
        {
            "PROMETHEUS_MULTIPROC_DIR": str(worker_dir),
            "METRICS_WORKER_PORT": str(port),
            "LOG_FORMAT": "json",
            "WORKER_HEARTBEAT_EVERY_S": "1",
        },
    )
    try:
        worker.start()
        house_bots_ensure()
        me = PlayerFactory()
        bots = house_players(strength="easy")
        game = services.game_create(creator=me, seats=[me, *bots], options={"rated": False})
        token = token_for(me.user, name="scrape")
        request_ids: list[str] = []
        mine = play_my_seat(server.url, token, game.public_id, 0, request_ids)
        game = Game.objects.get(pk=game.pk)
        assert game.status == GameStatus.FINISHED
        moves = Move.objects.filter(game=game)
        made = moves.count()
        bot_moves = moves.filter(submitted_by=SubmittedBy.BOT).count()
        assert mine == moves.filter(submitted_by=SubmittedBy.PLAYER).count() > 100
        assert made == mine + bot_moves  # the easy bots never fault: no system moves
        wait_for(
            lambda: not Event.objects.filter(delivered_at__isnull=True).exists(),
            30,
            "the outbox to drain",
        )

        web = httpx.get(server.url + "/metrics", headers=auth(TOKEN), timeout=10)
        assert web.status_code == 200, web.text
        work = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10)
        assert work.status_code == 200
        web_samples, work_samples = parse(web.text), parse(work.text)
        names = {n for n, _ in web_samples} | {n for n, _ in work_samples}
        missing = [n for n in NAMED if not any(s.startswith(n) for s in names)]
        assert missing == []

        # Moves counted where they were committed: the person's by the web node, the bots'
        # by the worker; together, every move of the game, once.
        counted = total(web_samples, "backalley_moves_total") + total(
            work_samples, "backalley_moves_total"
        )
        assert counted == made
        assert total(web_samples, "backalley_moves_total", submitted_by="player") == mine
        assert total(work_samples, "backalley_moves_total", submitted_by="bot") == bot_moves
        # One bot-turn latency per bot move, each well under the tests' patience.
        turns = total(work_samples, "backalley_bot_turn_latency_seconds_count", kind="hosted")
        assert turns == bot_moves
        latency = total(work_samples, "backalley_bot_turn_latency_seconds_sum", kind="hosted")
        assert 0 < latency / turns < 5
        # Request latency by route name (the moves' route saw each of the person's moves).
        posted = total(
            web_samples,
            "backalley_http_request_duration_seconds_count",
            route="games-api:game-moves",
            method="POST",
            status="201",
        )
        assert posted == mine
        # Nothing waits now; the queues are empty; the outbox has drained; a worker beats.
        assert total(web_samples, "backalley_live_waiting_clients") == 0
        assert total(web_samples, "backalley_celery_queue_length") == 0
        assert ("backalley_celery_queue_length", (("queue", "bots"),)) in web_samples
        assert web_samples[("backalley_outbox_backlog", ())] == 0
        assert web_samples[("backalley_workers_alive", ())] >= 1
        assert total(work_samples, "backalley_webhook_failures_total") == 0
        deep = httpx.get(server.url + "/healthz/?deep=1", timeout=10).json()
        assert deep["status"] == "ok", deep

        # The request id of a move is in the worker's JSON log of the bot turn it caused.
        lines = [
            json.loads(line)
            for line in worker.log_path.read_text().splitlines()
            if line.startswith("{")
        ]
        carried = {line.get("request_id") for line in lines} & set(request_ids)
        assert len(carried) >= mine // 2, (len(carried), mine)
    finally:
        worker.stop()
        purge_broker()
    # A worker stopped cleanly takes its heartbeat with it.
    assert not [name for name in health.heartbeats() if name.startswith(f"{worker.name}-")]
