#!/usr/bin/env bash
# Runs the web server and a Celery worker (with the beat scheduler embedded) together, on the
# embedded defaults (SQLite, the filesystem broker). Ctrl-C stops both. The one worker takes
# every queue, "notify" (pushes, e-mails) too, which docker-compose gives a worker of its own.
# The web server is the production one (gunicorn with a uvicorn worker, ASGI), one process
# reloading on code changes. Without Redis, moves the worker makes (bots, the clock) reach
# waiting clients by the server's periodic check, every LIVE_CHECK_INTERVAL (1 s) seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${VENV:-.venv}/bin
PORT=${PORT:-8000}

"$BIN/celery" -A backalley_site worker --beat --loglevel=INFO \
  --queues=celery,bots,ratings,clock,events,notify --concurrency=2 \
  --schedule=var/celerybeat-schedule &
worker=$!
trap 'kill $worker 2>/dev/null; wait $worker 2>/dev/null' EXIT INT TERM

echo "Back Alley Club on http://127.0.0.1:$PORT/ (Ctrl-C to stop)"
"$BIN/gunicorn" backalley_site.asgi:application --worker-class backalley_site.server.Worker \
  --bind "0.0.0.0:$PORT" --workers 1 --reload --graceful-timeout 3 --access-logfile -
