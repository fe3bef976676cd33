# Pruning Decision Trees: build the book, run the tests, open the notebooks.
#
#   make book    build the HTML book into _build/html (EDITION=student: without solutions)
#   make pdf     build the PDF edition into _build/pdf/pruning-decision-trees.pdf
#   make test    everything CI runs: library tests, notebooks (nbval), book build, browser, PDF
#   make deps    install the Debian packages the tests and the PDF need (apt, when missing)
#   make check-generated   check that every generated file is current (make test does first)
#   make lab     JupyterLab on the chapter notebooks
#   make bench   run the benchmarks
#   make clean   remove the built book and the copied JavaScript
#
# The first target that needs them creates the Python environment in .venv and installs the
# JavaScript assets (needs Python 3.11, Node.js with npm). Nothing is installed outside this folder,
# except Debian's packages, with apt and only when missing (`make deps`, which `make test` runs):
# R with rpart for the rpart comparison (`make rpart`), Weka with a Java runtime for the J48
# comparison (`make weka`), Graphviz for the dtreeviz test (`make graphviz`), Chromium for the
# browser test (`make chromium`) and TeX Live for the PDF edition (`make texlive`, which
# `make pdf` runs).

SHELL := /bin/bash
PYTHON ?= python3
# The Python that creates the environment: found before .venv/bin is put first on the PATH.
SYSTEM_PYTHON := $(or $(shell command -v $(PYTHON)),$(PYTHON))
VENV := .venv
BIN := $(VENV)/bin
# Use the environment's python, jupyter and pytest in every recipe below.
export PATH := $(CURDIR)/$(BIN):$(PATH)
# Python keeps the modules it compiles (prunekit's and the tests', in __pycache__ folders that
# git ignores), as it does by default, even where the shell asks it not to: dozens of the
# processes below import them.
unexport PYTHONDONTWRITEBYTECODE

# JavaScript the built pages may load (MathJax, with BOOK_MATH=browser): installed by npm from
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

.PHONY: help venv book book-full book-student pdf test test-library test-classroom browser-test \
  check-generated deps deps-library deps-pages chromium rpart weka graphviz texlive lab bench \
  clean

help:
	@sed -n '3,10s/^# *//p' Makefile

# ---------------------------------------------------------------------------------------------
# Environment

# The Python environment and the JavaScript assets, side by side (pip and npm each keep one
# core busy); inside a parallel make, with the jobs it allows.
ENVIRONMENT := $(VENV)/.stamp $(VENDOR)/.stamp
venv:
	@$(MAKE) --no-print-directory -q $(ENVIRONMENT) || $(MAKE) --no-print-directory \
	  $(if $(findstring jobserver,$(MAKEFLAGS)),,-j2 --output-sync=target) $(ENVIRONMENT)

# --no-compile: a module is compiled when first imported (and kept, see above), not all of
# them ahead; most of what Jupyter brings is never imported here (45 s of 77 s saved).
$(VENV)/.stamp: requirements.txt pyproject.toml book/pyproject.toml
	$(SYSTEM_PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install --no-compile -r requirements.txt
	touch $@

$(VENDOR)/.stamp: package.json $(wildcard package-lock.json)
	if [ -f package-lock.json ]; then npm ci --ignore-scripts --no-audit --no-fund; \
	else npm install --ignore-scripts --no-audit --no-fund; fi
	rm -rf $(VENDOR)
	mkdir -p $(VENDOR)
	cp -R node_modules/mathjax $(VENDOR)/mathjax
	mkdir -p $(VENDOR)/mathjax-fonts/mathjax-newcm-font
	cp -R node_modules/@mathjax/mathjax-newcm-font/chtml node_modules/@mathjax/mathjax-newcm-font/chtml.js \
	  $(VENDOR)/mathjax-fonts/mathjax-newcm-font/
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

# The PDF edition: the book without the exercises' solutions (as the student edition) and without
# the Library reference (book/latex/pdf_toc.py), through Sphinx's LaTeX writer and XeLaTeX,
# into $(PDF). XeLaTeX writes XDV on each of its runs and xdvipdfmx makes the PDF once, with
# zlib's usual level 6 (level 9 took twice as long for a file 3 % smaller). It is also copied to
# the top of both HTML editions, whose download menu links to it: `make book pdf` gives a site
# ready to publish (either order; an HTML build keeps the PDF).
PDF_BUILD := _build/pdf
PDF_NAME := pruning-decision-trees
PDF := $(PDF_BUILD)/$(PDF_NAME).pdf
LATEX_DIR := $(PDF_BUILD)/_build/latex

pdf: venv
	$(MAKE) --no-print-directory texlive
	python book/latex/pdf_toc.py $(PDF_BUILD)/_toc.yml
	BOOK_EDITION=student jupyter-book build . -W --keep-going --builder latex \
	  --toc $(PDF_BUILD)/_toc.yml --path-output $(PDF_BUILD)
	cd $(LATEX_DIR) && LATEXOPTS= latexmk -pdfxe -dvi- -ps- -interaction=nonstopmode -halt-on-error \
	  -e '$$xdvipdfmx = "xdvipdfmx -E -z 6 -o %D %O %S"' \
	  $(PDF_NAME).tex >latexmk.out || { tail -40 $(PDF_NAME).log; exit 1; }
	cp $(LATEX_DIR)/$(PDF_NAME).pdf $(PDF)
	for html in _build/html $(STUDENT_BUILD)/_build/html; do \
	  mkdir -p $$html && cp $(PDF) $$html/; \
	done
	@echo
	@echo "The PDF edition is built: $(PDF) ($$(pdfinfo $(PDF) | awk '/^Pages/ {print $$2}') pages)."

# ---------------------------------------------------------------------------------------------
# Tests (stop at the first failing step)

# The classroom of the notebook step (a bare environment with the wheel of the work tree),
# built afresh by every `make test`, beside the library tests. It lives outside the
# repository (the notebooks must not reach the repository's files), one per checkout.
CLASSROOM := $(or $(TMPDIR),/tmp)/prunekit-classroom-$(shell printf %s "$(CURDIR)" | md5sum | cut -c1-8)
export PRUNEKIT_CLASSROOM := $(CLASSROOM)
# The classroom's tests and the notebooks' runs (collected alone, without the whole suite).
CLASSROOM_TESTS := tests/book/test_wheel_classroom.py

test: venv
	$(MAKE) --no-print-directory check-generated
	$(MAKE) --no-print-directory deps-library
	rm -rf $(CLASSROOM)
	@echo "== 1/5 library tests; beside them, the classroom for step 2 and the programs of step 4"
	$(MAKE) --no-print-directory -j3 --output-sync=target test-library test-classroom \
	  deps-pages
	@echo "== 2/5 notebooks, each run once from the built wheel: every stored output must match"
	$(PYTEST) $(CLASSROOM_TESTS) -m notebooks -n 2
	@echo "== 3/5 book build, both editions side by side (warnings are errors)"
	$(MAKE) --no-print-directory -j2 --output-sync=target book-full book-student
	@echo "== 4/5 the built pages in a headless browser, beside the PDF edition's build"
	$(MAKE) --no-print-directory -j2 --output-sync=target browser-test pdf
	@echo "== 5/5 the PDF edition against the HTML book"
	$(PYTEST) tests/pdf -m pdf

# The browser step of `make test` (needs both editions built and Chromium).
browser-test:
	$(PYTEST) tests/browser -m browser -n 2

# The two halves of step 1. The classroom's half mostly waits for pip and the disk.
test-library: venv
	$(PYTEST) tests -m "not browser and not notebooks and not classroom and not pdf" -n 2

test-classroom: venv
	$(PYTEST) $(CLASSROOM_TESTS) -m classroom -q

# The generated files the repository keeps: the preface's map
# (book/chapter_map.py), the install cell of every notebook
# (book/install_cell.py), the glossary links at each term's first use
# (book/link_glossary.py), the student notebooks (exercises/make_student.py)
# and the tags that fold the chapters' set-up and plotting code on the web
# page (book/fold_code.py). Each script's --check writes nothing and names
# what is stale; all five run (two at a time), and the target fails if any
# of them found something stale. Run the script without --check to bring
# its files up to date.
GENERATORS := book/chapter_map.py book/install_cell.py book/link_glossary.py \
  exercises/make_student.py book/fold_code.py
check-generated: venv
	@printf '%s\n' $(GENERATORS) | xargs -P 2 -I SCRIPT python SCRIPT --check || { \
	  echo "Generated files are stale: run the scripts named above (without --check)."; \
	  exit 1; }
	@echo "Generated files are current ($(GENERATORS))."

# ---------------------------------------------------------------------------------------------
# Debian's packages

# Every Debian package the project needs besides .venv and the JavaScript assets, each program
# installed with apt only when its check finds it missing (apt_install, below), in two groups:
# what the library tests compare with (deps-library: R with rpart, Weka, Graphviz) and what renders the
# built book (deps-pages: Chromium for the browser test, TeX Live for the PDF edition).
# `make test` installs the first before its step 1 and the second while step 1 runs; `make pdf`
# installs TeX Live only. One program after another, never side by side: apt holds a lock.
deps:
	$(MAKE) --no-print-directory deps-library
	$(MAKE) --no-print-directory deps-pages

deps-library:
	$(MAKE) --no-print-directory rpart
	$(MAKE) --no-print-directory weka
	$(MAKE) --no-print-directory graphviz

deps-pages:
	$(MAKE) --no-print-directory chromium
	$(MAKE) --no-print-directory texlive

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

# Graphviz's dot, with which dtreeviz draws the pruned tree it is given in tests/test_export.py
# (Debian's graphviz).
graphviz:
	$(call apt_install,command -v dot >/dev/null,Graphviz (dot),graphviz)

# Debian's TeX Live for the PDF edition, the smallest set that builds it (about 110 MB to
# download): XeLaTeX and the LaTeX packages Sphinx and Jupyter Book use, latexmk, the GNU
# FreeFont faces Sphinx sets for XeLaTeX, rsvg-convert for the SVG figures, and poppler's
# pdftotext and pdffonts for the PDF test.
TEXLIVE_PACKAGES := texlive-xetex texlive-latex-extra texlive-fonts-recommended latexmk \
  fonts-freefont-otf librsvg2-bin poppler-utils
texlive:
	$(call apt_install,command -v xelatex >/dev/null && command -v latexmk >/dev/null && command -v rsvg-convert >/dev/null && command -v pdffonts >/dev/null && kpsewhich rsfs10.tfm >/dev/null && fc-list | grep -q FreeSerif,TeX Live,--no-install-recommends $(TEXLIVE_PACKAGES))

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
