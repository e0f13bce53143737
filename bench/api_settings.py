"""Settings for bench/api.py: the project's own, with one extra URL (see bench/api_urls.py)
and a header giving each request's time inside Django (bench/api_middleware.py)."""

from backalley_site.settings import *  # noqa: F403
from backalley_site.settings import MIDDLEWARE

ROOT_URLCONF = "bench.api_urls"
MIDDLEWARE = ["bench.api_middleware.ServerTimingMiddleware", *MIDDLEWARE]
