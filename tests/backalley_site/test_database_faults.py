"""The database out of reach: requests answer 503 database_unavailable in the error shape,
with Retry-After, counted; a query the database refused is no such thing."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import pytest
from django.db import InterfaceError, OperationalError, connection
from django.test import Client, RequestFactory
from psycopg import errors as pg_errors

from backalley_site import error_views, metrics
from backalley_site.database_faults import is_database_unavailable
from tests.conftest import require_service
from tests.games.conftest import client_for, make_table

pytestmark = pytest.mark.django_db(transaction=True)


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def database_gone() -> Iterator[None]:
    """Every new connection of this process refused, as while PostgreSQL restarts."""
    require_service(connection.vendor == "postgresql", "the database faults need PostgreSQL")
    saved = dict(connection.settings_dict)
    connection.close()
    connection.settings_dict.update(HOST="127.0.0.1", PORT=str(_closed_port()))
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict.update(saved)


def _unavailable() -> float:
    return metrics.DATABASE_UNAVAILABLE._value.get()  # type: ignore[attr-defined,no-any-return]


def _assert_503(response: Any) -> dict[str, Any]:
    assert response.status_code == 503, response.content
    assert response["Retry-After"] == "5"
    body: dict[str, Any] = response.json()
    assert body["code"] == "database_unavailable"
    assert "database" in body["message"]
    assert body["extra"] == {"retry_after": 5}
    return body


def test_an_api_read_without_the_database_answers_503_database_unavailable() -> None:
    table = make_table()
    before = _unavailable()
    with database_gone():
        _assert_503(table.clients[0].get(f"/api/v1/games/{table.game_id}/"))
    assert _unavailable() == before + 1
    assert table.clients[0].get(f"/api/v1/games/{table.game_id}/").status_code == 200


def test_a_move_without_the_database_answers_503_and_commits_nothing() -> None:
    table = make_table()
    game = table.game
    seat = game.to_act
    assert seat is not None
    with database_gone():
        r = table.clients[seat].post(
            f"/api/v1/games/{table.game_id}/moves/",
            {"action": {"bid": "pass"}, "expected_seq": game.move_count},
            format="json",
        )
        _assert_503(r)
    game.refresh_from_db()
    assert game.move_count == 0


def test_a_page_without_the_database_answers_a_503_page() -> None:
    client = Client(raise_request_exception=False)
    client.force_login(make_table().players[0].user)
    with database_gone():
        r = client.get("/")
    assert r.status_code == 503
    assert r["Retry-After"] == "5"
    assert r["Content-Type"].startswith("text/html")
    assert b"database" in r.content


def test_the_message_is_in_the_request_language() -> None:
    table = make_table()
    client = client_for(table.players[0].user)
    with database_gone():
        r = client.get(f"/api/v1/games/{table.game_id}/", HTTP_ACCEPT_LANGUAGE="sv")
    assert r.status_code == 503
    assert r.json()["code"] == "database_unavailable"
    assert not r.json()["message"].startswith("The service")


def _wrapped(cause: Exception, kind: type[Exception] = OperationalError) -> Exception:
    try:
        raise kind(str(cause)) from cause
    except Exception as exc:
        return exc


def test_only_a_lost_or_refused_connection_counts_as_the_database_unavailable() -> None:
    assert is_database_unavailable(_wrapped(psycopg.OperationalError("connection refused")))
    assert is_database_unavailable(_wrapped(pg_errors.AdminShutdown("terminating")))
    assert is_database_unavailable(_wrapped(pg_errors.CannotConnectNow("starting up")))
    assert is_database_unavailable(_wrapped(pg_errors.ConnectionFailure("gone")))
    assert is_database_unavailable(InterfaceError("connection already closed"))
    # The database answered: the request's own fault (a 500, or a retry by the service).
    assert not is_database_unavailable(_wrapped(pg_errors.SerializationFailure("retry")))
    assert not is_database_unavailable(_wrapped(pg_errors.DeadlockDetected("deadlock")))
    assert not is_database_unavailable(_wrapped(pg_errors.QueryCanceled("timeout")))
    assert not is_database_unavailable(OperationalError("database is locked"))  # SQLite's


def test_the_500_handler_answers_503_for_the_database_and_500_for_the_rest() -> None:
    # What a middleware raises (a session saved after the view, say) reaches Django's 500
    # handler, called inside the except that caught it.
    request = RequestFactory().get("/api/v1/games/")
    try:
        raise _wrapped(psycopg.OperationalError("server closed the connection unexpectedly"))
    except OperationalError:
        assert error_views.server_error(request).status_code == 503
    try:
        raise _wrapped(pg_errors.SerializationFailure("could not serialize"))
    except OperationalError:
        assert error_views.server_error(request).status_code == 500
