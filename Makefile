# Spinner. `make run` serves a demo event; `make test` runs every check.
PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test install lint typecheck check pytest worker beat migrate demo clean

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

check: install
	$(PY) manage.py check
	$(PY) manage.py makemigrations --check --dry-run
	@if $(PY) manage.py help spectacular >/dev/null 2>&1 && $(PY) -c "import tournaments.api" 2>/dev/null; then \
	  $(PY) manage.py spectacular --validate --fail-on-warn --file /dev/null; fi

pytest: install
	$(PY) -m pytest --cov --cov-report=term:skip-covered -p no:cacheprovider

test: lint typecheck check pytest

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .coverage test-artifacts staticfiles
