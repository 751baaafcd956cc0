# rougelab: set-up, data, workbook, tests, benchmarks. `make workbook` and `make test` do all set-up.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell sha256sum pyproject.toml | cut -c1-12)
DEBIAN_PACKAGES := wordnet-base wordnet-sense-index libxml-parser-perl
MIRROR_FLAG := $(if $(ROUGELAB_DATA_MIRROR),--mirror $(ROUGELAB_DATA_MIRROR),)
PYTEST_ARGS ?= -n 2

.PHONY: setup system data workbook test lab bench clean

setup: $(STAMP) system

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	rm -f $(VENV)/.installed-* && touch $@

# Debian packages (WordNet 3.0 for ROUGE-G), installed only when missing.
system:
	@missing=""; for p in $(DEBIAN_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

data: setup
	$(BIN)/rougelab data fetch $(MIRROR_FLAG)

workbook: data
	$(BIN)/rougelab workbook --output-dir build --figures-dir figures

test: data
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lab: data
	$(BIN)/python -m ipykernel install --sys-prefix --name rougelab --display-name "Python (rougelab)"
	$(BIN)/jupyter lab notebooks

bench: data
	@for b in benchmarks/bench_*.py; do echo "## $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf build .pytest_cache
