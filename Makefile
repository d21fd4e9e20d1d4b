# memgate — the two commands of the quickstart:
#   make run    set up .venv and run memgate on its embedded defaults
#   make test   set up .venv, then lint, type check, layer contract and tests
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: setup run test lint typecheck layers pytest bench clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else "memgate needs Python >= 3.12 (found " + sys.version.split()[0] + ")")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	touch $(STAMP)

setup: $(STAMP)

run: setup
	$(BIN)/memgate scan --jsonl memgate/examples/writes.jsonl --table

lint: setup
	$(BIN)/ruff check memgate tests benchmarks
	$(BIN)/ruff format --check memgate tests benchmarks

typecheck: setup
	$(BIN)/mypy --strict memgate

layers: setup
	$(BIN)/lint-imports

pytest: setup
	$(BIN)/pytest

test: lint typecheck layers pytest

bench: setup
	$(BIN)/python benchmarks/bench_scan.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
