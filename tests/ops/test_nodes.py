"""Several nodes (bench/nodes.py): two uvicorn web nodes on their own loopback addresses
(127.0.0.2, 127.0.0.3) behind HAProxy, two Celery workers (the first runs the beat), one
PostgreSQL and one Redis, all of the test's own and each a process group of its own.

Shown here: a move posted through one node reaches the streams held on the other by the
push (the periodic check is set far beyond the bound asserted); a game of four hosted bots is
played to its end by both workers together, each turn once.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from bench import nodes
from tests.conftest import require_service
from tests.ops.conftest import CALL_FAILED
from tests.ops.nodes_world import Table, make

pytestmark = [pytest.mark.server, pytest.mark.slow, pytest.mark.timeout(600)]

WEB = ("127.0.0.2", "127.0.0.3")
# The live layer's periodic check (docs/live.md), set far beyond the push bound asserted
# below: an event that arrives within that bound was pushed, never found by the check.
CHECK_INTERVAL_S = 30
PUSH_BOUND_S = 2.0  # move answered → event on the other node, p99 (loaded 2-core machine)
SHORT = ("12", "14")  # deals 12 to 14 (2, 1 and 2 cards): a short game of 32 moves


@pytest.fixture(scope="module")
def cluster() -> Iterator[nodes.Cluster]:
    missing = nodes.missing_tools(balancer=True)
    require_service(not missing, f"the nodes test starts its own services: {', '.join(missing)}")
    env = {
        "LIVE_CHECK_INTERVAL": str(CHECK_INTERVAL_S),
        # A task whose worker was killed goes back to the queue after this long.
        "CELERY_VISIBILITY_TIMEOUT": "5",
    }
    with nodes.Cluster(
        web=WEB, workers=2, balancer=True, env=env, worker_log_level="INFO"
    ) as started:
        for worker in started.workers:  # both consuming before any game begins
            nodes.wait_until(lambda w=worker: " ready." in w.log(None), 120, worker.name)  # type: ignore[misc]
        yield started


@pytest.fixture
def on_failure(cluster: nodes.Cluster, request: pytest.FixtureRequest) -> Iterator[None]:
    """The cluster's logs printed when a test fails, and every node up again after it."""
    yield
    if request.node.stash.get(CALL_FAILED, False):
        print(cluster.logs())
    cluster.revive()


def sql(cluster: nodes.Cluster, query: str, *args: Any) -> list[tuple[Any, ...]]:
    import psycopg

    with psycopg.connect(cluster.postgres.url(), connect_timeout=10) as conn:
        return list(conn.execute(query, args).fetchall())


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


class Stream:
    """A client following one seat's SSE stream as a browser's EventSource does: when the
    connection is cut it connects again to the same URL, sending ``Last-Event-ID``, until the
    game's end has arrived and the server closed the stream."""

    def __init__(self, base_url: str, table: Table, seat: int) -> None:
        self.url = f"{base_url}/api/v1/games/{table.id}/events/stream/?timeout=900"
        self.token = table.tokens[seat]
        self.events: list[dict[str, Any]] = []
        self.arrived: dict[int, float] = {}  # seq → when its first event arrived
        self.last_id: str | None = None
        self.served_by: list[str] = []  # the web node of each connection (HAProxy's header)
        self.cuts = 0
        self.refusals: list[str] = []
        self.connected = threading.Event()
        self.ended = False
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> Stream:
        self.thread.start()
        return self

    def _run(self) -> None:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            headers = {"Authorization": f"Bearer {self.token}", "Accept": "text/event-stream"}
            if self.last_id is not None:
                headers["Last-Event-ID"] = self.last_id
            try:
                with httpx.stream(
                    "GET", self.url, headers=headers, timeout=httpx.Timeout(10, read=60)
                ) as r:
                    if r.status_code != 200:
                        self.refusals.append(f"{r.status_code} {r.read()[:200]!r}")
                        time.sleep(0.3)
                        continue
                    self.served_by.append(r.headers.get("x-served-by", "?"))
                    self.connected.set()
                    self._read(r.iter_lines())
                if any(ev["type"] == "game_end" for ev in self.events):
                    self.ended = True
                    return
            except httpx.TransportError:
                pass
            self.cuts += 1
            time.sleep(0.1)

    def _read(self, lines: Iterator[str]) -> None:
        block: dict[str, str] = {}
        for line in lines:
            if line:
                if not line.startswith(":"):
                    name, _, value = line.partition(": ")
                    block[name] = value
                continue
            if "data" in block:
                event = json.loads(block["data"])
                self.arrived.setdefault(event["seq"], time.monotonic())
                self.events.append(event)
                self.last_id = block.get("id", self.last_id)
            block = {}

    def join(self, timeout: float) -> None:
        self.thread.join(timeout)
        assert self.ended, f"stream not ended: {self.cuts} cuts, refusals {self.refusals[:3]}"


def feed(base_url: str, table: Table, seat: int) -> list[dict[str, Any]]:
    """The seat's whole feed, read once at the end: what a stream should have brought."""
    r = httpx.get(
        f"{base_url}/api/v1/games/{table.id}/events/?wait=0",
        headers={"Authorization": f"Bearer {table.tokens[seat]}"},
        timeout=30,
    )
    assert r.status_code == 200, r.text
    events: list[dict[str, Any]] = r.json()["events"]
    return events


def test_moves_posted_through_one_node_reach_the_streams_held_on_the_other(
    cluster: nodes.Cluster, on_failure: None
) -> None:
    tables = [Table.from_json(t) for t in make(cluster.env(), "people", "2", *SHORT)]
    # The first game is followed on the second node and played through the first; the
    # second game the other way round.
    plans = [(tables[0], 1, 0), (tables[1], 0, 1)]
    streams = {
        t.pk: [Stream(cluster.web_url(held), t, seat).start() for seat in range(4)]
        for t, held, _ in plans
    }
    for stream in (s for group in streams.values() for s in group):
        assert stream.connected.wait(60), stream.refusals
    answered: dict[int, dict[int, float]] = {t.pk: {} for t in tables}
    while any(not t.state.is_terminal() for t, _, _ in plans):
        for table, _, mover in plans:
            if not table.state.is_terminal():
                seq = table.state.move_count + 1
                answered[table.pk][seq] = table.post_move(cluster.web_url(mover))
        time.sleep(0.05)
    latencies: list[float] = []
    for table, held, _ in plans:
        for seat, stream in enumerate(streams[table.pk]):
            stream.join(60)
            assert stream.events == feed(cluster.web_url(held), table, seat)
            assert set(answered[table.pk]) <= set(stream.arrived)
            latencies += [
                max(0.0, stream.arrived[seq] - at) for seq, at in answered[table.pk].items()
            ]
    p50, p99 = pct(latencies, 0.5), pct(latencies, 0.99)
    print(
        f"move → event on the other node: {len(latencies)} deliveries, p50 {p50 * 1000:.1f} ms,"
        f" p99 {p99 * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms"
    )
    assert p99 < PUSH_BOUND_S, latencies


TURN = re.compile(r"play_bot_turn\[bot-turn:(\d+):(\d+)\] succeeded in [0-9.]+s: '(\w+)'")


def bot_turns(worker: nodes.Node, game_pk: int) -> list[tuple[int, str]]:
    """The bot turns of a game that this worker's log shows done: (seq, what happened)."""
    return [
        (int(seq), outcome)
        for pk, seq, outcome in TURN.findall(worker.log(None))
        if int(pk) == game_pk
    ]


def wait_finished(cluster: nodes.Cluster, game_pk: int, timeout: float) -> int:
    """The game's move count once it is finished (or fail after ``timeout``)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ((status, count),) = sql(
            cluster, "SELECT status, move_count FROM games_game WHERE id = %s", game_pk
        )
        if status == "finished":
            return int(count)
        time.sleep(0.5)
    raise AssertionError(f"game {game_pk} not finished in {timeout:g} s (at move {count})")


def assert_log_whole(cluster: nodes.Cluster, game_pk: int, count: int) -> None:
    """Moves 1..count, each once, all played by the bots; and verify_games clean."""
    rows = sql(
        cluster,
        "SELECT seq, submitted_by FROM games_move WHERE game_id = %s ORDER BY seq",
        game_pk,
    )
    assert [seq for seq, _ in rows] == list(range(1, count + 1))
    assert {by for _, by in rows} == {"bot"}
    verified = cluster.manage("verify_games")
    assert verified.returncode == 0, verified.stdout + verified.stderr


def test_a_game_of_four_hosted_bots_is_played_to_the_end_by_both_workers(
    cluster: nodes.Cluster, on_failure: None
) -> None:
    (game,) = make(cluster.env(), "bots", "11", "15")  # 3, 2, 1, 2, 3 cards: 64 moves
    count = wait_finished(cluster, game["pk"], 300)
    assert_log_whole(cluster, game["pk"], count)
    by_worker = [bot_turns(w, game["pk"]) for w in cluster.workers]
    played = sorted(seq for turns in by_worker for seq, what in turns if what == "played")
    assert played == list(range(count)), by_worker  # each turn (its expected seq) once
    assert all(any(what == "played" for _, what in turns) for turns in by_worker), [
        len(turns) for turns in by_worker
    ]
    print(
        "bot turns played by each worker: "
        + ", ".join(
            f"{w.name} {sum(1 for _, what in t if what == 'played')}"
            for w, t in zip(cluster.workers, by_worker, strict=True)
        )
    )
