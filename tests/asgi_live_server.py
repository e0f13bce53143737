"""The live test server, under ASGI: uvicorn in a thread of the test process.

pytest-django's ``live_server`` is a WSGI server, and Django buffers an async streaming
response under WSGI, so a page following a game by server-sent events would never see one.
This server runs the same ASGI application as production (plus static files from the
finders, as ``runserver`` does), on the test database, with the same interface as
pytest-django's: ``.url``, ``str()``, ``+``, ``.stop()``.

Being in-process keeps what tests rely on: the same test database and settings, eager
Celery tasks when a test asks for them, and in-process wake-ups from moves the test makes.
"""

from __future__ import annotations

import socket
import threading
import time


class AsgiLiveServer:
    def __init__(self, host: str = "127.0.0.1") -> None:
        import uvicorn
        from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
        from django.test.utils import modify_settings

        from backalley_site.asgi import application

        self.host = host
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, 0))
        self.port: int = sock.getsockname()[1]
        config = uvicorn.Config(
            ASGIStaticFilesHandler(application),
            lifespan="off",
            log_level="warning",
            loop="asyncio",
            timeout_graceful_shutdown=3,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [sock]}, name="asgi-live-server"
        )
        self.thread.daemon = True
        # Enabled and disabled around each test by pytest-django's ``_live_server_helper``.
        self._live_server_modified_settings = modify_settings(ALLOWED_HOSTS={"append": host})
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the ASGI live server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def __str__(self) -> str:
        return self.url

    def __add__(self, other: str) -> str:
        return f"{self}{other}"

    def __repr__(self) -> str:
        return f"<AsgiLiveServer listening at {self.url}>"
