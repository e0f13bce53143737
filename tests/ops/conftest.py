"""The several-nodes tests' cluster (bench/nodes.py), shared by the modules that ask for it:
two uvicorn web nodes behind HAProxy, each in a network namespace of its own (``ip netns``,
joined to the host by a veth pair) where the machine permits it, else on its own loopback
address (127.0.0.2, 127.0.0.3); two Celery workers (the first runs the beat), one
PostgreSQL and one Redis, all of the tests' own. The outcome of each test's call is kept on its item, so that a fixture can tell
a failure (and print the cluster's logs for it)."""

from __future__ import annotations

from collections.abc import Generator, Iterator
from typing import Any

import pytest

from bench import nodes
from tests.conftest import require_service

WEB = ("127.0.0.2", "127.0.0.3")
# The live layer's periodic check (docs/live.md), set far beyond the push bounds asserted:
# an event that arrives within such a bound was pushed, never found by the check.
CHECK_INTERVAL_S = 30


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.when == "call":
        item.stash[CALL_FAILED] = report.failed
    return report


CALL_FAILED = pytest.StashKey[bool]()


@pytest.fixture(scope="session")
def cluster() -> Iterator[nodes.Cluster]:
    missing = nodes.missing_tools(balancer=True)
    require_service(not missing, f"the nodes test starts its own services: {', '.join(missing)}")
    env = {
        "LIVE_CHECK_INTERVAL": str(CHECK_INTERVAL_S),
        # A task whose worker was killed goes back to the queue after this long.
        "CELERY_VISIBILITY_TIMEOUT": "5",
        "BOTS_WEBHOOK_TIMEOUT_S": "10",  # a held turn outlasts the kill
        # A run of hosted bots' turns (docs/bots.md) yields after this long, so that the
        # next run's task goes to whichever worker is free: both play the game.
        "BOTS_RUN_SLICE_S": "0.05",
        # The beat looks for events due to start every second (not every minute).
        "TOURNAMENTS_START_DUE_EVERY_S": "1",
    }
    with nodes.Cluster(
        web=WEB, workers=2, balancer=True, netns=True, env=env, worker_log_level="INFO"
    ) as started:
        where = "network namespaces" if started.in_namespaces else "loopback addresses"
        print(f"web nodes on {where}: {started.web_url(0)}, {started.web_url(1)}")
        if not started.in_namespaces:
            print(f"  (no namespaces: {started.netns_why})")
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
