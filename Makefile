# The README's quick start: `make run` sets everything up and runs the main job; `make test` runs every check.
SHELL := /bin/bash
export UV_PYTHON_DOWNLOADS := never
UV := $(shell command -v uv 2>/dev/null || echo "$(HOME)/.local/bin/uv")
PY := .venv/bin/python

.PHONY: run test setup system-deps lint typecheck unit conformance catalogs bench clean

setup: .venv/.synced

.venv/.synced: pyproject.toml uv.lock
	@command -v uv >/dev/null 2>&1 || [ -x "$(UV)" ] || python3 -m pip install --user --quiet uv
	$(UV) sync --locked --python python3.11
	@touch $@

# the tracker on the SQLite default (~/.local/share/tactica), a table per bundled example fight; prints the GM links
run: setup
	.venv/bin/tactica serve --examples

lint: setup
	.venv/bin/ruff check src tests benchmarks
	.venv/bin/ruff format --check src tests benchmarks

typecheck: setup
	.venv/bin/mypy

unit: setup
	.venv/bin/pytest

conformance: setup
	$(PY) ../shared/conformance/check.py --cmd ".venv/bin/tactica replay" tests/conformance

# the tracker's tests need Chromium and PostgreSQL from Debian's packages: installed when missing
system-deps:
	bash scripts/system-deps.sh

test: system-deps lint typecheck unit

# extract the messages, merge them into the en/fr/it catalogs, compile them (docs/translating.md)
catalogs: setup
	$(PY) -m tactica.catalogs update

bench: setup
	$(PY) benchmarks/run.py

clean:
	rm -rf .venv .mypy_cache .ruff_cache .pytest_cache
