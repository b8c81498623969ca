# The book's commands. `make book` and `make test` do all the set-up on a fresh machine
# (Python 3.11 is the only prerequisite). `make help` lists the targets.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON  ?= python3.11
VENV    ?= .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.mlgeom-installed
PROFILE ?= book
NB      ?=
JOBS    ?= 2
CHECK   := _build/check

# The same floating-point kernels on every x86-64 machine. OpenBLAS and numpy choose their
# kernels at run time from the CPU (AVX-512 on some machines, AVX2 on others), and the last bits
# of dot products and sums differ between them, enough to change stored outputs (a Lemma E.1
# error of 9.6e-16 against 1.1e-15). Pinning the AVX2 kernels, which every x86-64-v3 CPU runs,
# makes nbval, make reproduce and the tests give the same numbers on any such machine.
ifeq ($(shell uname -m),x86_64)
export OPENBLAS_CORETYPE ?= Haswell
export NPY_DISABLE_CPU_FEATURES ?= X86_V4 AVX512_ICL AVX512_SPR
endif

# One OpenBLAS thread per process. The book's linear algebra is small (a few hundred particles
# or documents, at most a few thousand coordinates), and with two threads in the kernel and in
# each of two sweep workers on two cores the threads' hand-offs cost more than they save: on the
# idle 2-core machine the FY chapter took 478 s with two threads and 189 s with one. A matrix
# product computes each entry in one thread, and the five notebooks' stored outputs and records
# came out identical with one thread.
export OPENBLAS_NUM_THREADS ?= 1

# Each chapter's notebook -> the subpackages its code lives in (NB=... scopes unit, nbval, records
# and check to one chapter: its package's tests and doctests, its notebook's tests).
PKGS_geometry_primer                := primer algorithms
PKGS_max_margin_multiclass_nn       := metric_nn
PKGS_fenchel_young_surrogate_regret := fenchel_young
PKGS_lp_multiscale_kernels          := multiscale
PKGS_hierarchical_classification    := hierarchical
CHAPTER_NBS := $(patsubst PKGS_%,%,$(filter PKGS_%,$(.VARIABLES)))
ifneq ($(NB),)
ifeq ($(PKGS_$(NB)),)
$(error NB=$(NB) is not a chapter notebook; one of: $(sort $(CHAPTER_NBS)))
endif
endif

.PHONY: help env book test check lint unit nbval records strict-book browser reproduce run-times bench sync lock clean provenance

# The stamp names the checkout the editable install points at. A venv shared between checkouts
# (git worktrees passing VENV=...) is re-pointed at this checkout whenever the stamp names another.
ifneq ($(shell cat $(STAMP) 2>/dev/null),$(CURDIR))
.PHONY: $(STAMP)
endif

help:  ## list the targets
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml constraints.txt
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null || { \
	  echo "make: the book needs Python 3.11; '$(PYTHON)' is missing or another version." >&2; \
	  echo "      Install Python 3.11 or run: make PYTHON=/path/to/python3.11 ..." >&2; exit 1; }
	@test -x $(BIN)/python || { echo "creating $(VENV) with $(PYTHON)"; $(PYTHON) -m venv $(VENV); }
	@echo "installing the pinned environment into $(VENV) (a minute on a fresh machine) ..."
	$(BIN)/python -m pip install --quiet --disable-pip-version-check pip==26.3
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c constraints.txt -e '.[dev]'
	@echo "$(CURDIR)" > $@

env: $(STAMP)  ## create .venv and install the pinned environment and the package (editable)

book: $(STAMP)  ## build the HTML book from the stored notebooks into _build/html (no execution)
	$(BIN)/jupyter-book build . --builder html
	@echo "open _build/html/index.html"

test: lint strict-book unit nbval records browser  ## everything CI checks
	@echo "make test: all checks passed"

lint: $(STAMP)  ## ruff (lint and format) on the package, tests, book extension and notebooks
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

unit: $(STAMP)  ## unit, property and doctests (incl. a smoke run of every notebook); NB=name: one chapter
ifeq ($(NB),)
	$(BIN)/pytest -n $(JOBS) --doctest-modules tests src --ignore=tests/browser
else
	$(BIN)/pytest -n $(JOBS) --doctest-modules $(addprefix tests/,$(PKGS_$(NB))) \
	  $(addprefix src/mlgeom/,$(PKGS_$(NB)))
	$(BIN)/pytest -n $(JOBS) tests/book/test_notebooks.py -k "$(NB)"
	$(BIN)/pytest -n $(JOBS) tests/test_api_domains.py tests/book/test_registry.py \
	  tests/book/test_registries_match_records.py
endif

nbval: $(STAMP)  ## re-execute the notebooks (NB=name: one) at their stored profile and compare outputs
	rm -rf $(if $(NB),$(CHECK)/results/$(NB).json,$(CHECK))
	MLGEOM_PROGRESS=0 MLGEOM_RESULTS=$(CURDIR)/$(CHECK)/results $(BIN)/pytest -n $(JOBS) --dist loadfile \
	  --nbval-lax --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg \
	  -p no:cacheprovider $(if $(NB),notebooks/$(NB).ipynb,notebooks)

sync: $(STAMP)  ## after editing a notebook's .md: update its .ipynb twin (NB=name: that one)
	$(BIN)/jupytext --quiet --sync $(if $(NB),notebooks/$(NB).ipynb,notebooks/*.ipynb)

records: $(STAMP)  ## the records produced by `make nbval` (NB=name: that one) equal the committed ones
	$(BIN)/python -m mlgeom.book.claims compare $(CHECK)/results data/results $(if $(NB),--nb $(NB))

check: lint unit nbval records strict-book  ## one chapter's checks, e.g. make check NB=geometry_primer
	@echo "make check$(if $(NB), NB=$(NB)): all checks passed"

strict-book: $(STAMP)  ## full book build with warnings as errors and nitpicky references
	$(BIN)/jupyter-book build . --builder html --all -W -n --keep-going

browser: strict-book  ## open every page in headless Chromium (skipped without it); screenshots in _build/screenshots
	$(BIN)/pytest -p no:cacheprovider tests/browser

provenance: $(STAMP)  ## derive each claim's registration history from git into data/results/provenance.json
	$(BIN)/python -m mlgeom.book.provenance --write

reproduce: $(STAMP)  ## re-execute notebooks (PROFILE=book|smoke|paper, NB=name) and rewrite outputs
	$(BIN)/python -m mlgeom.book.reproduce --profile $(PROFILE) $(if $(NB),--nb $(NB))

run-times: $(STAMP)  ## as reproduce, from a clean checkout, and record the times in the run report
	$(BIN)/python -m mlgeom.book.reproduce --record-times --profile $(PROFILE) $(if $(NB),--nb $(NB))

bench: $(STAMP)  ## speed benchmarks: ratios against plain references (volatile; not in make test)
	$(BIN)/python -m mlgeom.metric_nn.bench
	$(BIN)/python -m mlgeom.fenchel_young.bench
	$(BIN)/python -m mlgeom.multiscale.bench
	$(BIN)/python -m mlgeom.hierarchical.bench
	$(BIN)/python -m mlgeom.hierarchical.bench --pairs
	$(BIN)/python -m mlgeom.metric_nn.bench --backends

lock: $(STAMP)  ## regenerate constraints.txt from the current environment
	{ sed -n '1,2p' constraints.txt; $(BIN)/python -m pip freeze --exclude-editable | grep -v '^mlgeom'; } > constraints.tmp
	mv constraints.tmp constraints.txt

clean:  ## remove build outputs (keeps .venv)
	rm -rf _build
