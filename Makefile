# ChromaWheel developer commands. Everything runs from the project's own .venv.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# make test's pytest workers: one a core.
WORKERS ?= $(shell nproc 2>/dev/null || echo 2)
STAMP := $(VENV)/.installed
# pytest rewrites the asserts of every test module it imports (about 8 s of a run here) and
# keeps the result beside the module's bytecode, unless PYTHONDONTWRITEBYTECODE is set in the
# caller's environment: the test runs clear it (caches stay git-ignored).
PYTEST := PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: setup test check lint test-core-mpy sim bench package lock clean uf2 uf2-frozen stl web web-screenshot dist pictures

# The main job: the firmware in the simulator (keys in a terminal; a demo otherwise). It needs
# only what running needs (requirements.txt: about 45 MB), not the test tools.
sim: $(STAMP)
	$(BIN)/chromawheel sim

# Outside libraries for the devices (Adafruit's bundle modules, for CircuitPython boards),
# pinned by checksum in host_tools/device/libs.py and fetched from PyPI once.
DEVICE_LIBS := build/device-libs/.fetched
# The Python side: what make check needs (it installs nothing from npm but the JS linter).
PY_SETUP := $(STAMP) $(DEV_STAMP) $(DEVICE_LIBS)
# The emulated RP2040 too when Node.js is there (`chromawheel emulate`, make bench); make test
# needs it and says so.
setup: $(PY_SETUP)
	@if command -v npm >/dev/null; then $(MAKE) --no-print-directory $(EMULATOR) $(WEB_RUNTIME); \
	else echo "note: no Node.js/npm: 'chromawheel emulate' and make test need Node.js 18+ and npm (Debian: apt-get install nodejs npm)"; fi

$(DEVICE_LIBS): host_tools/device/libs.py $(STAMP)
	$(BIN)/python -m host_tools.device.libs
	touch $@

# pip byte-compiles every module it installs unless told not to: thousands never imported
# (pygments' lexers, fontTools' tables, mypy's own sources); Python compiles what a run imports
# as it first imports it. A fresh clone's setup, both files: 20.5 s, not 33 (load average 7).
PIP := $(BIN)/python -m pip install --quiet --disable-pip-version-check --no-compile

# Rebuilt only when the pins or the package description change, so a second run is instant.
$(STAMP): requirements.txt pyproject.toml setup.py
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP) -r requirements.txt
	$(PIP) --no-deps --no-build-isolation -e .
	touch $@

# The test and build tools (pytest, playwright, mypy, build, ...) on top.
$(DEV_STAMP): requirements-dev.txt $(STAMP)
	$(PIP) -r requirements-dev.txt
	touch $@

# The emulated RP2040 (npm rp2040js, pinned by its lock file) that the tests boot the real ports in.
EMULATOR := host_tools/emulator/rp2040js/node_modules/.installed
$(EMULATOR): host_tools/emulator/rp2040js/package-lock.json
	@command -v npm >/dev/null || { echo "The RP2040 emulator in the tests needs Node.js 18+ and npm (Debian: apt-get install nodejs npm)"; exit 1; }
	npm ci --prefix host_tools/emulator/rp2040js --silent --no-audit --no-fund
	touch $@

# The pinned MicroPython WebAssembly runtime (npm, host_tools/web/package-lock.json) the page runs.
WEB_RUNTIME := host_tools/web/node_modules/.installed
$(WEB_RUNTIME): host_tools/web/package-lock.json
	@command -v npm >/dev/null || { echo "The web page's MicroPython WebAssembly comes from npm: install Node.js 18+ and npm (Debian: apt-get install nodejs npm)"; exit 1; }
	npm ci --prefix host_tools/web --silent --no-audit --no-fund
	touch $@

# The JavaScript linter (Biome, configured in biome.json), pinned by a lock file of its own: the
# one npm package the fast tier installs (make check's other tools are Python's and Node's own).
JS_LINT := host_tools/web/lint/node_modules/.installed
BIOME := host_tools/web/lint/node_modules/.bin/biome
$(JS_LINT): host_tools/web/lint/package-lock.json
	@command -v npm >/dev/null || { echo "make lint and make check lint the page's JavaScript with Biome from npm: install Node.js 18+ and npm (Debian: apt-get install nodejs npm)"; exit 1; }
	npm ci --prefix host_tools/web/lint --silent --no-audit --no-fund
	touch $@

# The wheel in a browser: the static site in build/web (chromawheel web serves it).
web: setup $(WEB_RUNTIME)
	$(BIN)/chromawheel web --build-only

# The README's picture of the page, taken by headless Chromium from the built site.
web-screenshot: web
	$(BIN)/python -m host_tools.web.screenshot

# Everything (the core cases on the MicroPython unix port are one of the tests), a worker on
# each core: the tests that share a module's fixture (a board, a browser) go to
# one worker together, the others one by one, the slowest rigs first (tests/conftest.py).
test: setup $(EMULATOR) $(WEB_RUNTIME)
	$(PYTEST) -n $(WORKERS) --dist loadgroup --no-loadscope-reorder --durations=15

# The fast tier, for each change: the linters first (make lint), then the core cases on both
# interpreters and every test that needs no board in a subprocess, no emulator and no browser
# (tests/conftest.py marks those), and the unit tests of the page's pure modules under Node's
# own test runner (tests/js). Of npm it installs only the JS linter: the emulator and the web
# runtime are make test's.
check: $(PY_SETUP) lint
	node --test tests/js/
	$(PYTEST) -m "not board" -n $(WORKERS)

# The linters: ruff (configured in pyproject.toml: every Python file of the project) and Biome
# (biome.json: the page's JavaScript, the tests', the emulator's).
lint: $(DEV_STAMP) $(JS_LINT)
	$(BIN)/ruff check .
	$(BIOME) lint --error-on-warnings

# The core cases on the MicroPython unix port alone (make test and make check run them as a
# test beside the others: tests/host/test_core_on_micropython.py).
test-core-mpy: setup
	$(PYTEST) -p no:xdist tests/host/test_core_on_micropython.py

# The wheel and the sdist in dist/, the built web site inside them (pipx install dist/*.whl).
dist: setup web
	rm -rf dist build/lib build/bdist.*   # setuptools leaves build/lib: stale files would ship
	$(BIN)/python -m build --no-isolation --sdist --wheel --outdir dist . >build/dist.log 2>&1 || { tail -20 build/dist.log; exit 1; }
	@ls -l dist

# package.json for `mpremote mip install`, and the compiled default set it installs.
package: setup
	$(BIN)/python -m host_tools.builds.package

# One UF2 for makers, no compiler needed: the stock MicroPython for the Pico with the firmware,
# its libraries and the default board file on its drive (build/uf2/chromawheel-pico.uf2). It
# needs only what running needs (requirements.txt, with littlefs-python): no test tools, no npm.
uf2: $(STAMP)
	$(BIN)/python -m host_tools.builds.littlefs_uf2 -o build/uf2/chromawheel-pico.uf2

# The same with the firmware frozen in (needs the ARM toolchain; see the script).
uf2-frozen: setup
	host_tools/builds/build_uf2.sh frozen

# The enclosure's four parts for the Pico and the 12-LED ring, and the knob (knob.stl), as STL
# (needs openscad, and only what running needs: no test tools, no npm).
stl: $(STAMP)
	$(BIN)/python -m host_tools.builds.enclosure --stl build/stl --board pico --ring-leds 12

# A PNG and a PDF of every wiring picture and of each shipped board's faceplate (the faceplate's
# PDF at 1:1), in build/pictures/, rendered by headless Chromium (apt-get install chromium)
# through Playwright: copies that print anywhere.
pictures: $(DEV_STAMP)
	$(BIN)/python -m host_tools.builds.pictures -o build/pictures

bench: setup
	$(PIP) -r requirements-bench.txt
	$(BIN)/python -m host_tools.bench

# Re-pin requirements*.txt from requirements*.in in throw-away environments (the dev file holds
# what requirements-dev.in adds to requirements.txt).
lock:
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/pip install --quiet -r requirements.in
	{ echo "# Generated by 'make lock' from requirements.in: every package pinned. Do not edit by hand."; \
	  .lock-venv/bin/pip freeze --all | grep -v '^pip=='; } > requirements.txt
	.lock-venv/bin/pip install --quiet -r requirements-dev.in
	{ echo "# Generated by 'make lock' from requirements-dev.in: what it adds to requirements.txt, every"; \
	  echo "# package pinned. Do not edit by hand."; \
	  .lock-venv/bin/pip freeze --all | grep -v '^pip==' | grep -vxF -f requirements.txt; } > requirements-dev.txt
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/pip install --quiet -r requirements-bench.in
	{ echo "# Generated by 'make lock' from requirements-bench.in. Do not edit by hand."; \
	  .lock-venv/bin/pip freeze | grep -v '^pip=='; } > requirements-bench.txt
	rm -rf .lock-venv

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis host_tools/emulator/rp2040js/node_modules \
	  host_tools/web/node_modules host_tools/web/lint/node_modules
	find . -name __pycache__ -prune -exec rm -rf {} +
