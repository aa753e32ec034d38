# Card Table Companion. `make run` serves the app; `make test` runs every test.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 5000
TRANSLATIONS := companion/translations

.PHONY: run dev test test-sqlite test-pg bench load guards mutants system-deps translations messages screenshot clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip 2>&1 | grep -v 'WARNING: Location' || true

$(VENV)/.runtime: requirements.txt | $(BIN)/python
	$(BIN)/pip install -q -r requirements.txt 2>&1 | grep -v 'WARNING: Location' || true
	$(BIN)/python -c "import flask, flask_sqlalchemy, flask_babel, flask_wtf, flask_migrate, flask_smorest"
	touch $@

$(VENV)/.dev: requirements-dev.txt $(VENV)/.runtime
	$(BIN)/pip install -q -r requirements-dev.txt 2>&1 | grep -v 'WARNING: Location' || true
	$(BIN)/python -c "import pytest, hypothesis, playwright, schemathesis"
	touch $@

# Compiled catalogs are build products, made from the committed .po files. Fuzzy entries are
# left out (English shows instead), so a half-updated translation never reaches a player.
translations: $(VENV)/.runtime
	@if ls $(TRANSLATIONS)/*/LC_MESSAGES/messages.po >/dev/null 2>&1; then \
	  $(BIN)/pybabel -q compile -d $(TRANSLATIONS); fi

# Re-extract the strings and update every catalog (developers only).
messages: $(VENV)/.runtime
	$(BIN)/pybabel extract -F babel.cfg -k _l -k N_ -k NP_:1,2 --no-location --sort-output -o $(TRANSLATIONS)/messages.pot .
	$(BIN)/pybabel update --ignore-obsolete -i $(TRANSLATIONS)/messages.pot -d $(TRANSLATIONS)

# gunicorn (scripts/gunicorn_conf.py: workers and threads for SQLite, a one-line access log);
# first the address with its QR code, then the migrations in one line.
run: $(VENV)/.runtime translations
	@$(BIN)/python scripts/show_address.py --migrate $(PORT)
	@PORT=$(PORT) exec $(BIN)/gunicorn -c scripts/gunicorn_conf.py app:app

# For developers: Flask's server with the reloader (no debugger: the port is open to the network).
dev: $(VENV)/.runtime translations
	$(BIN)/flask --app app db upgrade
	$(BIN)/flask --app app run --reload --host 0.0.0.0 --port $(PORT)

# Chromium (browser tests) and PostgreSQL (the PG run) from Debian, when we may install them.
system-deps:
	@bash scripts/system_deps.sh

# The suite runs in parallel (pytest-xdist, JOBS workers, default one per core; JOBS=0 runs it in
# one process). Every worker has its own temporary folder, SQLite file and PostgreSQL database, and
# every server binds a free port; a file's tests stay on one worker (module fixtures are made once),
# the longest files start first (tests/conftest.py: FIRST, SPREAD). Tests that stop the PostgreSQL
# server itself (marked serial) run alone after the parallel run (only their files are collected). The PostgreSQL run leaves out the
# tests marked any_database (tests/conftest.py ANY_DATABASE: nothing in them depends on the database) and
# fuzzes 3,000 requests (the SQLite run's fuzz keeps its full size, 10,000) unless FUZZ_REQUESTS is set. Each run prints its ten slowest tests and its wall time; make test
# ends with the ten slowest of both runs and the total.
JOBS   ?= auto
PYTEST := $(BIN)/python -m pytest -q --durations=10 -n $(JOBS) --dist loadfile
DURATIONS := .test-durations

test: system-deps $(VENV)/.dev translations guards
	@rm -f $(DURATIONS); start=$$(date +%s); \
	  TEST_DURATIONS=$(CURDIR)/$(DURATIONS) $(MAKE) --no-print-directory test-sqlite \
	  && TEST_DURATIONS=$(CURDIR)/$(DURATIONS) $(MAKE) --no-print-directory test-pg; rc=$$?; \
	  echo "The ten slowest tests of make test (SQLite and PostgreSQL runs):"; sort -rn $(DURATIONS) | head -10; \
	  echo "make test: $$(( $$(date +%s) - start )) s, load average: $$(cut -d' ' -f1-3 /proc/loadavg)"; exit $$rc

# html-validate (tests/web/test_html_validate.py), pinned in package-lock.json; skipped without npm.
node_modules/.bin/html-validate: package.json package-lock.json
	@if command -v npm >/dev/null; then npm ci --no-audit --no-fund --loglevel=error && touch $@; \
	  else echo "npm not found: the html-validate test is skipped (CI fails)"; fi

test-sqlite: $(VENV)/.dev translations node_modules/.bin/html-validate
	@start=$$(date +%s); $(PYTEST) || exit $$?; \
	  echo "SQLite run (with the browser tests): $$(( $$(date +%s) - start )) s, load average: $$(cut -d' ' -f1-3 /proc/loadavg)"

# Guards that keep the house tidy: lint, the layer contracts (.importlinter) and a complexity
# gate on the engine (no function worse than radon grade C).
guards: $(VENV)/.dev
	$(BIN)/ruff check --quiet .
	$(BIN)/lint-imports --no-cache
	$(BIN)/python scripts/import_cycles.py companion
	@out="$$($(BIN)/radon cc --min D --show-complexity companion/engine)"; \
	  if [ -n "$$out" ]; then echo "Engine functions worse than radon grade C:"; echo "$$out"; exit 1; \
	  else echo "Complexity gate: every engine function is grade C or better."; fi

# Mutation testing of the engine's settle and combos modules (slow; reports survivors).
mutants: $(VENV)/.dev
	rm -rf mutants
	$(BIN)/mutmut run --max-children 2 || true
	$(BIN)/mutmut results

# The database-backed tests again, on a throwaway PostgreSQL cluster.
test-pg: $(VENV)/.dev translations node_modules/.bin/html-validate
	@start=$$(date +%s); bash scripts/with_pg.sh sh -c 'FUZZ_REQUESTS=$${FUZZ_REQUESTS:-3000} $(PYTEST) -m "db and not serial and not any_database" -p no:playwright tests \
	  && $(BIN)/python -m pytest -q -m "db and serial" -p no:playwright $$(grep -rl "pytest.mark.serial" tests --include="test_*.py")' || exit $$?; \
	  echo "PostgreSQL run: $$(( $$(date +%s) - start )) s, load average: $$(cut -d' ' -f1-3 /proc/loadavg)"

bench: $(VENV)/.dev translations
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/answers.py
	$(BIN)/python bench/review.py
	@if [ -f bench/web.py ]; then $(BIN)/python bench/web.py; fi
	$(BIN)/python bench/request_path.py

# Capacity: how many tables one small server holds during an evening (bench/load.py, the mix in
# bench/evening.lua: per table-minute 80 live polls with the ETag, 4 table pages, 1 hand through
# the API; wrk -t8 -c8, closed loop, gunicorn -w 2 --threads 4 on loopback). The ceiling (N_app,
# N_hello under the same gunicorn, their ratio) and the steps 25, 50, 100 … tables until p99 > 200 ms
# or an error; medians of 3 with min and max, the load average and the CPU of client, server and
# database. SQLite and, when installed, PostgreSQL with fsync on. LOAD_TINY=1: a seconds-long run.
# bench/profile_mix.py: where the mix's time goes (py-spy, by route and part).
load: $(VENV)/.dev translations
	@bash scripts/system_deps.sh wrk
	@if ls -d /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
	  PG_DURABLE=1 bash scripts/with_pg.sh $(BIN)/python bench/load.py; \
	else echo "PostgreSQL is not installed: SQLite only"; $(BIN)/python bench/load.py; fi

# The README's pictures (docs/img/table-*.png): the table page at 390×844 in en, zh and ar, drawn
# again from a demo table by Playwright and Debian's Chromium. Run it when the table page changes.
screenshot: $(VENV)/.dev translations
	@bash scripts/system_deps.sh chromium fonts-noto-cjk
	$(BIN)/python scripts/screenshot_readme.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
