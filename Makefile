# Kanagame: two commands for a newcomer (see README.md).
#   make run    venv + install + migrate + fixtures + demo data, then serve on 127.0.0.1:8000
#   make test   venv + install, then the suite on the embedded default (SQLite, eager Celery),
#               on every core (pytest-xdist), without the few `slow` property tests; the
#               browser tests on two more processes beside the others (tests/run_fast.py)
#   make test-slow   those slow tests (CI runs them: .ci/run)
#   make journeys  the four users' whole journeys in Chromium (tests/journeys/, marker 'journey')
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000
LANGS := -l fr -l ja
MESSAGE_IGNORES := --ignore=tests --ignore=bench --ignore=staticfiles --ignore='*.egg-info' \
	--ignore='tmp*'

.PHONY: run test test-slow journeys install lint bench messages clean
# test processes for `make test` (pytest-xdist): one per core by default
TEST_WORKERS ?= auto

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else \
		"Kanagame needs Python 3.11 or newer (found %s); run: make PYTHON=python3.12 ..." \
		% sys.version.split()[0])'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py loaddata fixtures/kana.json
	$(BIN)/python manage.py seed_demo --url http://$(HOST):$(PORT)/
	@echo "Serving on http://$(HOST):$(PORT)/ (Ctrl+C to stop). Demo logins are printed above."
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

# Bytecode caches on, whatever the shell says (PYTHONDONTWRITEBYTECODE=1 made every test
# process compile the project and rewrite every test module's asserts again: ~7 s of CPU each).
# The browser tests run beside the others, on processes of their own (tests/run_fast.py).
test: $(STAMP)
	PYTHONDONTWRITEBYTECODE= TEST_WORKERS=$(TEST_WORKERS) $(BIN)/python tests/run_fast.py $(PYTEST_ARGS)

test-slow: $(STAMP)
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n $(TEST_WORKERS) -m slow $(PYTEST_ARGS)

# Screenshots of every step at every size and each journey's summary.json, written anew by each
# run: test-results/journeys/ (docs/web.md).
journeys: $(STAMP)
	rm -rf test-results/journeys
	$(BIN)/python -m pytest -m journey -p no:cacheprovider $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .

# Refresh the French and Japanese catalogues from the code, then compile them (needs gettext).
messages: $(STAMP)
	$(BIN)/python manage.py makemessages $(LANGS) $(MESSAGE_IGNORES) --add-location=file
	$(BIN)/python manage.py compilemessages $(LANGS) --ignore='.venv'

bench: $(STAMP)
	$(BIN)/python bench/engines.py

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache .hypothesis
