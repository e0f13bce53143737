"""The site's URLs plus a trivial authenticated DRF endpoint, the benchmark's baseline.

``GET /api/v1/me/`` is not trivial (it looks up the player and its bots and serialises a
token), so the baseline is this ping: the same middleware, Bearer authentication (one token
look-up) and JSON rendering as every API view, and no other work.
"""

from __future__ import annotations

from django.urls import path
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.permissions import READ
from backalley_site import urls as site_urls
from bench.api_prep import PING_PATH


class PingView(APIView):
    scopes = READ

    def get(self, request: Request) -> Response:
        return Response({"ok": True, "user": request.user.pk})


urlpatterns = [path(PING_PATH.lstrip("/"), PingView.as_view()), *site_urls.urlpatterns]
handler400 = site_urls.handler400
handler404 = site_urls.handler404
handler500 = site_urls.handler500
