"""Faults survived (bench/chaos.py, short): PostgreSQL restarted and Redis stopped while games
are played, on a PostgreSQL and a Redis of the test's own (bench/nodes.py), never the shared
ones. Every answer a 2xx or a 503 database_unavailable, none slower than the documented
bound, no move lost or doubled, play going on after, the outbox drained, verify_games clean."""

from __future__ import annotations

import pytest

from bench import chaos, nodes
from tests.conftest import require_service

pytestmark = [pytest.mark.server, pytest.mark.timeout(240)]

POOL_TIMEOUT_S = 2.0  # DB_POOL_TIMEOUT: a request's wait for the database, then its 503


def test_play_rides_out_a_database_restart_and_a_redis_stop() -> None:
    missing = nodes.missing_tools()
    require_service(not missing, f"the fault test starts its own services: {', '.join(missing)}")
    env = {"DB_POOL_TIMEOUT": str(POOL_TIMEOUT_S), "DB_CONNECT_TIMEOUT": "2"}
    with nodes.Cluster(env=env) as cluster:
        try:
            rows = chaos.run(
                cluster,
                faults=[("postgres restart", 3.0), ("redis stop", 3.0)],
                games=3,
                settle=1.5,
            )
        except BaseException:
            print(cluster.logs())
            raise
    print(chaos.table(rows))
    restart, redis = rows
    assert set(restart.errors) == {"503 database_unavailable"}, restart
    assert redis.errors == {}, redis
    for row in rows:
        assert row.requests > 0, row
        assert row.lost == 0 and row.doubled == 0, row
        assert row.resumed_s is not None and row.resumed_s < 5, row
        assert row.slowest_s < POOL_TIMEOUT_S + 3, row  # the pool's wait, with room for load
        assert row.outbox_drained, row
        assert row.verified, row
