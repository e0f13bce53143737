# The two front-door targets are `make run` and `make test`; both install what they need.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# Another apt-get (an unattended upgrade, a second install) may hold its lock: wait for it.
APT_WAIT := -o DPkg::Lock::Timeout=600
STAMP := $(VENV)/.installed

.PHONY: install run test test-fast test-engine test-kit lint typecheck bench-engine bench-api bench-bots bench-ladder bench-arena bench-daylong bench-live bench-live-nodes chaos browser haproxy gettext messages icons clean

# The rules engine is a package of its own (engine/, import name backalley_engine): it is
# installed first, editable, since pip cannot resolve the service's dependency on it from a
# relative path. The bot kit (clients/python/, import name backalley_bot) is installed
# editable too, for the tests that play a kit bot through a live server (tests/bots).
$(STAMP): pyproject.toml engine/pyproject.toml clients/python/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ./engine
	$(BIN)/pip install --quiet -e '.[dev]'
	$(BIN)/pip install --quiet --no-deps -e ./clients/python
	touch $(STAMP)

# The engine's hot modules compiled with mypyc in place (engine/src/backalley_engine/native.py);
# if the build fails the pure-Python engine runs, as it does with BACKALLEY_ENGINE=pure.
ENGINE_NATIVE := $(VENV)/.engine-native
ENGINE_SOURCES := $(wildcard engine/src/backalley_engine/*.py) scripts/build_engine.py

$(ENGINE_NATIVE): $(STAMP) $(ENGINE_SOURCES)
	@mkdir -p var
	$(BIN)/python scripts/build_engine.py > var/engine-build.log 2>&1 \
	  || echo "engine: the compiled build failed (see var/engine-build.log); the pure-Python engine runs"
	touch $@

# The translation catalogs (locale/, docs/i18n.md), compiled here on every machine: the
# compiled .mo files are build output, not kept in git.
CATALOGS := $(wildcard locale/*/LC_MESSAGES/*.po)
CATALOGS_MO := $(CATALOGS:.po=.mo)

locale/%.mo: locale/%.po | gettext
	msgfmt --check-format -o $@ $<

install: $(STAMP) $(ENGINE_NATIVE) $(CATALOGS_MO)

# GNU gettext (msgfmt compiles the catalogs; makemessages needs xgettext and msgmerge):
# Debian's package, installed where missing, as `browser` installs Chromium.
gettext:
	@command -v msgfmt >/dev/null 2>&1 && command -v xgettext >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get $(APT_WAIT) update -qq && DEBIAN_FRONTEND=noninteractive apt-get $(APT_WAIT) install -y -qq --no-install-recommends gettext >/dev/null; \
	  else sudo apt-get $(APT_WAIT) update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get $(APT_WAIT) install -y -qq --no-install-recommends gettext >/dev/null; fi; }

# New or changed strings into every catalog (untranslated until someone translates them);
# then translate them in locale/<lang>/LC_MESSAGES/*.po, following docs/glossary.md.
messages: $(STAMP) gettext
	PYTHON=$(BIN)/python bash scripts/messages.sh
	$(MAKE) --no-print-directory $(CATALOGS_MO)

# Debian's Chromium for the browser tests (Playwright cannot download its own browser here).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get $(APT_WAIT) update -qq && DEBIAN_FRONTEND=noninteractive apt-get $(APT_WAIT) install -y -qq --no-install-recommends chromium fonts-liberation >/dev/null; \
	  else sudo apt-get $(APT_WAIT) update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get $(APT_WAIT) install -y -qq --no-install-recommends chromium fonts-liberation >/dev/null; fi; }

# Debian's HAProxy, the balancer in front of the web nodes of bench/nodes.py (the several-nodes
# tests of tests/ops), installed where missing as `browser` installs Chromium.
haproxy:
	@command -v haproxy >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get $(APT_WAIT) update -qq && DEBIAN_FRONTEND=noninteractive apt-get $(APT_WAIT) install -y -qq --no-install-recommends haproxy >/dev/null; \
	  else sudo apt-get $(APT_WAIT) update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get $(APT_WAIT) install -y -qq --no-install-recommends haproxy >/dev/null; fi; }

run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	bash scripts/run-dev.sh

# The layers (import-linter contracts in pyproject.toml), ruff (lint and the formatter's
# check, ruff pinned in pyproject.toml) and mypy --strict (every app; [tool.mypy] in
# pyproject.toml) first: a wrong import, a lint, a format or a type error fails before the
# (long) test run.
test: install browser haproxy
	$(BIN)/lint-imports
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/pytest
	BACKALLEY_ENGINE=pure $(BIN)/pytest -q engine/tests tests/bots/strategies
	$(MAKE) test-engine
	$(MAKE) test-kit

# The engine alone, as a bot author gets it: its wheel installed in a venv of its own with
# pytest and hypothesis only (no Django, nothing of the service), and its tests run from
# engine/ so that the installed wheel is what they import, not the source tree.
ENGINE_VENV := var/engine-venv
ENGINE_WHEEL_STAMP := $(ENGINE_VENV)/.installed
ENGINE_PACKAGE_FILES := engine/pyproject.toml engine/README.md $(wildcard engine/src/backalley_engine/*.py)

$(ENGINE_WHEEL_STAMP): $(ENGINE_PACKAGE_FILES)
	rm -rf $(ENGINE_VENV) var/dist engine/build
	$(PYTHON) -m venv $(ENGINE_VENV)
	$(ENGINE_VENV)/bin/pip install --quiet --upgrade pip
	$(ENGINE_VENV)/bin/pip wheel --quiet --no-deps -w var/dist ./engine
	rm -rf engine/build clients/python/build
	$(ENGINE_VENV)/bin/pip install --quiet var/dist/backalley_engine-*.whl 'pytest>=8.3' 'hypothesis>=6.100'
	touch $@

test-engine: $(ENGINE_WHEEL_STAMP)
	cd engine && BACKALLEY_ENGINE_WHEEL=1 ../$(ENGINE_VENV)/bin/pytest -q tests

# The bot kit as a bot author gets it: its wheel and the engine's installed in a venv of
# their own with pytest (and httpx, the kit's one dependency from the index), its tests run
# from clients/python/ against the installed wheel.
KIT_VENV := var/kit-venv
KIT_STAMP := $(KIT_VENV)/.installed
KIT_PACKAGE_FILES := clients/python/pyproject.toml clients/python/README.md $(wildcard clients/python/src/backalley_bot/*.py)

$(KIT_STAMP): $(KIT_PACKAGE_FILES) $(ENGINE_PACKAGE_FILES)
	rm -rf $(KIT_VENV) var/kit-dist clients/python/build engine/build
	$(PYTHON) -m venv $(KIT_VENV)
	$(KIT_VENV)/bin/pip install --quiet --upgrade pip
	$(KIT_VENV)/bin/pip wheel --quiet --no-deps -w var/kit-dist ./engine ./clients/python
	rm -rf clients/python/build engine/build
	$(KIT_VENV)/bin/pip install --quiet var/kit-dist/backalley_engine-*.whl var/kit-dist/backalley_bot-*.whl 'pytest>=8.3'
	touch $@

test-kit: $(KIT_STAMP)
	cd clients/python && ../../$(KIT_VENV)/bin/pytest -q -p no:cacheprovider tests

# Everything but the browser, worker, server and whole-game tests: the suite to run often.
test-fast: install
	$(BIN)/pytest -m "not browser and not worker and not server and not slow"

lint: install
	$(BIN)/lint-imports
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: install
	$(BIN)/mypy

bench-engine: install
	$(BIN)/pip install --quiet -e '.[dev,bench]' || echo "open-spiel unavailable: benchmarking our engine alone"
	$(BIN)/python bench/engine.py

bench-api: install
	$(BIN)/python bench/api.py

bench-bots: install
	$(BIN)/python bench/bots.py

bench-ladder: install
	$(BIN)/python bench/ladder.py

bench-arena: install
	$(BIN)/python bench/arena.py

# Daylongs (bench/daylong.py): an event's scoring, standings pages and close at ENTRANTS
# entrants (1,000) with K = 4, every table played through the services in this process, then
# BOTS (20) bot entrants through one real Celery worker (needs Redis in CELERY_BROKER_URL).
bench-daylong: install
	$(BIN)/python bench/daylong.py --entrants $(or $(ENTRANTS),1000) --bots $(or $(BOTS),20)

# Waiting clients (SSE and long polls) against the compose web command; needs PostgreSQL and
# Redis in DATABASE_URL / CELERY_BROKER_URL. QUICK=1 for a short validation run.
bench-live: install
	$(BIN)/python bench/live.py $(if $(QUICK),--quick,)

# Waiting clients over two web nodes behind HAProxy (bench/live_nodes.py), on a cluster of its
# own (bench/nodes.py): spread over many games, then a broadcast to one game's spectators.
bench-live-nodes: install
	$(BIN)/python bench/live_nodes.py $(if $(QUICK),--steps 500,2000 --games 100 --broadcast 300 --window 8,)

# Faults while games are played (bench/chaos.py): PostgreSQL restarted, Redis stopped, the
# workers stopped, the e-mail backend's disk full (a tmpfs; root), the push service down, on a
# PostgreSQL, a Redis, a web node and a worker of its own (never the shared ones); prints the
# table of docs/deployment.md, "Faults". QUICK=1: Redis down 5 s instead of 60.
chaos: install
	$(BIN)/python bench/chaos.py $(if $(QUICK),--quick,)

# The installable app's icons (static/icons/*.png, kept in git) from static/favicon.svg.
icons: install
	$(BIN)/pip install --quiet -e '.[icons]'
	$(BIN)/python scripts/make_icons.py

clean:
	rm -rf var
	rm -f engine/src/backalley_engine/*.so
	rm -rf engine/build clients/python/build
	rm -f locale/*/LC_MESSAGES/*.mo
