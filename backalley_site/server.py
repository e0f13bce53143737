"""The ASGI server's worker class: uvicorn under gunicorn (docs/deployment.md).

uvicorn would otherwise rewrite the client address from ``X-Forwarded-For`` whenever the
connection comes from an address in ``FORWARDED_ALLOW_IPS`` (loopback by default), before
Django sees the request. Which proxies to believe is decided in one place, the Django
setting ``DJANGO_NUM_PROXIES`` (read by the throttles and the login lockout), so the server
passes the socket's own peer address through unchanged.

Each worker also applies the garbage-collection policy of :mod:`backalley_site.gcpolicy`
once the application is loaded (imported there: gunicorn's master loads this class before
Django is set up).
"""

from __future__ import annotations

from typing import Any

from uvicorn_worker import UvicornWorker


class Worker(UvicornWorker):
    CONFIG_KWARGS: dict[str, Any] = {**UvicornWorker.CONFIG_KWARGS, "proxy_headers": False}

    def load_wsgi(self) -> None:
        super().load_wsgi()
        from django.conf import settings

        from backalley_site import gcpolicy

        gcpolicy.install(settings.GC_FULL_INTERVAL)
