# Card Plaza — `make play` starts the app, `make test` runs every check.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PLAY_STAMP := $(VENV)/.play-installed
## Port of `make play` (e.g. `make play PORT=8001` when 8000 is busy).
PORT ?= 8000
## Python extras `make test` installs beside the package (research: the OpenSpiel and
## PettingZoo adapters, whose tests run with the others).
TEST_EXTRAS ?= dev,postgres,research
## Debian packages the tests need: Chromium for browser tests (with a Latin font, since
## recommended packages are not installed, and a Japanese one, or the Japanese screenshots
## show empty boxes), PostgreSQL for the storage test.
SYSTEM_PACKAGES ?= chromium fonts-liberation fonts-ipafont-gothic postgresql

## Test processes of `make unit` and `make browser` (CI machines have two cores).
TEST_JOBS ?= 2

.PHONY: play test lint typecheck unit browser fuzz system-deps clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

## Everything for the tests and development.
$(STAMP): pyproject.toml $(BIN)/python
	$(BIN)/pip install --quiet -e '.[$(TEST_EXTRAS)]'
	touch $(STAMP) $(PLAY_STAMP)

## Only what playing needs (no test or PostgreSQL extras).
$(PLAY_STAMP): pyproject.toml $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $(PLAY_STAMP)

## Set up and start the web app (SQLite in the user's data directory) on port $(PORT).
## The computer players' search kernels are compiled first (once; later a quick load), so
## the first game never waits for a compiler.
play: $(PLAY_STAMP)
	$(BIN)/cardplaza kernels
	$(BIN)/cardplaza serve --port $(PORT)

## Install the missing Debian packages of SYSTEM_PACKAGES (nothing else is upgraded).
system-deps:
	@missing=""; \
	for pkg in $(SYSTEM_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' "$$pkg" 2>/dev/null | grep -q "ok installed" \
	    || missing="$$missing $$pkg"; \
	done; \
	if [ -z "$$missing" ]; then \
	  echo "Debian packages already installed: $(SYSTEM_PACKAGES)"; \
	else \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  echo "Installing Debian packages:$$missing"; \
	  $$SUDO apt-get update && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y --no-install-recommends $$missing; \
	fi

lint: $(STAMP)
	$(BIN)/ruff check src tests scripts

typecheck: $(STAMP)
	$(BIN)/mypy

## The tests start hundreds of Python processes (test processes, servers and their computer
## players, terminal games). Each reads Python's compiled files, written once, even where the
## environment turns their writing off (PYTHONDONTWRITEBYTECODE): else every process compiles
## the package again and every test process rewrites all the test modules, about 12 s more
## at each test process's start.
TEST_ENV := PYTHONDONTWRITEBYTECODE=

## Each test file runs whole in one process (its module-wide servers start once).
unit: $(STAMP)
	$(TEST_ENV) $(BIN)/pytest tests --ignore=tests/browser -n $(TEST_JOBS) --dist loadfile

## Playwright's sync API breaks asyncio tests run later in the same process: own process.
browser: $(STAMP) system-deps
	$(TEST_ENV) $(BIN)/pytest tests/browser -n $(TEST_JOBS) --dist loadfile

## The server's fuzzing state machine, long and with fresh examples (minutes; `make unit`
## runs a short, repeatable one).
fuzz: $(STAMP)
	HYPOTHESIS_PROFILE=fuzz $(BIN)/pytest tests/web/test_fuzz.py

## Set up and run every check and test.
test: $(STAMP) system-deps lint typecheck unit browser

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache artifacts
