"""Django's 404/500 handlers: JSON in the one error shape under /api/, HTML pages elsewhere."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.views import defaults

from backalley_site.database_faults import answer_for_current_exception
from backalley_site.errors import error_body


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return JsonResponse(
            error_body("not_found", "There is nothing at this address.", {"path": request.path}),
            status=404,
        )
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    # What a middleware (or the event feed's handler) raised because the database is gone:
    # a 503 database_unavailable, as a view's would be (backalley_site.database_faults).
    unavailable = answer_for_current_exception(request)
    if unavailable is not None:
        return unavailable
    if _is_api(request):
        return JsonResponse(
            error_body("server_error", "Something went wrong on our side; it has been logged."),
            status=500,
        )
    return defaults.server_error(request)


def bad_request(
    request: HttpRequest,
    exception: Exception | None = None,
    *,
    message: str = "The request could not be read.",
) -> HttpResponse:
    if _is_api(request):
        return JsonResponse(error_body("bad_request", message), status=400)
    if exception is None:
        # Called by a middleware, not by Django's handler400: the same page, status 400.
        return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return JsonResponse(
            error_body("permission_denied", "You may not do this here."), status=403
        )
    return defaults.permission_denied(request, exception)  # type: ignore[arg-type]
