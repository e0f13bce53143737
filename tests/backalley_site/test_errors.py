"""Every API error leaves in one shape: {"code", "message", "extra"}."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import RequestDataTooBig
from django.test import Client

from backalley_site.errors import DomainError, NotFoundError
from backalley_site.exception_handler import api_exception_handler

pytestmark = pytest.mark.urls("tests.backalley_site.error_urls")

RAISE = "/api/test/raise"


def assert_shape(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"code", "message", "extra"}
    assert body["code"] == code
    assert isinstance(body["message"], str) and body["message"]
    assert isinstance(body["extra"], dict)
    return body


def test_domain_error_carries_code_status_message_and_extra(client: Client) -> None:
    body = assert_shape(client.get(f"{RAISE}/domain/"), 409, "name_taken")
    assert body["message"] == "That name is taken."
    assert body["extra"] == {"n": 1}


def test_any_error_with_code_message_and_http_status_is_rendered(client: Client) -> None:
    body = assert_shape(client.get(f"{RAISE}/engine/"), 400, "must_follow_suit")
    assert body["message"] == "You must follow suit: you hold hearts."
    assert body["extra"] == {"suit": "H"}


def test_domain_error_subclasses_fix_their_code_and_status() -> None:
    err = NotFoundError(message="No such game.")
    assert (err.code, err.http_status, err.message, err.extra) == (
        "not_found",
        404,
        "No such game.",
        {},
    )
    assert DomainError("x_y").message == "X y."


def test_validation_errors_list_the_fields(client: Client) -> None:
    response = client.post(
        f"{RAISE}/move/", {"expected_seq": -1, "bid": "seven"}, content_type="application/json"
    )
    body = assert_shape(response, 400, "invalid")
    fields = body["extra"]["fields"]
    assert set(fields) == {"expected_seq", "bid"}
    assert all(isinstance(m, str) for m in fields["expected_seq"] + fields["bid"])
    assert body["message"].startswith("Invalid input: expected_seq:")


def test_wrong_types_are_a_validation_error(client: Client) -> None:
    response = client.post(
        f"{RAISE}/move/", {"expected_seq": "ten", "bid": ["pass"]}, content_type="application/json"
    )
    assert_shape(response, 400, "invalid")


def test_a_non_object_body_is_a_validation_error(client: Client) -> None:
    response = client.post(f"{RAISE}/move/", [1, 2], content_type="application/json")
    body = assert_shape(response, 400, "invalid")
    assert "non_field_errors" in body["extra"]["fields"]


def test_nested_validation_errors_name_the_first_bad_field() -> None:
    from rest_framework.exceptions import ValidationError

    detail = {"seats": [{}, {"name": ["Unknown player."]}], "options": {"x": ["Bad."]}}
    response = api_exception_handler(ValidationError(detail), {})
    assert response is not None and response.status_code == 400
    assert response.data["message"] == "Invalid input: seats.1.name: Unknown player."
    assert response.data["extra"]["fields"]["seats"][1] == {"name": ["Unknown player."]}
    plain = api_exception_handler(ValidationError(["Whole body is wrong."]), {})
    assert plain is not None
    assert plain.data["message"] == "Invalid input: Whole body is wrong."
    assert plain.data["extra"] == {"errors": ["Whole body is wrong."]}


def test_malformed_json_is_refused(client: Client) -> None:
    response = client.post(f"{RAISE}/move/", '{"expected_seq": 1,', content_type="application/json")
    body = assert_shape(response, 400, "malformed_json")
    assert "JSON" in body["message"]


def test_an_unsupported_media_type_is_refused(client: Client) -> None:
    response = client.post(f"{RAISE}/move/", "expected_seq=1", content_type="text/plain")
    assert_shape(response, 415, "unsupported_media_type")


def test_a_body_over_the_limit_is_refused_before_parsing(client: Client, settings: Any) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    payload = '{"expected_seq": 1, "bid": "pass", "pad": "' + "x" * 2000 + '"}'
    body = assert_shape(
        client.post(f"{RAISE}/move/", payload, content_type="application/json"),
        413,
        "body_too_large",
    )
    assert body["extra"] == {"limit": 1000}


def test_django_body_size_errors_map_to_413() -> None:
    # Form bodies hit Django's own check (RequestDataTooBig) inside the view.
    response = api_exception_handler(RequestDataTooBig("too big"), {})
    assert response is not None and response.status_code == 413
    assert response.data["code"] == "body_too_large"


def test_too_many_form_fields_is_a_json_400(client: Client, settings: Any) -> None:
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 5
    response = client.post(
        f"{RAISE}/move/",
        "&".join(f"f{i}=1" for i in range(10)),
        content_type="application/x-www-form-urlencoded",
    )
    assert_shape(response, 400, "bad_request")


def test_not_authenticated_is_401(client: Client) -> None:
    response = client.get("/api/test/private/")
    assert_shape(response, 401, "not_authenticated")
    assert response.has_header("WWW-Authenticate")


@pytest.mark.django_db
def test_bad_credentials_are_401_authentication_failed(client: Client) -> None:
    response = client.get("/api/test/private/", HTTP_AUTHORIZATION="Basic Zm9vOmJhcg==")
    assert_shape(response, 401, "authentication_failed")


def test_permission_denied_keeps_the_permissions_message(client: Client) -> None:
    body = assert_shape(client.get("/api/test/denied/"), 403, "permission_denied")
    assert body["message"] == "Only the seat's player may do that."


def test_django_permission_denied_is_403(client: Client) -> None:
    assert_shape(client.get(f"{RAISE}/django_denied/"), 403, "permission_denied")


def test_http404_is_not_found(client: Client) -> None:
    assert_shape(client.get(f"{RAISE}/http404/"), 404, "not_found")


def test_an_unknown_api_address_is_a_json_not_found(client: Client) -> None:
    body = assert_shape(client.get("/api/test/nothing-here/"), 404, "not_found")
    assert body["extra"] == {"path": "/api/test/nothing-here/"}


def test_django_validation_error_is_invalid(client: Client) -> None:
    body = assert_shape(client.get(f"{RAISE}/django_invalid/"), 400, "invalid")
    assert body["extra"]["fields"] == {"name": ["Bad name."]}


def test_throttling_says_how_long_to_wait(client: Client) -> None:
    response = client.get("/api/test/throttled/")
    body = assert_shape(response, 429, "throttled")
    assert body["extra"] == {"wait": 7}
    assert response["Retry-After"] == "7"


def test_method_not_allowed_is_405(client: Client) -> None:
    response = client.put(f"{RAISE}/domain/")
    body = assert_shape(response, 405, "method_not_allowed")
    assert body["extra"] == {"method": "PUT"}
    assert "GET" in response["Allow"]


def test_an_unexpected_error_is_a_json_500_without_details() -> None:
    client = Client(raise_request_exception=False)
    body = assert_shape(client.get(f"{RAISE}/bug/"), 500, "server_error")
    assert "unexpected" not in body["message"]
