# Lappu: `make run` for a demo site, `make test` for the whole suite. `make help` lists the rest.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.DEFAULT_GOAL := help
.PHONY: help install run test lint format bench bench-venv messages migrate demo worker typecheck lock docs

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

$(VENV)/bin/python:
	@command -v $(PYTHON) >/dev/null || { echo "Need $(PYTHON): install python3.11 and python3.11-venv (docs/install.md, 'Fresh machine')"; exit 1; }
	$(PYTHON) -m venv $(VENV)

# Reinstall only when the dependency list changes, so `make run` stays quick the second time.
# Development takes the newest releases pyproject.toml allows; LOCKED=1 (CI, .ci/run) takes
# exactly the versions and hashes of requirements-dev.lock, as the Docker image does with
# requirements.lock.
$(STAMP): pyproject.toml requirements-dev.lock | $(VENV)/bin/python
ifeq ($(LOCKED),1)
	$(PY) -m pip install --quiet --require-hashes --no-deps -r requirements-dev.lock
	$(PY) -m pip install --quiet --no-deps -e .
else
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
endif
	@touch $(STAMP)

install: $(STAMP) ## Create .venv if missing and install the project with its dev tools
	$(PY) manage.py compilemessages --ignore='.venv' --ignore='.venv-bench' -v0

migrate: install
	$(PY) manage.py migrate --noinput -v0

demo: migrate ## Load (or refresh) the demo club
	$(PY) manage.py demo_load

run: demo ## Install, migrate, load the demo and serve http://127.0.0.1:8000 (SQLite, eager Celery)
	@echo "Serving http://127.0.0.1:8000  (Ctrl-C stops)"
	$(PY) manage.py runserver 127.0.0.1:8000

test: install ## The whole suite: SQLite, then PostgreSQL + a real Celery worker on Redis, and the browser tests
	$(PY) tests/run_all.py

lint: install ## No conflict markers; ruff check and format check; the import layers; mypy (rules strict); the docs build
	$(PY) tools/conflict_markers.py
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy rules core accounts tournaments scoring formats standings ratings records leagues printing privacy demo clubsite
	@# The docs build with --strict: a link to a missing page or heading fails it. Built into a
	@# temporary folder and thrown away (`make docs` serves them). Not --quiet: it hides the
	@# warnings from --strict too.
	@site=$$(mktemp -d) && $(VENV)/bin/mkdocs build --strict --site-dir "$$site"; \
		status=$$?; rm -rf "$$site"; exit $$status

docs: install ## Serve the operators' and developers' docs (docs/, MkDocs) on http://127.0.0.1:8001
	$(VENV)/bin/mkdocs serve --dev-addr 127.0.0.1:8001

format: install ## Apply ruff's formatting and safe fixes
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

# The bench's own environment: RLCard, the independent Gin referee the arrangement bench
# compares with. Never a dependency of the site (not in pyproject.toml nor the lock files).
BENCH_VENV := .venv-bench
BENCH_STAMP := $(BENCH_VENV)/.installed
$(BENCH_STAMP): tests/bench/requirements.txt
	@command -v $(PYTHON) >/dev/null || { echo "Need $(PYTHON): install python3.11 and python3.11-venv (docs/install.md, 'Fresh machine')"; exit 1; }
	$(PYTHON) -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/python -m pip install --quiet -r tests/bench/requirements.txt
	@touch $(BENCH_STAMP)

bench-venv: $(BENCH_STAMP) ## Make .venv-bench with RLCard, the bench's Gin referee (never the site's)

bench: install $(BENCH_STAMP) ## Print the speed figures (not pass/fail)
	BENCH_PYTHON=$(BENCH_VENV)/bin/python $(PY) tests/bench/run.py

# The lock files pin every package, with hashes: requirements.lock for the image,
# requirements-dev.lock (with the dev tools) for CI. Pins are kept unless UPGRADE=1.
LOCK := $(VENV)/bin/uv pip compile pyproject.toml --universal --python-version 3.11 \
	--generate-hashes --quiet --custom-compile-command "make lock" $(if $(UPGRADE),--upgrade)
lock: | $(VENV)/bin/python ## Re-pin requirements*.lock from pyproject.toml (UPGRADE=1: newest allowed)
	$(PY) -m pip install --quiet uv
	$(LOCK) -o requirements.lock
	$(LOCK) --extra dev -o requirements-dev.lock

messages: install ## Extract new strings into locale/fi and locale/hu (then translate them)
	$(PY) manage.py makemessages -l fi -l hu --ignore='.venv/*' --ignore='.venv-bench/*' --ignore='tests/*' --no-location
	$(PY) manage.py compilemessages --ignore='.venv' --ignore='.venv-bench' -v0

worker: install ## Run a Celery worker (needs REDIS_URL and DATABASE_URL)
	$(VENV)/bin/celery -A clubsite worker --loglevel=INFO
