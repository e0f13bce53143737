"""The ASGI application: the whole site (sync views run in threads; the event feed's waits are
coroutines). Served by gunicorn with uvicorn workers, see docs/deployment.md."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backalley_site.settings")
site = get_asgi_application()  # sets Django up

from games.live.asgi import route  # noqa: E402 - needs Django set up

application = route(site)
