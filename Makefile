# Card Plaza — `make play` starts the app, `make test` runs every check.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PORT ?= 8000

.PHONY: play test lint typecheck unit browser system-deps clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,postgres]'
	touch $(STAMP)

## Set up and start the web app (SQLite in the user's data directory).
play: $(STAMP)
	$(BIN)/cardplaza serve --port $(PORT)

## Debian packages the tests need: Chromium for browser tests, PostgreSQL for storage tests.
system-deps:
	@if [ ! -x /usr/bin/chromium ] || [ ! -d /usr/lib/postgresql ]; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium postgresql >/dev/null; \
	fi

lint: $(STAMP)
	$(BIN)/ruff check src tests scripts

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest tests --ignore=tests/browser

## Playwright's sync API breaks asyncio tests run later in the same process: own process.
browser: $(STAMP) system-deps
	$(BIN)/pytest tests/browser

## Set up and run every check and test.
test: $(STAMP) system-deps lint typecheck unit browser

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache artifacts
