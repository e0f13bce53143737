"""The metrics endpoint, the request id and the deep health check, in the test's process
(the real worker and server processes are in test_metrics_worker.py)."""

from __future__ import annotations

import logging
import time
from typing import Any

import pytest
from django.db import OperationalError
from django.test import Client
from prometheus_client.parser import text_string_to_metric_families

from backalley_site import health, metrics, telemetry
from games.models import Event, Move
from tests.bots.worker import redis_available
from tests.factories import PlayerFactory
from tests.games.helpers import play

pytestmark = pytest.mark.django_db

TOKEN = "metrics-test-token-0123456789"


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def scrape(settings: Any) -> Any:
    settings.METRICS_TOKEN = TOKEN

    def get() -> dict[str, dict[tuple[tuple[str, str], ...], float]]:
        r = Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
        assert r.status_code == 200, r.content
        assert r["Content-Type"].startswith("text/plain")
        out: dict[str, dict[tuple[tuple[str, str], ...], float]] = {}
        for family in text_string_to_metric_families(r.content.decode()):
            for sample in family.samples:
                key = tuple(sorted(sample.labels.items()))
                out.setdefault(sample.name, {})[key] = sample.value
        return out

    return get


def _total(samples: dict[tuple[tuple[str, str], ...], float], **labels: str) -> float:
    want = set(labels.items())
    return sum(v for k, v in samples.items() if want <= set(k))


def test_metrics_are_not_there_without_the_token(settings: Any) -> None:
    settings.METRICS_TOKEN = ""
    assert Client().get("/metrics").status_code == 404
    settings.METRICS_TOKEN = TOKEN
    for header in ("", "Bearer wrong", f"Basic {TOKEN}", TOKEN):
        r = Client().get("/metrics", HTTP_AUTHORIZATION=header)
        assert r.status_code == 404 and r.json()["code"] == "not_found", header
    assert Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}").status_code == 200


def test_moves_counted_are_the_moves_made_by_whom(
    scrape: Any, django_capture_on_commit_callbacks: Any
) -> None:
    before = scrape()
    players = [PlayerFactory() for _ in range(4)]
    from games import services

    with django_capture_on_commit_callbacks(execute=True):
        game = services.game_create(creator=players[0], seats=players, options={"rated": False})
        play(game, 23)
    after = scrape()
    made = Move.objects.filter(game=game).count()
    assert made == 23
    counted = _total(after["backalley_moves_total"]) - _total(
        before.get("backalley_moves_total", {})
    )
    assert counted == made
    by_player = _total(after["backalley_moves_total"], submitted_by="player") - _total(
        before.get("backalley_moves_total", {}), submitted_by="player"
    )
    assert by_player == made
    # The outbox delivered every event at commit: nothing waits, no lag.
    assert Event.objects.filter(delivered_at__isnull=True).count() == 0
    assert after["backalley_outbox_backlog"][()] == 0
    assert after["backalley_outbox_lag_seconds"][()] == 0


def test_an_undelivered_event_shows_as_backlog_and_lag(scrape: Any) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from games import services

    players = [PlayerFactory() for _ in range(4)]
    services.game_create(creator=players[0], seats=players, options={"rated": False})
    Event.objects.update(delivered_at=None, created_at=timezone.now() - timedelta(seconds=90))
    samples = scrape()
    assert samples["backalley_outbox_backlog"][()] == Event.objects.count() >= 1
    assert 89 <= samples["backalley_outbox_lag_seconds"][()] < 120


def test_request_latency_is_labelled_by_route_not_by_path(scrape: Any) -> None:
    from games import services

    players = [PlayerFactory() for _ in range(4)]
    client = Client()
    client.force_login(players[0].user)
    for _ in range(2):
        game = services.game_create(creator=players[0], seats=players, options={"rated": False})
        assert client.get(f"/api/v1/games/{game.public_id}/").status_code == 200
    client.get("/api/v1/no/such/thing/")
    samples = scrape()["backalley_http_request_duration_seconds_count"]
    routes = {dict(k)["route"] for k in samples}
    assert not any("g_" in route for route in routes), routes  # no game id in a label
    assert {"games-api:game", "unmatched"} <= routes, routes
    assert _total(samples, route="games-api:game", method="GET", status="200") >= 2


def test_a_request_id_is_answered_and_a_plain_one_is_kept() -> None:
    r = Client().get("/healthz/")
    made = r["X-Request-ID"]
    assert len(made) == 32 and made.isalnum()
    assert Client().get("/healthz/", HTTP_X_REQUEST_ID="lb-1234.ab:9")["X-Request-ID"] == (
        "lb-1234.ab:9"
    )
    odd = Client().get("/healthz/", HTTP_X_REQUEST_ID="a b;<script>")["X-Request-ID"]
    assert odd != "a b;<script>" and len(odd) == 32


def test_a_task_enqueued_during_a_request_carries_its_id() -> None:
    headers: dict[str, Any] = {}
    token = telemetry.request_id.set("req-42")
    try:
        telemetry.on_before_task_publish(headers=headers)
    finally:
        telemetry.request_id.reset(token)
    assert headers == {"request_id": "req-42"}

    class Task:
        class request:  # noqa: N801 - the shape of Celery's task.request
            request_id = "req-42"
            id = "task-1"

        name = "t"

    telemetry.on_task_prerun(task_id="task-1", task=Task())
    assert telemetry.current_request_id() == "req-42"
    telemetry.on_task_postrun(task_id="task-1")
    assert telemetry.current_request_id() is None


def test_log_records_carry_the_request_id_as_json(settings: Any) -> None:
    import io
    import json

    from pythonjsonlogger.json import JsonFormatter

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(telemetry.ContextFilter())
    handler.setFormatter(JsonFormatter("%(levelname)s %(name)s %(message)s %(request_id)s"))
    log = logging.getLogger("backalley.test-json")
    log.addHandler(handler)
    log.propagate = False
    try:
        token = telemetry.request_id.set("req-77")
        log.warning("inside")
        telemetry.request_id.reset(token)
        log.warning("outside")
    finally:
        log.removeHandler(handler)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [(x["message"], x["request_id"]) for x in lines] == [
        ("inside", "req-77"),
        ("outside", None),
    ]


def test_each_request_is_one_log_line_with_its_id_when_asked(
    settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    settings.LOG_REQUESTS = True
    with caplog.at_level(logging.INFO, logger="backalley.request"):
        Client().get("/healthz/", HTTP_X_REQUEST_ID="line-1")
    (record,) = [r for r in caplog.records if r.name == "backalley.request"]
    assert (record.request_id, record.route, record.status) == ("line-1", "healthz", 200)  # type: ignore[attr-defined]


# --- the deep health check -------------------------------------------------------------------
@pytest.fixture
def fresh_health(settings: Any) -> Any:
    settings.HEALTH_DEEP_CACHE_S = 0
    settings.HEALTH_KEY_PREFIX = f"{settings.HEALTH_KEY_PREFIX}test-{time.time_ns()}:"
    yield settings
    if health.redis_url() and redis_available(health.redis_url()):
        client = health._client(health.redis_url())
        for key in client.scan_iter(match=settings.HEALTH_KEY_PREFIX + "*"):
            client.delete(key)


def test_the_deep_check_names_a_missing_worker_and_stays_200(fresh_health: Any) -> None:
    if not redis_available(health.redis_url()):
        pytest.skip("needs Redis")
    r = Client().get("/healthz/?deep=1")
    assert r.status_code == 200
    body = r.json()
    assert body["status"] == "degraded" and body["failed"] == ["worker"]
    assert body["checks"]["database"]["ok"] and body["checks"]["redis"]["ok"]
    health.heartbeat_write("celery@node-a")
    body = Client().get("/healthz/?deep=1").json()
    assert body["status"] == "ok" and body["checks"]["worker"]["alive"] == 1
    assert body["checks"]["outbox"] == {**body["checks"]["outbox"], "ok": True, "backlog": 0}
    # The plain check stays the container's liveness: the process and its database.
    assert Client().get("/healthz/").json() == {"status": "ok"}


def test_the_deep_check_answers_503_without_the_database(
    fresh_health: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def down() -> dict[str, Any]:
        raise OperationalError("connection refused")

    monkeypatch.setattr(health, "_database", down)
    r = Client().get("/healthz/?deep=1")
    assert r.status_code == 503
    body = r.json()
    assert body["code"] == "unhealthy" and "database" in body["extra"]["failed"]


def test_a_stale_heartbeat_is_no_worker(fresh_health: Any) -> None:
    if not redis_available(health.redis_url()):
        pytest.skip("needs Redis")
    client = health._client(health.redis_url())
    client.set(health.heartbeat_key("celery@old"), f"{time.time() - 120:.3f}", ex=60)
    body = Client().get("/healthz/?deep=1").json()
    assert body["failed"] == ["worker"] and body["checks"]["worker"]["youngest_s"] >= 119


def test_the_queues_scraped_are_every_queue_routed() -> None:
    assert set(health.celery_queues()) == {"celery", "bots", "ratings", "clock", "events", "notify"}


def test_a_scrape_collector_that_fails_is_named_and_the_rest_served(
    scrape: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken() -> list[Any]:
        raise ConnectionError("redis down")

    monkeypatch.setitem(metrics._scrapers, "celery_queues", broken)
    samples = scrape()
    assert samples["backalley_scrape_errors"][(("collector", "celery_queues"),)] == 1
    assert samples["backalley_scrape_errors"][(("collector", "outbox"),)] == 0
    assert "backalley_outbox_backlog" in samples


def test_push_failures_have_a_hook_for_the_push_app(scrape: Any) -> None:
    before = _total(scrape().get("backalley_push_failures_total", {}), reason="gone")
    metrics.push_failed("gone")
    after = _total(scrape()["backalley_push_failures_total"], reason="gone")
    assert after == before + 1


def test_the_dashboard_names_only_metrics_the_service_exports(scrape: Any) -> None:
    import json
    import re
    from pathlib import Path

    from prometheus_client import Counter, Gauge, Histogram

    dashboard = json.loads(
        (Path(__file__).resolve().parents[2] / "docs" / "grafana-dashboard.json").read_text()
    )
    exprs = [t["expr"] for p in dashboard["panels"] for t in p["targets"]]
    named = {
        re.sub(r"_(bucket|count|sum)$", "", n)
        for e in exprs
        for n in re.findall(r"backalley_\w+", e)
    }
    exported = {
        m._name + ("_total" if isinstance(m, Counter) else "")
        for m in vars(metrics).values()
        if isinstance(m, Counter | Gauge | Histogram)
    }
    scrape()  # sets the token
    text = Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}").content.decode()
    exported |= set(re.findall(r"^# TYPE (\S+)", text, re.M))  # the scrape-time families
    assert named - exported == set()
    assert len(dashboard["panels"]) >= 10
