# One image for every process of the service: web (gunicorn with uvicorn workers, ASGI),
# Celery worker, Celery beat.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# GNU gettext compiles the translation catalogs below (locale/, docs/i18n.md). The
# PostgreSQL client tools of the server's major version (16, from PostgreSQL's own Debian
# repository: pg_dump refuses a newer server) for `manage.py backup` and `restore`.
ARG PG_MAJOR=16
RUN apt-get update -qq \
    && apt-get install -y -qq --no-install-recommends gettext ca-certificates curl \
    && install -d /usr/share/postgresql-common/pgdg \
    && curl -fsSL -o /usr/share/postgresql-common/pgdg/apt.postgresql.org.asc \
       https://www.postgresql.org/media/keys/ACCC4CF8.asc \
    && echo "deb [signed-by=/usr/share/postgresql-common/pgdg/apt.postgresql.org.asc] https://apt.postgresql.org/pub/repos/apt $(. /etc/os-release && echo "$VERSION_CODENAME")-pgdg main" \
       > /etc/apt/sources.list.d/pgdg.list \
    && apt-get update -qq \
    && apt-get install -y -qq --no-install-recommends "postgresql-client-${PG_MAJOR}" \
    && apt-get purge -y -qq curl && apt-get autoremove -y -qq \
    && rm -rf /var/lib/apt/lists/*

# Dependencies first (from pyproject.toml), so code changes reuse this layer; all but the
# rules engine, a package of this repository (engine/) that pip cannot find by its name
# (backalley-engine) without being given its path: it is installed next, from that path.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(d for d in tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies'] if not d.startswith('backalley-engine')))" > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt
COPY engine ./engine
RUN pip install ./engine && rm -rf engine/build

COPY . .

# Static files are collected at build time and served by WhiteNoise; the catalogs compiled.
RUN DJANGO_ENV=local python manage.py compilemessages --verbosity 0 \
    && DJANGO_ENV=local python manage.py collectstatic --noinput --verbosity 0 \
    && useradd --system --uid 10001 --home-dir /app backalley \
    && mkdir -p /app/var/dumps && chown -R backalley /app/var

# Every process of the image runs the production settings: DEBUG off, and no start without
# DJANGO_SECRET_KEY, BOTS_WEBHOOK_KEY and DJANGO_ALLOWED_HOSTS from the environment.
ENV DJANGO_ENV=production

USER backalley
EXPOSE 8000

# ASGI: sync views run in threads, the event feed's waiting clients are coroutines.
# --timeout is the worker's heartbeat, not a request limit (docs/deployment.md).
CMD ["gunicorn", "backalley_site.asgi:application", "--worker-class", "backalley_site.server.Worker", "--config", "python:backalley_site.gunicorn_conf", "--bind", "0.0.0.0:8000", "--workers", "3", "--timeout", "60", "--graceful-timeout", "15", "--keep-alive", "75", "--access-logfile", "-"]
