# rougelab: set-up, data, workbook, book, tests, benchmarks. `make workbook` and `make test` do all set-up.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml constraints.txt | sha256sum | cut -c1-12)
DEBIAN_PACKAGES := wordnet-base wordnet-sense-index libxml-parser-perl libwww-perl libjson-perl chromium
MIRROR_FLAG := $(if $(ROUGELAB_DATA_MIRROR),--mirror $(ROUGELAB_DATA_MIRROR),)
PYTEST_ARGS ?= -n 2

.PHONY: setup system data workbook student book test test-book lab bench clean

setup: $(STAMP) system

# The package with every extra, at the workbook's exact versions (constraints.txt).
$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[all,test]'
	rm -f $(VENV)/.installed-* && touch $@

# Debian packages (WordNet 3.0 for ROUGE-G, Chromium for the book's browser test), installed only when missing.
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

# Copies of the notebooks without the exercises' solutions, for students, in build/student/ (nothing is run).
student: setup
	$(BIN)/rougelab workbook --student --output-dir build

# The executed notebooks of build/ as a static site in build/book/ (stale or missing ones are run first).
book: data
	$(BIN)/rougelab book --executed build --output-dir build/book

test: data
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# The book built from SMOKE runs of the notebooks (build/smoke/, run where missing or stale), checked page
# by page in headless Chromium (screenshots in build/book/screens/), and the bare package in a fresh venv.
test-book: data
	$(BIN)/rougelab book --smoke --executed build/smoke --output-dir build/book
	$(BIN)/python -m pytest -p no:xdist -m book tests/test_book.py tests/test_install.py

lab: data
	$(BIN)/python -m ipykernel install --sys-prefix --name rougelab --display-name "Python (rougelab)"
	$(BIN)/jupyter lab notebooks

# Every benchmark, one after the other (ROUGE-G from an empty cache and then warm: --cold prints both), its
# output kept in build/bench.md; then every row that has a target, beside it (benchmarks/summary.py). Kernels
# compile on their first call (ROUGELAB_COMPILE_SECONDS=0), as in the warm processes the benchmarks time;
# bench_distinct's cold-start rows take the package's own rule.
bench: data
	@mkdir -p build && : > build/bench.md && rm -f build/bench.failed
	@for b in benchmarks/bench_*.py; do echo "## $$b" | tee -a build/bench.md; args=""; \
	  case $$b in *bench_rouge_g.py) args=--cold;; esac; \
	  { ROUGELAB_COMPILE_SECONDS=0 $(BIN)/python $$b $$args || touch build/bench.failed; } | tee -a build/bench.md; \
	  test ! -e build/bench.failed || exit 1; done
	@$(BIN)/python benchmarks/summary.py build/bench.md

clean:
	rm -rf build .pytest_cache
