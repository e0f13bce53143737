# The two front-door targets are `make run` and `make test`; both install what they need.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run test test-fast lint typecheck bench-engine bench-api bench-bots bench-ladder bench-arena browser clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# Debian's Chromium for the browser tests (Playwright cannot download its own browser here).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-liberation >/dev/null; \
	  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-liberation >/dev/null; fi; }

run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	bash scripts/run-dev.sh

test: install browser
	$(BIN)/pytest

test-fast: install
	$(BIN)/pytest -m "not browser and not worker and not server"

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: install
	$(BIN)/mypy games/engine

bench-engine: install
	$(BIN)/pip install --quiet '.[bench]' || echo "open-spiel unavailable: benchmarking our engine alone"
	$(BIN)/python bench/engine.py

bench-api: install
	$(BIN)/python bench/api.py

bench-bots: install
	$(BIN)/python bench/bots.py

bench-ladder: install
	$(BIN)/python bench/ladder.py

bench-arena: install
	$(BIN)/python bench/arena.py

clean:
	rm -rf var
