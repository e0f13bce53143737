"""The schema tells the truth (issue 12, finding 10): schemathesis generates requests for
every operation of /api/schema/ and sends them, with a token holding every scope, to the
WSGI application in-process. Every answer must be no server error, a status the operation
documents, and a body that matches the documented schema.

A budgeted run (``SCHEMATHESIS_MAX_EXAMPLES`` examples per operation, 5 by default: 54
operations in 5 min 10 s on 2 cores shared with a load average near 20, far less on an idle
machine), marked ``server`` like the other long runs.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    response_schema_conformance,
    status_code_conformance,
)

from backalley_site.wsgi import application
from tests.factories import ApiTokenFactory, PlayerFactory

schema = schemathesis.openapi.from_wsgi("/api/schema/", application)
MAX_EXAMPLES = int(os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", "5"))
CHECKS = [not_a_server_error, status_code_conformance, response_schema_conformance]


@pytest.fixture
def token(db: Any) -> Iterator[str]:
    # As Django's test client does: the WSGI handler must not close the test's connection
    # (and its transaction) at the end of each request.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    me = PlayerFactory()
    try:
        yield ApiTokenFactory(user=me.user, scopes=["read", "play", "bot"]).secret
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.mark.server
@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_answers_as_documented(case: Any, token: str) -> None:
    response = case.call(headers={"Authorization": f"Bearer {token}"})
    case.validate_response(response, checks=CHECKS)
