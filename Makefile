# memgate — the two commands of the quickstart:
#   make run    set up .venv and run memgate on its embedded defaults
#   make test   set up .venv, then lint, type check, layer contract and tests
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Two stamps: `make run` needs only memgate and its runtime dependencies
# (RUN_STAMP); `make test` and the other developer targets add the dev and bench
# extras on top (STAMP: linters, type checker, test frameworks, benchmark peers).
RUN_STAMP := $(VENV)/.run-stamp
STAMP := $(VENV)/.installed-stamp
# CrewAI cannot share .venv (it pins openai<3, pydantic<2.13, mcp<2; the dev
# extras need openai>=3 and MCP 2): its adapter's tests run in a second venv with
# memgate and the `crewai` extra (tests/adapters/test_adapter_crewai.py).
CREWAI_VENV := .venv-crewai
CREWAI_STAMP := $(CREWAI_VENV)/.installed-stamp

.PHONY: setup setup-run setup-crewai browser run test lint typecheck layers pytest bench clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else "memgate needs Python >= 3.12 (found " + sys.version.split()[0] + ")")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	@echo "installing memgate and what running it needs into $(VENV) (no dev or bench extras; pip lists each package)"
	$(BIN)/python -m pip install -e .
	touch $(RUN_STAMP)

$(STAMP): pyproject.toml $(RUN_STAMP)
	@echo "installing the dev and bench extras into $(VENV) (tests, linters, benchmarks)"
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	touch $(STAMP)

setup-run: $(RUN_STAMP)

setup: $(STAMP)

$(CREWAI_STAMP): pyproject.toml
	@echo "installing memgate with the crewai extra into $(CREWAI_VENV) (CrewAI's pins conflict with the dev extras)"
	@test -x $(CREWAI_VENV)/bin/python || $(PYTHON) -m venv $(CREWAI_VENV)
	$(CREWAI_VENV)/bin/python -m pip install --quiet -e '.[crewai]' 'pytest>=8.2'
	touch $(CREWAI_STAMP)

setup-crewai: $(CREWAI_STAMP)

# The review UI is tested in a real headless Chromium (Debian's package). Installed
# here when missing, so `make test` works on a fresh machine; MEMGATE_CHROMIUM
# points the tests at another binary.
CHROMIUM ?= $(or $(MEMGATE_CHROMIUM),/usr/bin/chromium)
browser:
	@if [ ! -x "$(CHROMIUM)" ]; then \
		echo "installing Debian's chromium for the UI tests"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; \
	fi
	@test -x "$(CHROMIUM)" || { echo "no Chromium at $(CHROMIUM): install Debian's chromium or set MEMGATE_CHROMIUM"; exit 1; }

run: setup-run
	$(BIN)/memgate serve --data-dir data

lint: setup
	$(BIN)/ruff check memgate tests benchmarks tools
	$(BIN)/ruff format --check memgate tests benchmarks tools

typecheck: setup
	$(BIN)/mypy --strict memgate

layers: setup
	$(BIN)/lint-imports

# The suite spends much of its time waiting on subprocesses and servers, so it
# runs on one pytest-xdist worker per core (every test owns its databases, key
# prefixes, ports and temporary directories). PYTEST_WORKERS=0 runs it in-process.
PYTEST_WORKERS ?= 2
pytest: setup setup-crewai browser
	MEMGATE_CHROMIUM=$(CHROMIUM) $(BIN)/pytest -n $(PYTEST_WORKERS)

test: lint typecheck layers pytest

# BENCH_ARGS: e.g. --million (adds the 1M-event growth line), --quick, --only scan write
bench: setup
	$(BIN)/python benchmarks/run_all.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) $(CREWAI_VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
