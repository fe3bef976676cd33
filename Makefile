# Pruning Decision Trees: build the book, run the tests, open the notebooks.
#
#   make book    build the HTML book into _build/html (EDITION=student: without solutions)
#   make test    everything CI runs: library tests, notebooks (nbval), book build, browser test
#   make lab     JupyterLab on the chapter notebooks
#   make bench   run the benchmarks
#   make clean   remove the built book and the copied JavaScript
#
# The first target that needs them creates the Python environment in .venv and installs the
# JavaScript assets (needs Python 3.11, Node.js with npm). Nothing is installed outside this folder,
# except Debian's chromium for the browser test (`make chromium`), R with rpart for the rpart
# comparison (`make rpart`) and Weka with a Java runtime for the J48 comparison (`make weka`).

SHELL := /bin/bash
PYTHON ?= python3
# The Python that creates the environment: found before .venv/bin is put first on the PATH.
SYSTEM_PYTHON := $(or $(shell command -v $(PYTHON)),$(PYTHON))
VENV := .venv
BIN := $(VENV)/bin
# Use the environment's python, jupyter and pytest in every recipe below.
export PATH := $(CURDIR)/$(BIN):$(PATH)

# JavaScript the built pages load (MathJax, RequireJS, the widget manager): installed by npm from
# package.json, copied here, and from here into _build/html/_static by the book build.
VENDOR := book/_vendor
# The browser test drives this Chromium (override: make test CHROMIUM=/path/to/chromium).
CHROMIUM ?= /usr/bin/chromium
export CHROMIUM
# The J48 comparison runs this Weka jar (override: make test WEKA_JAR=/path/to/weka.jar).
WEKA_JAR ?= /usr/share/java/weka.jar
export PRUNEKIT_WEKA_JAR := $(WEKA_JAR)

PYTEST := pytest -p no:cacheprovider
BUILD_BOOK := jupyter-book build . -W -n --keep-going

.PHONY: help venv book book-full book-student test test-library test-classroom chromium rpart weka lab bench clean

help:
	@sed -n '3,7s/^# *//p' Makefile

# ---------------------------------------------------------------------------------------------
# Environment

venv: $(VENV)/.stamp $(VENDOR)/.stamp

$(VENV)/.stamp: requirements.txt pyproject.toml
	$(SYSTEM_PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install -r requirements.txt
	touch $@

$(VENDOR)/.stamp: package.json $(wildcard package-lock.json)
	if [ -f package-lock.json ]; then npm ci --ignore-scripts --no-audit --no-fund; \
	else npm install --ignore-scripts --no-audit --no-fund; fi
	rm -rf $(VENDOR)
	mkdir -p $(VENDOR)/html-manager
	cp -R node_modules/mathjax $(VENDOR)/mathjax
	mkdir -p $(VENDOR)/mathjax-fonts/mathjax-newcm-font
	cp -R node_modules/@mathjax/mathjax-newcm-font/chtml node_modules/@mathjax/mathjax-newcm-font/chtml.js \
	  $(VENDOR)/mathjax-fonts/mathjax-newcm-font/
	cp node_modules/requirejs/require.js $(VENDOR)/require.js
	cd node_modules/@jupyter-widgets/html-manager/dist && \
	  cp embed-amd.js *.woff *.woff2 *.ttf *.eot *.svg $(CURDIR)/$(VENDOR)/html-manager/
	touch $@

# ---------------------------------------------------------------------------------------------
# The book

# EDITION=student builds the student edition, without the solutions of the chapters'
# exercises (for publishing during a course), into _build/student/_build/html.
EDITION ?= full
STUDENT_BUILD := _build/student

book: venv
ifeq ($(EDITION),student)
	$(MAKE) --no-print-directory book-student
	@echo
	@echo "The student edition is built: open $(STUDENT_BUILD)/_build/html/index.html."
else ifeq ($(EDITION),full)
	$(MAKE) --no-print-directory book-full
	@echo
	@echo "The book is built: open _build/html/index.html in a browser."
else
	$(error EDITION must be full or student, not '$(EDITION)')
endif

# The two editions, one recipe each (`make test` builds them side by side)
book-full: venv
	$(BUILD_BOOK)

book-student: venv
	BOOK_EDITION=student $(BUILD_BOOK) --path-output $(STUDENT_BUILD)

# ---------------------------------------------------------------------------------------------
# Tests (stop at the first failing step)

# The classroom of the notebook step (a bare environment with the wheel of the work tree),
# built afresh by every `make test`, beside the library tests.
CLASSROOM := _build/classroom
export PRUNEKIT_CLASSROOM := $(CURDIR)/$(CLASSROOM)

test: venv
	$(MAKE) --no-print-directory rpart
	$(MAKE) --no-print-directory weka
	rm -rf $(CLASSROOM)
	@echo "== 1/4 library tests, and beside them the classroom for step 2"
	$(MAKE) --no-print-directory -j2 --output-sync=target test-library test-classroom
	@echo "== 2/4 notebooks, each run once from the built wheel: every stored output must match"
	$(PYTEST) tests -m notebooks -n 2
	@echo "== 3/4 book build, both editions side by side (warnings are errors)"
	$(MAKE) --no-print-directory -j2 --output-sync=target book-full book-student
	@echo "== 4/4 the built pages in a headless browser"
	$(MAKE) --no-print-directory chromium
	$(PYTEST) tests/browser -m browser -n 2

# The two halves of step 1. The classroom's half mostly waits for pip and the disk.
test-library: venv
	$(PYTEST) tests -m "not browser and not notebooks and not classroom" -n 2

test-classroom: venv
	$(PYTEST) tests -m classroom -q

# $(call apt_install,CHECK,WHAT,PACKAGES): when the shell test CHECK fails, install Debian's
# PACKAGES with apt (with sudo unless root); otherwise say that WHAT was found.
define apt_install
	@if $(1); then \
	  echo "$(2) found"; \
	else \
	  if [ "$$(id -u)" -eq 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update && \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y $(3); \
	fi
endef

# Debian's Chromium for the browser test (Playwright's own browser download is not used).
chromium:
	$(call apt_install,[ -x "$(CHROMIUM)" ],Chromium ($(CHROMIUM)),chromium)

# R with rpart, for the test that compares rpart's cp table with the exact weakest-link sequence
# (Debian's r-base-core and r-cran-rpart).
rpart:
	$(call apt_install,Rscript -e 'library(rpart)' >/dev/null 2>&1,R with rpart,r-base-core r-cran-rpart)

# Weka, for the test that compares error-based pruning with Weka's J48 (Debian's weka, which
# brings a Java runtime).
weka:
	$(call apt_install,command -v java >/dev/null && [ -f "$(WEKA_JAR)" ],Weka ($(WEKA_JAR)),weka)

# ---------------------------------------------------------------------------------------------
# Working with the notebooks

lab: venv
	jupyter lab chapters $$([ "$$(id -u)" -eq 0 ] && echo --allow-root)

bench: venv
	@for f in benchmarks/bench_*.py; do \
	  [ -e "$$f" ] || continue; \
	  echo "== $$f"; \
	  python "$$f" || exit 1; \
	done

clean:
	rm -rf _build $(VENDOR)
	@echo "(rm -rf .venv node_modules as well for a completely fresh start)"
