# Spinner. `make run` serves a demo event; `make test` runs every check.
PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test quick install lint typecheck check messages makemessages pytest worker beat migrate demo clean

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null || { echo "needs $(PYTHON) (or: make PYTHON=python3)"; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(PY) manage.py migrate --noinput

demo: migrate
	@if $(PY) manage.py help demo >/dev/null 2>&1; then $(PY) manage.py demo; fi

run: demo
	$(PY) manage.py runserver 127.0.0.1:8000

worker: install
	$(VENV)/bin/celery -A spinner worker --loglevel INFO --concurrency 2

beat: install
	$(VENV)/bin/celery -A spinner beat --loglevel INFO

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: install
	$(VENV)/bin/mypy scoring tournaments spinner

check: install messages
	$(PY) manage.py check
	$(PY) manage.py makemigrations --check --dry-run
	@if $(PY) manage.py help spectacular >/dev/null 2>&1 && $(PY) -c "import tournaments.api" 2>/dev/null; then \
	  $(PY) manage.py spectacular --validate --fail-on-warn --file /dev/null; fi

# The compiled catalogs (locale/*/LC_MESSAGES/*.mo) are committed, so that a machine with only
# Python shows every language. This recompiles them (touching the .po first: compilemessages
# skips a .mo newer than its .po) and fails when they differ from the committed ones (a .po
# changed without its .mo). Without msgfmt (Debian's gettext) it is skipped, except in CI
# (SPINNER_REQUIRE_SERVICES=1), whose .ci/run installs it.
messages: install
	@if command -v msgfmt >/dev/null 2>&1; then \
	  touch locale/*/LC_MESSAGES/*.po && \
	  $(PY) manage.py compilemessages --ignore=.venv --ignore=.git && \
	  if git rev-parse --git-dir >/dev/null 2>&1 && ! git diff --quiet -- 'locale/*.mo'; then \
	    git diff --stat -- 'locale/*.mo'; \
	    echo "locale/: the committed .mo files do not match the .po files: commit the recompiled ones"; exit 1; \
	  fi; \
	elif [ "$$SPINNER_REQUIRE_SERVICES" = 1 ]; then \
	  echo "compilemessages needs msgfmt: apt-get install gettext"; exit 1; \
	else \
	  echo "skipping compilemessages: msgfmt is missing (apt-get install gettext)"; \
	fi

# For translators: collect the marked strings into locale/es/ (then translate, then make messages).
makemessages: install
	$(PY) manage.py makemessages -l es --ignore='.venv/*' --ignore='staticfiles/*' \
	  --ignore='test-artifacts/*' --ignore='benchmarks/*'
	$(PY) manage.py makemessages -d djangojs -l es --ignore='.venv/*' --ignore='staticfiles/*' \
	  --ignore='test-artifacts/*' --ignore='tournaments/static/spinner/vendor/*'

pytest: install
	$(PY) -m pytest --cov --cov-report=term:skip-covered -p no:cacheprovider

test: lint typecheck check pytest

# The inner loop: lint, types and every test that needs no browser and no live Celery worker
# (tests/conftest.py marks them `browser` and `live_worker`), nor is marked `slow` (the API fuzz,
# the load harness's faults, the database outage). `make test` still runs everything.
quick: lint typecheck
	$(PY) -m pytest -q -p no:cacheprovider -m "not browser and not live_worker and not slow"

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .coverage test-artifacts staticfiles
