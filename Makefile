# One entry point for people and CI. `make serve` and `make test` install everything they need.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)
# The browser pages' npm packages (GraphiQL, ...) and the browser-test driver, exact versions.
WEB_STAMP := web/node_modules/.installed
export HF_HUB_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false

.PHONY: install serve test test-fast lint format bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	# The CPU build of torch first (from local disk here), or pip may pull a multi-GB CUDA build.
	$(PY) -m pip install --quiet torch==2.13.0
	# The GDS client, OpenTelemetry and the framework integrations' extras too: their tests run
	# against the real packages (tests/jobs/test_gds.py checks the calls the PageRank job makes
	# exist; tests/api/test_tracing.py reads the spans with the SDK's in-memory exporter).
	$(PY) -m pip install --quiet -e '.[dev,gds,otel,langgraph,openai-agents,pydantic-ai]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

# Without npm the API still installs and serves; GraphiQL's page then says how to install its
# files and the browser tests skip.
$(WEB_STAMP): web/package.json web/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
		npm ci --prefix web --no-audit --no-fund --loglevel=error && touch $@; \
	else \
		echo "make: npm not found: GraphiQL's files are not installed (install Node.js 18+ and npm, then make install)"; \
	fi

install: $(STAMP) $(WEB_STAMP)

serve: install
	$(VENV)/bin/hippograph serve

test: install
	$(PY) -m pytest

# The tests that need no graph engine, embedding model or server (tests/conftest.py marks them).
test-fast: install
	$(PY) -m pytest -m fast

lint: install
	$(VENV)/bin/ruff check hippograph tests bench
	$(VENV)/bin/ruff format --check hippograph tests bench
	$(VENV)/bin/mypy hippograph

format: install
	$(VENV)/bin/ruff format hippograph tests bench
	$(VENV)/bin/ruff check --fix hippograph tests bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache web/node_modules tests/artifacts
