"""Settings for bench/api.py: the project's own, with one extra URL (see bench/api_urls.py)."""

from backalley_site.settings import *  # noqa: F403

ROOT_URLCONF = "bench.api_urls"
