"""Several nodes (tests/ops/conftest.py): a tournament's rounds are started exactly once with
both workers racing.

An individual Swiss event of eight people (two tables a round) is started by the beat at its
start time, with copies of its start task sent at the same moment; each round's games are
brought to one move before their end, and their last moves are posted at once, one table
through each web node, while copies of the round's bookkeeping task are sent to the broker.
Both workers take those tasks; each round is paired once (one task says so), every game of
a round is created once, and the standings are what the games' results give.
"""

from __future__ import annotations

import re
import threading
import time

import pytest

from bench import nodes
from tests.ops.conftest import sql
from tests.ops.nodes_world import Table, make

pytestmark = [pytest.mark.server, pytest.mark.worker, pytest.mark.slow, pytest.mark.timeout(900)]

PEOPLE, ROUNDS, TABLES = 8, 3, 2
COPIES = 5  # extra copies of every start and bookkeeping task, beside the real ones
AGAIN = {"waiting", "already_done"}  # a copy that came too early or too late
OUTCOME = re.compile(
    r"tournaments\.tasks\.(start_tournament|game_finished)\[[^\]]+\] succeeded in [0-9.]+s:"
    r" '(\w+)'"
)


def outcomes(cluster: nodes.Cluster) -> list[list[tuple[str, str]]]:
    """Each worker's finished tournament tasks: (task, what it returned)."""
    return [OUTCOME.findall(w.log(None)) for w in cluster.workers]


def round_state(cluster: nodes.Cluster, event: int) -> dict[int, str]:
    rows = sql(
        cluster, "SELECT number, status FROM tournaments_round WHERE tournament_id = %s", event
    )
    return {int(n): str(status) for n, status in rows}


def test_each_round_is_started_once_with_both_workers_racing(
    cluster: nodes.Cluster, on_failure: None
) -> None:
    (made,) = make(cluster.env(), "tournament", str(PEOPLE), str(ROUNDS), "4")
    event = made["tournament"]
    # Round 1: the beat (every second) starts the event at its start time; copies of the
    # start task are sent at that moment too.
    time.sleep(max(0.0, made["starts_at"] - time.time()))
    list(make(cluster.env(), "start", str(COPIES), str(event)))
    nodes.wait_until(lambda: 1 in round_state(cluster, event), 60, "round 1", 0.2)
    finished_tasks = 0
    for number in range(1, ROUNDS + 1):
        tables = [Table.from_json(t) for t in make(cluster.env(), "round", str(event), str(number))]
        assert len(tables) == TABLES
        # The last move of each table at once, one through each node (each node's commit
        # sends the round's task), and copies of the task racing them.
        racers = [
            threading.Thread(target=t.post_move, args=(cluster.web_url(i % 2),))
            for i, t in enumerate(tables)
        ]
        pks = [str(t.pk) for t in tables]
        copies = ("finished", str(COPIES), *pks)
        racers.append(threading.Thread(target=lambda a=copies: list(make(cluster.env(), *a))))
        for r in racers:
            r.start()
        for r in racers:
            r.join(120)
        assert all(t.state.is_terminal() for t in tables)
        finished_tasks += TABLES * (1 + COPIES)
        nodes.wait_until(
            lambda n=number: round_state(cluster, event).get(n) == "finished",  # type: ignore[misc]
            120,
            f"round {number} closed",
            0.2,
        )

    def done() -> bool:
        ran = [o for w in outcomes(cluster) for o in w]
        return sum(1 for task, _ in ran if task == "game_finished") >= finished_tasks

    nodes.wait_until(done, 120, "every copy of the round's task", 0.2)
    ((status,),) = sql(cluster, "SELECT status FROM tournaments_tournament WHERE id = %s", event)
    assert status == "finished"
    by_worker = outcomes(cluster)
    ran = [o for w in by_worker for o in w]
    said = [what for _, what in ran]
    # Started once, each later round paired once, the event finished once; every other copy
    # found its work done (or its round still playing).
    assert said.count("started") == 1, ran
    assert said.count("next_round") == ROUNDS - 1, ran
    assert said.count("finished") == 1, ran
    assert set(said) <= {"started", "bad_tournament_state", "next_round", "finished", *AGAIN}, ran
    assert all(any(task == "game_finished" for task, _ in w) for w in by_worker), by_worker
    assert round_state(cluster, event) == dict.fromkeys(range(1, ROUNDS + 1), "finished")

    # Every game of a round created once: the games the entrants sat in are the tables'.
    ((tables_n, games_n, at_tables),) = sql(
        cluster,
        "SELECT (SELECT count(*) FROM tournaments_table tb JOIN tournaments_round r"
        "          ON r.id = tb.round_id WHERE r.tournament_id = %s),"
        "       (SELECT count(DISTINCT s.game_id) FROM games_seat s WHERE s.player_id IN"
        "          (SELECT player_a_id FROM tournaments_entrant WHERE tournament_id = %s)),"
        "       (SELECT count(DISTINCT tb.game_id) FROM tournaments_table tb"
        "          JOIN tournaments_round r ON r.id = tb.round_id WHERE r.tournament_id = %s)",
        event,
        event,
        event,
    )
    assert tables_n == games_n == at_tables == ROUNDS * TABLES
    ((rows, distinct),) = sql(
        cluster,
        "SELECT count(*), count(DISTINCT (res.round_id, res.entrant_id))"
        " FROM tournaments_result res JOIN tournaments_round r ON r.id = res.round_id"
        " WHERE r.tournament_id = %s",
        event,
    )
    assert rows == distinct == ROUNDS * PEOPLE

    (standings,) = make(cluster.env(), "standings", str(event))
    assert standings["standings"] == standings["games"]
    assert all(played == ROUNDS for _, played in standings["standings"].values())
    # Four half points a table (2 + 2 for a win, 1 each for a draw).
    assert sum(h for h, _ in standings["standings"].values()) == 4 * TABLES * ROUNDS
    verified = cluster.manage("verify_games")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    print(
        "tournament tasks taken by each worker: "
        + ", ".join(f"{w.name} {len(o)}" for w, o in zip(cluster.workers, by_worker, strict=True))
        + f"; of {len(ran)}, {len(ran) - ROUNDS - 1} found their work done or not yet due"
    )
