"""Faults survived (bench/chaos.py, short): PostgreSQL restarted and Redis stopped while games
are played, on a PostgreSQL and a Redis of the test's own (bench/nodes.py), never the shared
ones. Every answer a 2xx or a 503 database_unavailable, none slower than the documented
bound, no move lost or doubled, play going on after, the outbox drained, verify_games clean.
Then the workers stopped, the e-mail backend's disk full and the push service down
(bench/chaos_faults.py): no error at all, and what they held done once they are back."""

from __future__ import annotations

import pytest

from bench import chaos, chaos_faults, nodes
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


def test_play_never_waits_on_stopped_workers_a_full_mail_disk_or_a_push_service_down() -> None:
    missing = nodes.missing_tools()
    require_service(not missing, f"the fault test starts its own services: {', '.join(missing)}")
    extras = chaos_faults.Extras()
    try:
        more = chaos_faults.faults(extras)
        wanted = [("workers stopped", 4.0), ("mail disk full", 3.0), ("push down", 4.0)]
        with nodes.Cluster(env=extras.env()) as cluster:
            try:
                rows = chaos.run(
                    cluster,
                    faults=[f for f in wanted if f[0] in more],
                    games=3,
                    settle=1.5,
                    more=more,
                    each=2,
                )
            except BaseException:
                print(cluster.logs())
                raise
    finally:
        extras.close()
    print(chaos.table(rows))
    assert [r.fault for r in rows] == [f for f, _ in wanted if f in more]
    for row in rows:
        assert row.requests > 0, row
        assert row.errors == {}, row  # nothing on the move path waited for them, or failed
        assert row.lost == 0 and row.doubled == 0, row
        assert row.slowest_s < 3, row
        assert row.outbox_drained and row.verified, row
    notes = {r.fault: r.note for r in rows}
    assert "each once" in notes["workers stopped"], notes
    assert "all 8 arrived" in notes["push down"], notes
    if "mail disk full" in notes:
        assert "{'201': " in notes["mail disk full"] and "0 written" in notes["mail disk full"]
