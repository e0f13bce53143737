#!/usr/bin/env bash
# Runs the web server and a Celery worker (with the beat scheduler embedded) together.
# Ctrl-C stops both.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${VENV:-.venv}/bin
PORT=${PORT:-8000}

"$BIN/celery" -A backalley_site worker --beat --loglevel=INFO \
  --queues=celery,bots,ratings,clock,events --concurrency=2 \
  --schedule=var/celerybeat-schedule &
worker=$!
trap 'kill $worker 2>/dev/null; wait $worker 2>/dev/null' EXIT INT TERM

echo "Back Alley Club on http://127.0.0.1:$PORT/ (Ctrl-C to stop)"
"$BIN/python" manage.py runserver "0.0.0.0:$PORT"
