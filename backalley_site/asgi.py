"""The ASGI application: the whole site (sync views run in threads; the event feed's waits are
coroutines). Served by gunicorn with uvicorn workers, see docs/deployment.md."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backalley_site.settings")

from backalley_site.asgi_errors import get_shaped_asgi_application  # noqa: E402

# Django's handler, answering unreadable requests under /api/ in the error shape.
site = get_shaped_asgi_application()  # sets Django up

from games.api.asgi import route  # noqa: E402 - needs Django set up

application = route(site)
