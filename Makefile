# ilan: thin wrapper over CMake/CTest. See CMakeLists.txt and cmake/IlanTests.cmake.
.PHONY: all deps test test-release test-debug test-tsan test-python lint-python debug tsan \
        install bench demo venv clean conformance

JOBS       ?= 2
PREFIX     ?= /usr/local
VENV       ?= .venv
BENCH_ARGS ?=
CMAKE      ?= cmake
CTEST      ?= ctest
CTEST_ARGS ?=
CONFORMANCE_ARGS ?=

# Configure a build directory only when it has no cache yet.
# $(1) = dir, $(2) = extra cmake arguments
define configure
	@test -f $(1)/CMakeCache.txt || $(CMAKE) -S . -B $(1) $(2)
endef

all: deps
	$(call configure,build,-DCMAKE_BUILD_TYPE=Release)
	$(CMAKE) --build build -j$(JOBS) -- --no-print-directory

deps:
	@tools/install-deps.sh

debug: deps
	$(call configure,build-debug,-DCMAKE_BUILD_TYPE=Debug)
	$(CMAKE) --build build-debug -j$(JOBS) -- --no-print-directory

tsan: deps
	$(call configure,build-tsan,-DCMAKE_BUILD_TYPE=Debug -DILAN_TSAN=ON)
	$(CMAKE) --build build-tsan -j$(JOBS) -- --no-print-directory

# Release and Debug (assertions on): every test; TSan: the tests labeled tsan;
# then GCC's libgomp testsuite on the release build (about 4.5 min cold, 1 min cached).
test: venv
	$(MAKE) --no-print-directory test-release
	$(MAKE) --no-print-directory test-debug
	$(MAKE) --no-print-directory test-tsan
	$(MAKE) --no-print-directory test-python
	$(MAKE) --no-print-directory conformance

test-release: all
	$(CTEST) --test-dir build --output-on-failure -j$(JOBS) $(CTEST_ARGS)

test-debug: debug
	$(CTEST) --test-dir build-debug --output-on-failure -j$(JOBS) $(CTEST_ARGS)

test-tsan: tsan
	$(CTEST) --test-dir build-tsan --output-on-failure -j$(JOBS) -L tsan --no-tests=ignore $(CTEST_ARGS)

# The Python tests start with the linters: ruff (style, bugs) and mypy --strict (types).
test-python: venv all lint-python
	@if [ -d tests/python ] && find tests/python -name 'test_*.py' -o -name '*_test.py' | grep -q .; then \
	  PYTHONPATH=$(CURDIR)/python:$(CURDIR)/tools/conformance$${PYTHONPATH:+:$$PYTHONPATH} ILAN_BUILD_DIR=$(CURDIR)/build \
	    $(VENV)/bin/pytest -q tests/python; \
	else echo "test-python: no Python tests, skipping"; fi

# GCC 12's own libgomp testsuite (C and C++ run tests), each binary run on libgomp
# and on ilan: one line per test ilan breaks, then 'N passed, N failed, N skipped'.
# Fetches Debian's gcc-12 source once into build/conformance. See docs/HACKING.md.
conformance: all
	PYTHONPATH=$(CURDIR)/tools/conformance python3 -m gomp_conformance \
	  --runtime-lib $(CURDIR)/build/lib --jobs $(JOBS) $(CONFORMANCE_ARGS)

lint-python: venv
	$(VENV)/bin/ruff check --config python/pyproject.toml python tests/python tools/check_layers.py tools/compare_builds.py tools/instr_overhead.py
	$(VENV)/bin/mypy --config-file python/pyproject.toml python/ilan

# Installs under PREFIX (lib/ilan/, bin/ilan, include, pkg-config, CMake, man):
# see "Installing" in README.md. Nothing replaces the system's libgomp unless
# the build is configured with -DILAN_REPLACE_SYSTEM_LIBGOMP=ON.
install: all
	$(CMAKE) --install build --prefix $(PREFIX)

# The ilan tool (python/ilan) runs the benchmarks: see bench/README.md.
bench: venv all
	$(VENV)/bin/ilan bench $(BENCH_ARGS)

# Everything a fresh machine needs, then the quick benchmark of every kernel
# on every runtime: a table on stdout, the JSON and chart in bench/results/.
demo: venv all
	$(VENV)/bin/ilan bench --quick $(BENCH_ARGS)

# The venv holds the ilan tool (editable, with matplotlib) and its dev tools:
# pytest, mypy, ruff (the [dev] extra of python/pyproject.toml).
venv: $(VENV)/.stamp
$(VENV)/.stamp: python/pyproject.toml
	@tools/install-deps.sh
	test -x $(VENV)/bin/python || python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q -e 'python/[dev]'
	touch $@

clean:
	rm -rf build build-debug build-tsan
