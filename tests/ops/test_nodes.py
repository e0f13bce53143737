"""Several nodes (bench/nodes.py, the cluster of tests/ops/conftest.py): two uvicorn web
nodes behind HAProxy, each in a network namespace of its own where permitted (else on its
own loopback address), two Celery workers (the first runs the beat), one PostgreSQL and one
Redis, all of the test's own and each a process group of its own.

Shown here: a move posted through one node reaches the streams held on the other by the
push (the periodic check is set far beyond the bound asserted); a game of four hosted bots is
played to its end by both workers together, each turn once; rated games are rated once with
both workers racing for copies of their rating tasks (and the ladder is the one a recompute
gives); a web node killed mid-stream leaves its clients to resume on the other through the
balancer by Last-Event-ID, nothing missed and nothing twice; a worker killed mid-turn loses
nothing.
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
from tests.ops.conftest import sql
from tests.ops.nodes_world import Table, make

pytestmark = [pytest.mark.server, pytest.mark.slow, pytest.mark.timeout(600)]

PUSH_BOUND_S = 2.0  # move answered → event on the other node, p99 (loaded 2-core machine)
SHORT = ("12", "14")  # deals 12 to 14 (2, 1 and 2 cards): a short game of 32 moves


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
    # Each run of turns is one task; both workers ran some (the log shows each move once).
    assert all(any(what == "played" for _, what in turns) for turns in by_worker), by_worker
    print(
        "bot turns played by each worker: "
        + ", ".join(
            f"{w.name} {sum(1 for _, what in t if what == 'played')} runs"
            for w, t in zip(cluster.workers, by_worker, strict=True)
        )
    )


RATED = re.compile(r"ladder\.tasks\.rate_game\[[^\]]+\] succeeded in [0-9.]+s: (\d+)")


def ladder_rows(cluster: nodes.Cluster) -> dict[str, list[tuple[Any, ...]]]:
    """The ladder as it stands: ratings, records and each game's changes."""
    return {
        "players": sql(
            cluster,
            "SELECT player_id, rating, games, wins, draws, losses, trend FROM ladder_playerrating"
            " ORDER BY player_id",
        ),
        "pairs": sql(
            cluster,
            "SELECT team_id, rating, games, wins, draws, losses FROM ladder_pairrating"
            " ORDER BY team_id",
        ),
        "changes": sql(
            cluster,
            "SELECT game_id, player_id, seat, k, expected, result FROM ladder_ratingchange"
            " ORDER BY game_id, player_id",
        ),
    }


def test_rated_games_are_rated_once_with_both_workers_racing(
    cluster: nodes.Cluster, on_failure: None
) -> None:
    tables = [Table.from_json(t) for t in make(cluster.env(), "rated", "2")]
    # The two last moves at once, one through each node: each game's rating task is sent by
    # the node that finished it.
    threads = [
        threading.Thread(target=t.post_move, args=(cluster.web_url(i),))
        for i, t in enumerate(tables)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert all(t.state.is_terminal() for t in tables)
    copies = 10  # and ten more copies of each, that both workers race for
    list(make(cluster.env(), "rate", str(copies), *(str(t.pk) for t in tables)))
    expected_tasks = len(tables) * (copies + 1)

    def rated() -> list[int]:
        return [int(n) for w in cluster.workers for n in RATED.findall(w.log(None))]

    nodes.wait_until(lambda: len(rated()) >= expected_tasks, 120, "every rating task", 0.2)
    assert sum(rated()) == len(tables)  # the games rated: each once, by one task
    by_worker = [len(RATED.findall(w.log(None))) for w in cluster.workers]
    assert all(by_worker), by_worker  # both workers took some of them
    pks = [t.pk for t in tables]
    (marked,) = sql(cluster, "SELECT count(*) FROM ladder_ratedgame WHERE game_id = ANY(%s)", pks)
    assert marked[0] == len(tables)
    before = ladder_rows(cluster)
    assert [g for g, *_ in before["changes"]].count(pks[0]) == 4
    assert [g for g, *_ in before["changes"]].count(pks[1]) == 4
    recomputed = cluster.manage("recompute_ratings", "--no-progress")
    assert recomputed.returncode == 0, recomputed.stderr
    assert ladder_rows(cluster) == before  # the ladder the races left is the one replayed
    print(f"rating tasks taken by each worker: {by_worker}")


def test_a_web_node_killed_mid_stream_its_clients_resume_through_the_balancer(
    cluster: nodes.Cluster, on_failure: None
) -> None:
    (data,) = make(cluster.env(), "people", "1", "11", "15")  # 64 moves
    table = Table.from_json(data)
    # Eight streams through the balancer, two for each seat, spread over both nodes.
    streams = [Stream(cluster.url, table, i % 4).start() for i in range(8)]
    for stream in streams:
        assert stream.connected.wait(60), stream.refusals
    held = {s.served_by[0] for s in streams}
    assert held == {"web0", "web1"}, held
    cut = [s for s in streams if s.served_by[0] == "web0"]
    killed_at = None
    while not table.state.is_terminal():
        table.post_move(cluster.url)  # through the balancer, retried across the kill
        if table.state.move_count == 20:
            cluster.webs[0].kill()  # SIGKILL of its process group
            killed_at = time.monotonic()
        time.sleep(0.05)
    assert killed_at is not None
    for seat, stream in enumerate(streams):
        stream.join(120)
        # Every event of the seat's feed, in order, each once: nothing missed across the
        # reconnection and nothing repeated.
        assert stream.events == feed(cluster.url, table, seat % 4), (seat, stream.served_by)
    assert all(s.cuts >= 1 and s.served_by[-1] == "web1" for s in cut), [
        (s.cuts, s.served_by) for s in cut
    ]
    print(
        f"web0 killed at move 20: {len(cut)} of {len(streams)} streams were on it, resumed on"
        f" web1 by Last-Event-ID; {sum(s.cuts for s in streams)} reconnections in all"
    )


class HoldTurn:
    """Webhook behaviour: the bots' turn at ``seq`` is held (the first time it is asked)
    until released; every turn is answered with its first legal action."""

    def __init__(self, seq: int) -> None:
        self.seq = seq
        self.arrived = threading.Event()
        self.release = threading.Event()
        self.asked = 0

    def __call__(self, payload: dict[str, Any]) -> tuple[int, bytes, float]:
        if payload["seq"] == self.seq:
            self.asked += 1
            if self.asked == 1:
                self.arrived.set()
                self.release.wait(60)
        return 200, json.dumps({"action": payload["legal_actions"][0]}).encode(), 0.0


def test_a_worker_killed_mid_bot_turn_loses_nothing(
    cluster: nodes.Cluster, on_failure: None
) -> None:
    from tests.bots.helpers import WebhookServer

    hold = HoldTurn(seq=30)
    hooks = WebhookServer(behaviour=hold).start()  # type: ignore[arg-type]
    try:
        # Four webhook bots, deals 10 to 16 (4, 3, 2, 1, 2, 3, 4 cards): 104 moves.
        (game,) = make(cluster.env(), "webhooks", hooks.url, "10", "16")
        assert hold.arrived.wait(120), "the held turn never came"
        mark = f"play_bot_turn[bot-turn:{game['pk']}:{hold.seq}] received"
        nodes.wait_until(lambda: any(mark in w.log(None) for w in cluster.workers), 10, mark)
        victim = next(w for w in cluster.workers if mark in w.log(None))
        victim.kill()  # SIGKILL mid-turn: the task is not acknowledged
        hold.release.set()
        killed = time.monotonic()
        count = wait_finished(cluster, game["pk"], 300)
        took = time.monotonic() - killed
    finally:
        hold.release.set()
        hooks.stop()
    assert_log_whole(cluster, game["pk"], count)
    # The turn was asked again (the task returned to the queue after the visibility
    # timeout, taken by the other worker) and its move landed once.
    assert hold.asked == 2, hold.asked
    print(
        f"{victim.name} killed mid-turn at move {hold.seq}: the game finished {took:.1f} s"
        f" later at move {count}, every move once"
    )
