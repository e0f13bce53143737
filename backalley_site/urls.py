from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from accounts import views as accounts_views
from backalley_site import pwa
from backalley_site.views import healthz, home, in_english, metrics_view, privacy, rules
from bots import views as bots_views
from bots.arena import urls as arena_urls

urlpatterns = [
    path("", home, name="home"),
    path("healthz/", healthz, name="healthz"),
    path("metrics", metrics_view, name="metrics"),
    path("favicon.ico", RedirectView.as_view(url=static("favicon.svg"), permanent=True)),
    path("rules/", rules, name="rules"),
    path("privacy/", privacy, name="privacy"),
    # The installable app: its manifest, and the service worker at the root (its scope is
    # the whole site) with the page it shows offline (backalley_site/pwa.py).
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service-worker"),
    path("offline/", pwa.offline, name="offline"),
    # The language switcher (Django's set_language, remembered on the account too) and the
    # scripts' catalog (djangojs domain) in the page's language.
    path("i18n/setlang/", accounts_views.language_set, name="set_language"),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("accounts/", include("accounts.urls")),
    # One click against house bots: a bots page, at its address among the play pages.
    path("games/play-bots/", bots_views.play_bots, name="play-bots"),
    path("games/", include("games.web.urls")),
    path("admin/", admin.site.urls),
    # The schema and its docs page stay English in every language (backalley_site.views).
    path("api/schema/", in_english(SpectacularAPIView.as_view()), name="schema"),
    path(
        "api/docs/", in_english(SpectacularSwaggerView.as_view(url_name="schema")), name="api-docs"
    ),
    path("api/v1/", include("accounts.api.urls")),
    path("api/v1/", include("games.api.urls")),
    path("api/v1/bots/", include("bots.urls")),
    path("api/v1/arena/", include(arena_urls.api_urlpatterns)),
    path("arena/", include("bots.arena.urls")),
    path("api/v1/ladder/", include("ladder.api.urls")),
    path("ladder/", include("ladder.urls")),
    path("api/v1/", include("clock.api.urls")),
    path("notifications/push/", include("push.urls")),
    path("notifications/", include("clock.urls")),
    path("api/v1/tournaments/", include("tournaments.api.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("api/v1/push/", include("push.api.urls")),
    path("api/v1/daylong/", include("daylong.api.urls")),
    path("daylong/", include("daylong.urls")),
]

# JSON errors in the one shape under /api/, HTML pages elsewhere (used when DEBUG is off).
handler400 = "backalley_site.error_views.bad_request"
handler403 = "backalley_site.error_views.permission_denied"
handler404 = "backalley_site.error_views.not_found"
handler500 = "backalley_site.error_views.server_error"
