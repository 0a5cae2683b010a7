# Two commands: `make demo` and `make test`. Both set up .venv from this repository's files.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck unit bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python examples/demo.py

# The suite runs on every core (pytest-xdist; worksteal, not loadfile/loadscope: those would
# run only one of the schema tests that share a node id). Caches make a second run quicker:
# mypy's in .mypy_cache, and Python's bytecode (with pytest's rewritten test modules) in the
# git-ignored __pycache__ folders, written even where PYTHONDONTWRITEBYTECODE is set, since
# every worker and every `tledger` process a test starts would compile the sources again.
PYTEST := PYTHONDONTWRITEBYTECODE= $(BIN)/pytest

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(PYTEST) -q -n auto --dist worksteal

unit: $(STAMP)
	$(PYTEST) -q tests/unit

bench: $(STAMP)
	for f in tests/benchmarks/bench_*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
