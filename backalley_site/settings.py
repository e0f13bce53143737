"""Settings, read from the environment (see `.env.example`).

With no environment at all the service runs on embedded defaults: SQLite for the database
and Celery's filesystem transport as a local broker, both under `var/`, DEBUG on.

``DJANGO_ENV=production`` (the Dockerfile sets it) turns DEBUG off for good, refuses to start
without its secrets and host names, and turns on HSTS, secure cookies and the HTTPS
redirect (docs/deployment.md); ``manage.py check --deploy`` is clean under it.
"""

import socket
from datetime import UTC, datetime
from pathlib import Path

import django_stubs_ext
import environ
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

# Django's generic classes (ModelAdmin[Player], UserCreationForm[User]) subscriptable at run
# time, as their type hints are written.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DJANGO_ENV = env.str("DJANGO_ENV", default="local")
if DJANGO_ENV not in ("local", "production"):
    raise ImproperlyConfigured(f"DJANGO_ENV is 'local' or 'production', not {DJANGO_ENV!r}.")
PRODUCTION = DJANGO_ENV == "production"


def _required(name: str, why: str) -> str:
    """A setting production cannot start without (no default may stand in for a secret)."""
    value: str = env.str(name, default="")
    if not value:
        raise ImproperlyConfigured(f"{name} must be set when DJANGO_ENV=production: {why}")
    return value


if PRODUCTION:
    if env.bool("DJANGO_DEBUG", default=False):
        raise ImproperlyConfigured("DJANGO_DEBUG cannot be on when DJANGO_ENV=production.")
    DEBUG = False
    SECRET_KEY = _required("DJANGO_SECRET_KEY", "50 or more random characters.")
    ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=[])
    if not ALLOWED_HOSTS or "*" in ALLOWED_HOSTS:
        raise ImproperlyConfigured(
            "DJANGO_ALLOWED_HOSTS must list the site's host names when DJANGO_ENV=production."
        )
else:
    # Local zero-setup defaults: never used by a production process (see above).
    DEBUG = env.bool("DJANGO_DEBUG", default=True)
    SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="dev-only-insecure-key-change-me")
    ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["*"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from our own static files (no CDN)
    "django_filters",
    "accounts",
    "games",
    "ladder",
    "bots",
    "clock",
    "tournaments",
    "push",
    "daylong",
    "axes",
    "backalley_site.apps.SiteConfig",  # the site's own commands: backup, restore
]

MIDDLEWARE = [
    # First: the request id (carried into tasks and logs) and each route's latency metric.
    "backalley_site.telemetry.RequestTelemetryMiddleware",
    # A view that raised because the database cannot be reached answers 503
    # database_unavailable (what a middleware raises is answered by the 500 handler).
    "backalley_site.database_faults.DatabaseUnavailableMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "backalley_site.middleware.RequestSanityMiddleware",
    "backalley_site.middleware.StaticFilesMiddleware",  # WhiteNoise, async-capable
    "backalley_site.middleware.ApiBodySizeLimitMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: a ?lang= link, else the language cookie (set by the switcher and at
    # login from the account's own), else Accept-Language (docs/i18n.md). After the
    # session, before CommonMiddleware, as Django asks; no URL carries a language prefix.
    "django.middleware.locale.LocaleMiddleware",
    "backalley_site.middleware.LanguageQueryMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: turns a locked-out login into its lockout answer.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "backalley_site.urls"
WSGI_APPLICATION = "backalley_site.wsgi.application"
ASGI_APPLICATION = "backalley_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "backalley_site.languages.languages",  # the switcher and hreflang links
                "bots.views.house_bots",  # the one-click form against house bots
            ],
            # Dates and times in the active language: |when, |day, |from_now.
            "builtins": ["backalley_site.timewords"],
        },
    },
]

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# With DEBUG off, connections are kept between requests by default (a new PostgreSQL
# connection costs several ms per request); health checks replace one the server dropped.
# In development (DEBUG on) each request opens its own, so runserver's threads never pile up.
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DB_CONN_MAX_AGE", default=0 if DEBUG else 60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# Under ASGI each sync request runs in a thread of its own, so a connection kept "per thread"
# is never reused: serve with DB_POOL=true instead (psycopg's pool, one per process, bounded),
# which needs DB_CONN_MAX_AGE=0.
if env.bool("DB_POOL", default=False) and DATABASES["default"]["ENGINE"].endswith("postgresql"):
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env.int("DB_POOL_MIN", default=2),
        "max_size": env.int("DB_POOL_MAX", default=10),
        # How long a request waits for a pooled connection before its 503
        # database_unavailable (docs/deployment.md, "Faults").
        "timeout": env.float("DB_POOL_TIMEOUT", default=5.0),
    }
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # libpq's bound on opening a connection: a database host that does not answer (gone, not
    # refusing) costs a request at most this many seconds, then a 503 database_unavailable.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
        "connect_timeout", env.int("DB_CONNECT_TIMEOUT", default=5)
    )
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # SQLite serialises writers; wait for the lock instead of failing at once.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
# django-axes first: it refuses a locked-out login before any password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
# The site's languages (docs/i18n.md): the catalogs under locale/, the rules page of each
# (templates/rules/<code>.html), the game's words as docs/glossary.md gives them.
LANGUAGES = [
    ("en", "English"),
    ("lt", "Lietuvių"),
    ("sv", "Svenska"),
    ("gu", "ગુજરાતી"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The site's own date formats per language (backalley_site/formats/<lang>/formats.py).
FORMAT_MODULE_PATH = ["backalley_site.formats"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
# The switcher's choice outlives a sign-out (a year, like Django's own default); the
# account keeps its own copy for other browsers, e-mails and notices.
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # WhiteNoise warns at start-up when it is missing
STATICFILES_DIRS = [BASE_DIR / "static"]

# Bodies larger than this are refused before any view runs.
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("DATA_UPLOAD_MAX_MEMORY_SIZE", default=64 * 1024)
# Sign-ups (site and API together) allowed per client address (DRF rate syntax).
ACCOUNTS_API_SIGNUP_RATE = env.str("ACCOUNTS_API_SIGNUP_RATE", default="20/hour")
# Login attempts on the site per client address, on top of django-axes' lockout below.
ACCOUNTS_LOGIN_RATE = env.str("ACCOUNTS_LOGIN_RATE", default="60/hour")
# Per account: downloads of its data archive, and attempts to delete it (docs/privacy.md).
ACCOUNTS_EXPORT_RATE = env.str("ACCOUNTS_EXPORT_RATE", default="10/hour")
ACCOUNTS_DELETE_RATE = env.str("ACCOUNTS_DELETE_RATE", default="5/hour")

# --- Client addresses, throttles and the shared cache ---------------------------------------
# How many proxies in front of the app append to X-Forwarded-For. 0 (the default) trusts no
# X-Forwarded-For at all: the client is REMOTE_ADDR. Behind one load balancer, set 1.
NUM_PROXIES = env.int("DJANGO_NUM_PROXIES", default=0)
# Throttle counters and lockouts must be seen by every process: Redis when CACHE_URL names
# one (docker-compose does), else Django's database cache (its table comes with `migrate`).
CACHES = {"default": env.cache("CACHE_URL", default="dbcache://django_cache")}
# django-axes: this many failed logins from one address for one username lock that pair
# out for AXES_COOLOFF_TIME hours; attempts are rows in the database every process sees.
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = env.float("AXES_COOLOFF_TIME", default=1.0)
AXES_LOCKOUT_PARAMETERS = [["ip_address", "username"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "backalley_site.clientip.client_ip"
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    # JSON that is too deep or holds text PostgreSQL cannot store is a 400 malformed_json.
    "DEFAULT_PARSER_CLASSES": [
        "backalley_site.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # Every API error leaves as {"code", "message", "extra"} (backalley_site/errors.py).
    "EXCEPTION_HANDLER": "backalley_site.exception_handler.api_exception_handler",
    # The same client address as django-axes (backalley_site/clientip.py): see NUM_PROXIES.
    "NUM_PROXIES": NUM_PROXIES,
    # Personal API tokens (Authorization: Bearer bac_...) first, then the site's session.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.BearerTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # Each view declares its scopes once (`scopes = READ`, ...): accounts/permissions.py.
    "DEFAULT_PERMISSION_CLASSES": ["accounts.permissions.DeclaredScopes"],
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Back Alley Club API",
    "DESCRIPTION": "Correspondence play, bots and the ladder.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # The docs page works offline and behind strict networks: its scripts are our static files.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Every operation lists every status it can answer, in the one error shape.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "backalley_site.api_schema.document_errors",
        "backalley_site.api_examples.add_examples",  # an example for every operation
    ],
    "ENUM_NAME_OVERRIDES": {
        "GameStatusEnum": "games.models.GameStatus",
        "SeatKindEnum": ["me", "player", "bot", "open"],
    },
}

# --- Celery -------------------------------------------------------------------------------
_CELERY_FS = VAR_DIR / "celery"
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="filesystem://")
if CELERY_BROKER_URL.startswith("filesystem://"):
    for sub in ("out", "processed", "control"):
        (_CELERY_FS / sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_CELERY_FS / "out"),
        "data_folder_out": str(_CELERY_FS / "out"),
        "data_folder_processed": str(_CELERY_FS / "processed"),
        "control_folder": str(_CELERY_FS / "control"),
    }
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = 60
CELERY_TASK_SOFT_TIME_LIMIT = 50
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {}
# --- The correspondence clock (clock/): one beat process, a static schedule, queue "clock"
# (routed below).
CELERY_BEAT_SCHEDULE.update(
    {
        "clock-sweep-deadlines": {
            "task": "clock.tasks.sweep_deadlines",
            "schedule": 60.0,
            "options": {"expires": 55},
        },
        "clock-send-reminders": {
            "task": "clock.tasks.send_reminders",
            "schedule": 300.0,
            "options": {"expires": 290},
        },
        "clock-daily-digests": {
            "task": "clock.tasks.send_daily_digests",
            "schedule": crontab(hour=7, minute=0),
        },
    }
)
# Queues are chosen here only (never at a call site). Bot turns have their own queue, so a
# burst of bot games never delays other work.
CELERY_TASK_ROUTES = {"bots.tasks.*": {"queue": "bots"}, "clock.tasks.*": {"queue": "clock"}}
# Ratings are applied one game at a time, in order, by the "ratings" queue (ladder/).
CELERY_TASK_ROUTES["ladder.tasks.*"] = {"queue": "ratings"}
# --- Domain events (games/outbox.py): every event reaches every consumer at least once.
# The committing process delivers right after commit; the relay delivers what it did not
# (a crash, a consumer that raised), from GAMES_EVENTS_RETRY_S after the commit on, backing
# off on each failed try. Queue "events", so a burst of bot turns never delays it.
CELERY_TASK_ROUTES["games.tasks.*"] = {"queue": "events"}
GAMES_EVENTS_RETRY_S = env.float("GAMES_EVENTS_RETRY_S", default=10.0)
CELERY_BEAT_SCHEDULE["games-relay-events"] = {
    "task": "games.tasks.relay_events",
    "schedule": env.float("GAMES_EVENTS_RELAY_EVERY_S", default=5.0),
    "options": {"expires": 5},
}
# Tournaments (tournaments/): a round's bookkeeping runs on the default queue; the beat
# starts events whose start time has come (every TOURNAMENTS_START_DUE_EVERY_S).
CELERY_TASK_ROUTES["tournaments.tasks.*"] = {"queue": "celery"}
TOURNAMENTS_START_DUE_EVERY_S = env.float("TOURNAMENTS_START_DUE_EVERY_S", default=60.0)
CELERY_BEAT_SCHEDULE["tournaments-start-due"] = {
    "task": "tournaments.tasks.start_due",
    "schedule": TOURNAMENTS_START_DUE_EVERY_S,
    "options": {"queue": "celery", "expires": max(1.0, TOURNAMENTS_START_DUE_EVERY_S - 5)},
}
# Daylongs (daylong/, docs/daylong.md): scoring a finished table and ending a window run on
# the default queue; the beat ends windows that have passed and makes the day's event.
CELERY_TASK_ROUTES["daylong.tasks.*"] = {"queue": "celery"}
CELERY_BEAT_SCHEDULE["daylong-close-due"] = {
    "task": "daylong.tasks.close_due",
    "schedule": 60.0,
    "options": {"queue": "celery", "expires": 55},
}
CELERY_BEAT_SCHEDULE["daylong-make-daily"] = {
    "task": "daylong.tasks.make_daily",
    "schedule": crontab(hour=0, minute=5),
    "options": {"queue": "celery"},
}
# Delivered events and the stored answers to keyed move requests (for replays of the same
# Idempotency-Key) are dropped after these windows, hourly.
GAMES_EVENTS_KEEP_DAYS = env.int("GAMES_EVENTS_KEEP_DAYS", default=7)
GAMES_MOVE_RESPONSE_KEEP_HOURS = env.int("GAMES_MOVE_RESPONSE_KEEP_HOURS", default=24)
# The service's own rules of play (docs/rules.md §10, games.autoplay): forced actions and
# settled deals are played for the seats; the settled-deal check runs with at most this many
# tricks left and this many card placements (measured in bench/correspondence.py).
GAMES_AUTOPLAY = env.bool("GAMES_AUTOPLAY", default=True)
GAMES_SETTLED_MAX_TRICKS = env.int("GAMES_SETTLED_MAX_TRICKS", default=6)
GAMES_SETTLED_BUDGET = env.int("GAMES_SETTLED_BUDGET", default=2000)
CELERY_BEAT_SCHEDULE["games-prune"] = {"task": "games.tasks.prune", "schedule": 3600.0}
# Exports of finished games (games/exports.py, docs/api.md): a record public for
# less than this many seconds is held back, so that a cursor never passes a move still
# committing.
GAMES_EXPORT_SETTLE_S = env.float("GAMES_EXPORT_SETTLE_S", default=5.0)
# Export pages per client address (each builds up to 1,000 records).
GAMES_EXPORT_RATE = env.str("GAMES_EXPORT_RATE", default="60/minute")
# The nightly dump of every public record (games/dumps.py): written by the beat's task (or
# `manage.py dump_games`) into this directory, served by GET /api/v1/dumps/; the newest
# GAMES_DUMP_KEEP are kept. With several web nodes, a directory they all see.
GAMES_DUMP_DIR = env.path("GAMES_DUMP_DIR", default=VAR_DIR / "dumps")
GAMES_DUMP_KEEP = env.int("GAMES_DUMP_KEEP", default=3)
# Its own queue entry: a dump runs for minutes and must not hold up the events queue.
CELERY_TASK_ROUTES["games.tasks.dump_games"] = {"queue": "celery"}
CELERY_BEAT_SCHEDULE["games-dump"] = {
    "task": "games.tasks.dump_games",
    "schedule": crontab(hour=4, minute=23),
    "options": {"queue": "celery", "expires": 6 * 3600},
}
if CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    # An unacknowledged task (its worker died) goes back to the queue after this long.
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=3600)
    }

# --- Bots ---------------------------------------------------------------------------------
# Operator switch: let webhook URLs reach private, loopback and link-local addresses.
BOTS_ALLOW_PRIVATE_WEBHOOKS = env.bool("BOTS_ALLOW_PRIVATE_WEBHOOKS", default=False)
BOTS_WEBHOOK_TIMEOUT_S = env.float("BOTS_WEBHOOK_TIMEOUT_S", default=3.0)
# This many faults in a row suspend a webhook bot.
BOTS_MAX_CONSECUTIVE_FAULTS = env.int("BOTS_MAX_CONSECUTIVE_FAULTS", default=5)
# A task that plays a hosted bot plays on through the game's next hosted bots for at most
# this many seconds (bots/runs.py, docs/bots.md), then hands the rest back to the queue.
BOTS_RUN_SLICE_S = env.float("BOTS_RUN_SLICE_S", default=2.0)
# A bot turn that has waited this long is asked for again by the beat (bots/stalled.py): the
# backstop for a task lost with a worker killed as it took it off the broker.
BOTS_STALLED_AFTER_S = env.float("BOTS_STALLED_AFTER_S", default=120.0)
CELERY_BEAT_SCHEDULE["bots-resume-stalled"] = {
    "task": "bots.tasks.resume_stalled_turns",
    "schedule": 60.0,
}
# Webhook secrets are derived from this key and a per-bot nonce (only the nonce is stored).
# A key of its own (not SECRET_KEY), so rotating either one leaves the other alone.
if PRODUCTION:
    BOTS_WEBHOOK_KEY = _required("BOTS_WEBHOOK_KEY", "webhook secrets are derived from it.")
    if BOTS_WEBHOOK_KEY == SECRET_KEY:
        raise ImproperlyConfigured("BOTS_WEBHOOK_KEY must differ from DJANGO_SECRET_KEY.")
else:
    BOTS_WEBHOOK_KEY = env.str("BOTS_WEBHOOK_KEY", default="dev-only-webhook-key")
# Rotating it: put the old key here; turns are signed with both (one v2= value each) until
# BOTS_WEBHOOK_PREVIOUS_KEYS_UNTIL (an ISO date-time; unset = until the old key is removed).
BOTS_WEBHOOK_PREVIOUS_KEYS = env.list("BOTS_WEBHOOK_PREVIOUS_KEYS", default=[])
BOTS_WEBHOOK_PREVIOUS_KEYS_UNTIL: datetime | None = None
if _until := env.str("BOTS_WEBHOOK_PREVIOUS_KEYS_UNTIL", default=""):
    BOTS_WEBHOOK_PREVIOUS_KEYS_UNTIL = datetime.fromisoformat(_until)
    if BOTS_WEBHOOK_PREVIOUS_KEYS_UNTIL.tzinfo is None:
        BOTS_WEBHOOK_PREVIOUS_KEYS_UNTIL = BOTS_WEBHOOK_PREVIOUS_KEYS_UNTIL.replace(tzinfo=UTC)

# --- Web Push (push/, docs/push.md) -----------------------------------------------------------
# Notices to phones and browsers with the page closed ("your move", invitations, claims, game
# over), signed with the site's VAPID key pair (RFC 8292): make one with
# `manage.py push_vapid_keys`. Off by default; locally, on without keys still sends nothing.
PUSH_ENABLED = env.bool("PUSH_ENABLED", default=False)
PUSH_VAPID_PUBLIC_KEY = env.str("PUSH_VAPID_PUBLIC_KEY", default="")
PUSH_VAPID_PRIVATE_KEY = env.str("PUSH_VAPID_PRIVATE_KEY", default="")
# Who runs the site, for the push services to reach ("mailto:..." or "https://...").
PUSH_VAPID_SUBJECT = env.str("PUSH_VAPID_SUBJECT", default="mailto:noreply@localhost")
if PRODUCTION and PUSH_ENABLED:
    for _name in ("PUSH_VAPID_PUBLIC_KEY", "PUSH_VAPID_PRIVATE_KEY"):
        _required(_name, "push is on (PUSH_ENABLED); make a pair with `manage.py push_vapid_keys`.")
    if not env.str("PUSH_VAPID_SUBJECT", default=""):
        raise ImproperlyConfigured(
            "PUSH_VAPID_SUBJECT must be set when DJANGO_ENV=production and push is on: "
            "a mailto: or https: address the push services can reach the site's operator at."
        )
# Operator switch: let subscriptions name plain-HTTP or loopback endpoints (tests only).
PUSH_ALLOW_PRIVATE_ENDPOINTS = env.bool("PUSH_ALLOW_PRIVATE_ENDPOINTS", default=False)
# Devices one person may register.
PUSH_MAX_SUBSCRIPTIONS = env.int("PUSH_MAX_SUBSCRIPTIONS", default=20)
# "Your move" waits until the seat's table page has been hidden or closed this long, and a
# turn is looked at again (its page may close later) for this long at most.
PUSH_TURN_AWAY_S = env.float("PUSH_TURN_AWAY_S", default=120.0)
PUSH_TURN_WATCH_S = env.float("PUSH_TURN_WATCH_S", default=6 * 3600.0)
# A device its push service did not answer (or answered 429/5xx) is tried again after this
# long, doubling at each try (at most 30 min, 8 tries).
PUSH_RETRY_BACKOFF_S = env.float("PUSH_RETRY_BACKOFF_S", default=30.0)
# Queue "notify": the tasks that wait on an outside service (push services, the mail server),
# consumed by a worker of their own in docker-compose.yml ("push-worker"), so a service that
# hangs holds none of the game's work.
CELERY_TASK_ROUTES["push.tasks.*"] = {"queue": "notify"}

# --- The bot arena (bots/arena/, docs/arena.md) ---------------------------------------------
# The matchmaker's tick: bench faulty bots, play lapsed API-bot turns, start new pairs.
ARENA_TICK_S = env.float("ARENA_TICK_S", default=10.0)
CELERY_BEAT_SCHEDULE["bots-arena-tick"] = {
    "task": "bots.arena.tick",
    "schedule": ARENA_TICK_S,
    "options": {"queue": "celery", "expires": ARENA_TICK_S},
}
CELERY_TASK_ROUTES["bots.arena.*"] = {"queue": "celery"}
# Pairs started per tick, and pairs playing at once over the whole arena (the workers' load).
ARENA_PAIRS_PER_TICK = env.int("ARENA_PAIRS_PER_TICK", default=8)
ARENA_MAX_PAIRS_IN_FLIGHT = env.int("ARENA_MAX_PAIRS_IN_FLIGHT", default=16)
# Opponents are ordered by rating plus a normal jitter of this many points.
ARENA_JITTER = env.float("ARENA_JITTER", default=100.0)
# Benching: at least this many faults, and this share of the turns, within the window.
ARENA_FAULT_WINDOW_S = env.float("ARENA_FAULT_WINDOW_S", default=3600.0)
ARENA_BENCH_MIN_FAULTS = env.int("ARENA_BENCH_MIN_FAULTS", default=5)
ARENA_BENCH_RATE = env.float("ARENA_BENCH_RATE", default=0.2)
ARENA_BENCH_COOLDOWN_S = env.float("ARENA_BENCH_COOLDOWN_S", default=3600.0)
# An API bot's arena turn left open this long is played by the house strategy (a timeout).
ARENA_API_TURN_S = env.float("ARENA_API_TURN_S", default=60.0)

# --- Live play: the event feed's push (games/live/, docs/live.md) --------------------------
# Where wake-ups are published and heard: Redis pub/sub when a redis:// URL is given (by
# default the broker's), else in-process only (the embedded default).
LIVE_REDIS_URL = env.str(
    "LIVE_REDIS_URL",
    default=CELERY_BROKER_URL if CELERY_BROKER_URL.startswith(("redis://", "rediss://")) else "",
)
LIVE_CHANNEL_PREFIX = env.str("LIVE_CHANNEL_PREFIX", default="backalley:live:")
# Each server process re-reads the games its clients wait on this often (one query for all),
# so a lost wake-up costs at most this much delay. Without Redis a worker's moves (bots, the
# clock) reach the web process only this way, hence the short default there.
LIVE_CHECK_INTERVAL = env.float("LIVE_CHECK_INTERVAL", default=10.0 if LIVE_REDIS_URL else 1.0)
# Open streams and long polls one token (or one signed-in user) may hold at once.
LIVE_MAX_STREAMS_PER_TOKEN = env.int("LIVE_MAX_STREAMS_PER_TOKEN", default=8)
# How long a server process may admit a returning long poll without the gate's queries
# (games/live/admissions.py). Forgotten sooner in every process when a credential changes,
# which only Redis can tell them all: without it (the embedded default), 0, never kept.
LIVE_ADMISSION_TTL = env.float("LIVE_ADMISSION_TTL", default=300.0 if LIVE_REDIS_URL else 0.0)
# Threads per server process for the feed's database reads.
LIVE_DB_THREADS = env.int("LIVE_DB_THREADS", default=8)
# Seconds between full garbage collections in each ASGI server worker (backalley_site.gcpolicy);
# 0: CPython's own schedule.
GC_FULL_INTERVAL = env.float("GC_FULL_INTERVAL", default=300.0)

# --- Play pages ---------------------------------------------------------------------------
# Seconds a table page's poll of the event feed may wait for news: 0 = short polls (an open
# page never holds a sync worker); raise it when the web server's workers can afford to wait.
GAMES_PAGE_POLL_WAIT = env.int("GAMES_PAGE_POLL_WAIT", default=0)
# How long (ms) the table page holds a finished trick on the felt before showing the next
# lead when the next card comes at once (bots answer within a second).
GAMES_TRICK_PAUSE_MS = env.int("GAMES_TRICK_PAUSE_MS", default=1500)

# --- New games and invitations (games/invitations.py, docs/invitations.md) -----------------
# An invitation holds its seat this long; unanswered, the seat opens to anyone.
GAMES_INVITATION_HOURS = env.float("GAMES_INVITATION_HOURS", default=72.0)
# Per account: games waiting for players at once (409), and games created in any hour (429).
GAMES_MAX_WAITING_PER_ACCOUNT = env.int("GAMES_MAX_WAITING_PER_ACCOUNT", default=10)
GAMES_MAX_CREATED_PER_HOUR = env.int("GAMES_MAX_CREATED_PER_HOUR", default=30)
# Per waiting game: invitations sent, answered or not (409 too_many_invitations).
GAMES_MAX_INVITATIONS_PER_GAME = env.int("GAMES_MAX_INVITATIONS_PER_GAME", default=12)
CELERY_BEAT_SCHEDULE["games-expire-invitations"] = {
    "task": "games.tasks.expire_invitations",
    "schedule": 600.0,
    "options": {"expires": 590},
}

# --- Backups (backalley_site/backups.py, docs/deployment.md) ----------------------------------
BACKUP_DIR = env.path("BACKUP_DIR", default=VAR_DIR / "backups")
BACKUP_KEEP_DAYS = env.float("BACKUP_KEEP_DAYS", default=30.0)
# Where pg_dump, pg_restore, psql and createdb are (empty: on PATH).
PG_BIN_DIR = env.str("PG_BIN_DIR", default="")

EMAIL_BACKEND = env.str("EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Back Alley Club <noreply@localhost>")
# An SMTP server that does not answer gives up the worker's thread after this long.
EMAIL_TIMEOUT = env.float("EMAIL_TIMEOUT", default=20.0)
# --- Outgoing mail (clock/mails.py, docs/deployment.md): each e-mail is a row written with
# its notice and sent after the commit by a task on queue "notify"; a mail that fails is tried
# again after MAIL_RETRY_BACKOFF_S, doubling (at most 30 min), MAIL_MAX_ATTEMPTS tries in all,
# then given up (logged). Every MAIL_SWEEP_EVERY_S the beat sends what has been due for
# MAIL_LOST_AFTER_S with no task taking it (its worker died, the broker was away), and drops
# the rows sent (or given up) MAIL_KEEP_DAYS ago.
MAIL_RETRY_BACKOFF_S = env.float("MAIL_RETRY_BACKOFF_S", default=30.0)
MAIL_MAX_ATTEMPTS = env.int("MAIL_MAX_ATTEMPTS", default=10)
MAIL_SWEEP_EVERY_S = env.float("MAIL_SWEEP_EVERY_S", default=60.0)
MAIL_LOST_AFTER_S = env.float("MAIL_LOST_AFTER_S", default=60.0)
MAIL_KEEP_DAYS = env.float("MAIL_KEEP_DAYS", default=7.0)
CELERY_TASK_ROUTES["clock.mail.*"] = {"queue": "notify"}
CELERY_BEAT_SCHEDULE["clock-mail-send-due"] = {
    "task": "clock.mail.send_due",
    "schedule": MAIL_SWEEP_EVERY_S,
    "options": {"expires": max(1.0, MAIL_SWEEP_EVERY_S - 5)},
}
CELERY_BEAT_SCHEDULE["clock-mail-prune"] = {"task": "clock.mail.prune", "schedule": 3600.0}

# --- Operations: logs, metrics, health (docs/deployment.md) ---------------------------------
# LOG_FORMAT=json: one JSON object per line (python-json-logger), each with the request id
# of the request that caused it (backalley_site/telemetry.py), in web and worker alike.
LOG_FORMAT = env.str("LOG_FORMAT", default="text")
if LOG_FORMAT not in ("text", "json"):
    raise ImproperlyConfigured(f"LOG_FORMAT is 'text' or 'json', not {LOG_FORMAT!r}.")
# One log line per answered request (backalley.request), on by default with JSON logs.
LOG_REQUESTS = env.bool("LOG_REQUESTS", default=LOG_FORMAT == "json")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"context": {"()": "backalley_site.telemetry.ContextFilter"}},
    "formatters": {
        "text": {"format": "%(message)s"},
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["context"],
            "formatter": LOG_FORMAT,
        }
    },
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}
if LOG_FORMAT == "json":
    # The worker logs through the handler above rather than Celery's own text format.
    CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# /metrics answers only to "Authorization: Bearer <METRICS_TOKEN>" (404 without one set).
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")
# Each Celery worker serves its metrics on this port (0: none), on an internal address.
METRICS_WORKER_PORT = env.int("METRICS_WORKER_PORT", default=0)
METRICS_WORKER_ADDR = env.str("METRICS_WORKER_ADDR", default="127.0.0.1")
# This node's name in health answers (Prometheus names nodes by their scrape address).
NODE_NAME = env.str("NODE_NAME", default=socket.gethostname())
# Workers' heartbeats in Redis (backalley_site/health.py): written every _EVERY_S, lapsing
# after three missed beats; /healthz/?deep=1 wants one younger than _MAX_AGE_S.
HEALTH_KEY_PREFIX = env.str(
    "HEALTH_KEY_PREFIX", default=LIVE_CHANNEL_PREFIX.removesuffix("live:") + "health:"
)
WORKER_HEARTBEAT_EVERY_S = env.float("WORKER_HEARTBEAT_EVERY_S", default=10.0)
WORKER_HEARTBEAT_MAX_AGE_S = env.float("WORKER_HEARTBEAT_MAX_AGE_S", default=30.0)
# The deep check calls the outbox lagging (degraded) past this many seconds.
HEALTH_OUTBOX_MAX_LAG_S = env.float("HEALTH_OUTBOX_MAX_LAG_S", default=60.0)
HEALTH_REDIS_TIMEOUT_S = env.float("HEALTH_REDIS_TIMEOUT_S", default=1.0)
# A process answers deep checks from its last round for this long (a balancer probing often).
HEALTH_DEEP_CACHE_S = env.float("HEALTH_DEEP_CACHE_S", default=1.0)

# --- Production: HTTPS only --------------------------------------------------------------
if PRODUCTION:
    # Behind a TLS-terminating proxy, name the header it sets (e.g. X-Forwarded-Proto) so
    # Django knows a request came over HTTPS; never set it without such a proxy in front.
    if _proxy_header := env.str("DJANGO_SECURE_PROXY_SSL_HEADER", default=""):
        SECURE_PROXY_SSL_HEADER = ("HTTP_" + _proxy_header.upper().replace("-", "_"), "https")
    SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
    # The container's own health check speaks plain HTTP on loopback.
    SECURE_REDIRECT_EXEMPT = [r"^healthz/$"]
    SECURE_HSTS_SECONDS = env.int("DJANGO_HSTS_SECONDS", default=365 * 24 * 3600)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env.bool("DJANGO_HSTS_PRELOAD", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
