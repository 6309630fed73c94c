"""Two tiers (docs/testing.md says which to run when), sorted by what a test uses, never by a
list of file names. A test that starts a rig requests the rig's fixture below (directly, through
another fixture, or with `pytestmark = pytest.mark.usefixtures(...)` for a whole module); that
marks it `board` and the rig's own marker, and `make check` (`-m "not board"`) leaves it out.

A guard makes the sorting hold: while a test runs, starting a rig it did not request (the
emulated RP2040 or the browser on Node.js, Chromium, OpenSCAD, the firmware on the unix port
as the simulator or the virtual board, a `chromawheel sim|vboard|emulate` process) fails at the
launch, in either tier: Python's audit hook sees each subprocess started (its
`subprocess.Popen` event), nothing is patched. tests/host/test_tiers.py holds the guard to that
and docs/testing.md to the tiers the collection gives."""

import json
import os
import sys
import threading

import pytest

# rig fixture -> its marker (each also gets `board`)
RIGS = {
    "emulator": "emulator",         # the emulated RP2040 (rp2040js on Node.js)
    "chromium": "browser",          # headless Chromium through Playwright (below)
    "openscad": "openscad",         # Debian's openscad rendering the enclosure
    "simulator": "simulator",       # the firmware on the unix port: simulator or virtual board
    "wheel_install": "install",     # a wheel built and installed into a fresh venv
    "port_stubs": "stubs",          # each port's published stubs (fetched from PyPI once) + mypy
    "web_runtime": "site",          # the page built with its MicroPython WebAssembly (Node.js)
    "soak": "soak",                 # thousands of seeded runs (minutes of CPU, no rig)
}
_requested = None                   # the rig markers the running test asked for (None: no test)

try:
    # A property test's verdict is its property, not how fast a loaded machine ran one example
    # (hypothesis's 200 ms deadline failed under two workers and four other test runs).
    from hypothesis import settings as _hypothesis
    _hypothesis.register_profile("chromawheel", deadline=None)
    _hypothesis.load_profile("chromawheel")
except ImportError:
    pass


class RigNotRequested(AssertionError):
    pass


@pytest.fixture(scope="session")
def emulator():
    """The emulated RP2040: host_tools.emulator.rp2040 (EmulatedPico boots a board)."""
    from host_tools.emulator import rp2040
    return rp2040


@pytest.fixture(scope="session")
def deployed_image(emulator):
    """deployed_image(board name): the path of that board's flash with the firmware deployed
    (emulate.deployed_image: laid out on the host, under a second, and cached), for a test to
    copy and boot. The first answer holds for the session: a file edited while the tests run
    does not make every later test lay it out again."""
    from host_tools.emulator import emulate
    images = {}

    def made(name):
        if name not in images:
            images[name] = emulate.deployed_image(name, progress=lambda line: None)
        return images[name]
    return made


@pytest.fixture(scope="session")
def openscad():
    """The OpenSCAD on the PATH (None without one: the test says what to install)."""
    import shutil
    return shutil.which("openscad")


@pytest.fixture(scope="session")
def simulator():
    """The firmware on the MicroPython unix port: host_tools.sim.simulator (run_script,
    Firmware) and the virtual board (host_tools.sim.vboard) beside it."""
    from host_tools.sim import simulator
    return simulator


@pytest.fixture(scope="session")
def wheel_install():
    """A wheel built from the checkout and installed into a fresh venv (test_install.py)."""
    return True


@pytest.fixture(scope="session")
def web_runtime():
    """The page's build (host_tools.web.build), which runs its WebAssembly runtime on Node.js."""
    from host_tools.web import build
    return build


@pytest.fixture(scope="session")
def soak():
    """A soak: thousands of seeded games or runs, minutes of CPU. Nothing to start, but too
    long for make check; the hand-worked cases of tests/core/ stand for it there."""
    return True


def unavailable(why):
    """A rig this machine lacks: the test is skipped saying what to install; under CI=true a
    skip is a failure."""
    if os.getenv("CI") == "true":
        pytest.fail("the browser tests cannot run under CI: " + why)
    pytest.skip(why)


# The browser's fixtures live here, not in a module the tests import: a test file importing a
# fixture module under a second name (tests.host.browser_fixtures beside browser_fixtures)
# made a second fixture and a second Chromium. They are per session (a worker's), not per
# module: a module-scoped fixture makes its file one unit of make test's scheduler (below),
# so test_web_studio.py's forty tests would run one after another on one worker. Playwright's
# sync API runs one at a time in a thread.
@pytest.fixture(scope="session")
def chromium():
    """The worker's headless Chromium (Playwright, host_tools.web.browser), or a skip saying
    what to install. With --process-per-site the pages of one site in one browser context
    share a renderer process (new_page below keeps one alive)."""
    from host_tools.errors import UserError
    from host_tools.web import browser
    if browser.chromium_path() is None:
        unavailable(browser.INSTALL)
    try:
        with browser.chromium(args=["--process-per-site"]) as chrome:
            yield chrome
    except UserError as err:
        unavailable(str(err))


# What a page cannot set for itself (its viewport it can): one browser context for each.
CONTEXT_OPTIONS = ("has_touch", "is_mobile", "device_scale_factor")


@pytest.fixture(scope="session")
def _site_contexts(chromium, site):
    """The worker's browser contexts, one for each set of CONTEXT_OPTIONS, each holding a page
    of the site (its icon) open for the session: so the renderer process of the site's pages
    stays up and warm between tests. A fresh context started a fresh renderer for every test,
    which spent about 0.8 of a page load's 2.3 CPU seconds warming up (Chromium's own caches;
    a blank page's load costs 0.6 in a fresh context, 0.3 in a warm one). Service workers
    are blocked there: the page's offline copy is test_the_page_installs_and_runs_offline's
    business, in a context of its own; installed for every test, it fetched the whole site
    again (1.1 MB) at about 0.25 CPU s a page."""
    contexts = {}
    yield contexts
    for context, _ in contexts.values():
        context.close()


@pytest.fixture
def new_page(chromium, site, _site_contexts):
    """new_page(viewport=..., has_touch=..., is_mobile=..., device_scale_factor=...): a new page
    at that size, in a browser context with nothing of an earlier test's: before the test's
    first page of a context, everything the browser keeps for the site (local storage, the
    service worker and its caches, IndexedDB, cookies) is cleared and permissions revoked,
    as in a new context. Pages a test opens in one context share its storage, as in one
    browser; with fresh=True the page starts as in a new browser again (the test's earlier
    pages of that context closed first). The test's pages are closed after it."""
    made = []
    cleared = set()

    def new(viewport=None, fresh=False, **options):
        unknown = set(options) - set(CONTEXT_OPTIONS)
        assert not unknown, "new_page cannot set %s for one page" % sorted(unknown)
        options = {"has_touch": bool(options.get("has_touch")),    # Playwright's defaults
                   "is_mobile": bool(options.get("is_mobile")),
                   "device_scale_factor": options.get("device_scale_factor") or 1}
        key = tuple(options[name] for name in CONTEXT_OPTIONS)
        if key not in _site_contexts:
            context = chromium.new_context(service_workers="block", **options)
            keeper = context.new_page()
            keeper.goto(site.url + "icon.svg")
            _site_contexts[key] = (context, keeper)
        context, keeper = _site_contexts[key]
        if fresh:
            assert all(p.is_closed() for p in made if p.context is context), \
                "a fresh page's context must have no other page of the test open"
        if key not in cleared or fresh:
            cleared.add(key)
            cdp = context.new_cdp_session(keeper)
            cdp.send("Storage.clearDataForOrigin", {"origin": site.url.rstrip("/"),
                                                    "storageTypes": "all"})
            cdp.detach()
            context.clear_cookies()
            context.clear_permissions()
        page = context.new_page()
        made.append(page)
        page.set_viewport_size(viewport or {"width": 1280, "height": 720})
        return page
    yield new
    for page in made:
        page.close()


@pytest.fixture(scope="session")
def site(tmp_path_factory, web_runtime):
    """The page built into a temporary folder (its path: `folder`), served locally."""
    from host_tools.errors import UserError
    from host_tools.web.server import SiteServer
    out = str(tmp_path_factory.mktemp("web") / "site")
    try:
        web_runtime.build(out, progress=lambda line: None)
    except UserError as err:
        unavailable(str(err))
    with SiteServer(out) as server:
        server.folder = out
        yield server


@pytest.fixture(scope="session")
def port_stubs():
    """The ports' published stubs and mypy: host_tools.device.port_check."""
    from host_tools.device import port_check
    return port_check


def rig_of(args):
    """Which rig a subprocess command line starts (a marker of RIGS), or None."""
    if isinstance(args, (str, bytes)):
        args = [args]
    args = [os.fsdecode(a) if isinstance(a, bytes) else str(a) for a in args]
    if not args:
        return None
    exe = os.path.basename(args[0])
    if exe in ("node", "nodejs"):
        if any("playwright" in a for a in args):
            return "browser"
        return "site" if "--input-type=module" in args else "emulator"
    if "playwright" in args[0]:
        return "browser"
    if exe.startswith(("chromium", "chrome", "google-chrome", "headless_shell")):
        return "browser"
    if exe == "openscad":
        return "openscad"
    if exe.startswith("micropython"):
        from host_tools.sim import simulator
        if simulator.BOOT in args or any("def _run(name)" in a for a in args) \
                or any(a.endswith("device_faults.py") for a in args):
            return "simulator"
        return None
    if exe == "chromawheel" and len(args) > 1:
        return {"sim": "simulator", "vboard": "simulator", "emulate": "emulator",
                "meldset": None}.get(args[1])
    return None


def _guard(event, args):
    """An audit hook (sys.addaudithook): a subprocess the running test starts is checked
    against the rigs it requested. A fixture's own thread is not the test: a module's emulated
    Pico, alive while a test of its file that does not use it runs, restarts itself from its
    bridge thread after a reset."""
    if event != "subprocess.Popen" or _requested is None \
            or threading.current_thread() is not threading.main_thread():
        return
    command = args[1]
    rig = rig_of(command)
    if rig is not None and rig not in _requested:
        names = [f for f, m in RIGS.items() if m == rig]
        shown = command if isinstance(command, (list, tuple)) else [command]
        raise RigNotRequested(
            "this test starts the %s (%s) but does not request its fixture %r: request it "
            "(or `pytestmark = pytest.mark.usefixtures(%r)`) so the tiers sort it"
            % (rig, " ".join(map(str, shown))[:120], names[0], names[0]))


_guarding = []          # an audit hook lasts as long as the process: added once


def pytest_configure(config):
    config.addinivalue_line("markers", "board: starts a rig (any of the markers below): make "
                            "test only, not make check")
    for fixture, marker in RIGS.items():
        config.addinivalue_line("markers", "%s: requests the %r fixture" % (marker, fixture))
    if not _guarding:
        sys.addaudithook(_guard)
        _guarding.append(_guard)


def rigs_of(item):
    return {RIGS[name] for name in getattr(item, "fixturenames", ()) if name in RIGS}


COLLECTED = {}       # node id -> (its rigs, marked board): every test collected, before -m


# `make test` runs with `--dist loadgroup --no-loadscope-reorder`: the tests that share a
# module's fixture (a board deployed once, a browser, a built site, an installed wheel) carry
# their file as their `xdist_group`, so they stay together on one worker; every other test is a
# unit of its own, so one long file's independent tests spread over the workers. The units
# start in the order of the items (no reorder), which is here the order of their rigs, the
# slowest first, so no long one is left to run alone at the end.
SLOW_FIRST = ("emulator", "browser", "install", "soak", "site", "openscad", "simulator", "stubs")


def _shares_a_module_fixture(item):
    info = getattr(item, "_fixtureinfo", None)
    for name in getattr(item, "fixturenames", ()):
        defs = info.name2fixturedefs.get(name) if info else None
        if defs and defs[-1].scope in ("package", "module", "class"):
            return True
    return False


def _schedule(items):
    """Group and order the items for `--dist loadgroup`: the tests that share a module fixture
    get their file as their xdist_group; the items are put in the order the units are to start
    (by their slowest rig), each unit's tests together and in their file's order."""
    units = []
    for item in items:
        unit = item.nodeid
        if _shares_a_module_fixture(item):
            unit = item.nodeid.split("::")[0]
            item.add_marker(pytest.mark.xdist_group(unit))
        rigs = rigs_of(item)
        rank = min([SLOW_FIRST.index(r) for r in rigs if r in SLOW_FIRST] or [len(SLOW_FIRST)])
        units.append((unit, rank, item))
    first, best = {}, {}
    for at, (unit, rank, _) in enumerate(units):
        first.setdefault(unit, at)
        best[unit] = min(rank, best.get(unit, rank))
    order = sorted(first, key=lambda u: (best[u], first[u]))
    place = {unit: at for at, unit in enumerate(order)}
    units.sort(key=lambda u: place[u[0]])         # (stable: a unit's tests in file order)
    items[:] = [item for _, _, item in units]


def _loadgroup(config):
    """A worker of `--dist loadgroup`: xdist's own flag on its workers (where `dist` is
    "no"), which its collection reads too."""
    return bool(config.getoption("loadgroup", False))


@pytest.hookimpl(wrapper=True)      # before every other plugin's (-m deselects after it; a
def pytest_collection_modifyitems(config, items):     # worker's xdist reads the groups after)
    if _loadgroup(config):
        _schedule(items)
    tiers = {}
    for item in items:
        rigs = rigs_of(item)
        for marker in sorted(rigs):
            item.add_marker(marker)
        if rigs:
            item.add_marker(pytest.mark.board)
        tiers[item.nodeid] = sorted(rigs)
        COLLECTED[item.nodeid] = (sorted(rigs), item.get_closest_marker("board") is not None)
    out = os.getenv("CHROMAWHEEL_TIERS_OUT")       # tests/host/test_tiers.py reads them
    if out:
        with open(out, "w") as f:
            json.dump(tiers, f)
    return (yield)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """xdist 3.8 hands a test's group to its scheduler in the test's id (`...::test@group`);
    pytest 9.2 no longer lets it change the id (pytest-dev/pytest-xdist#1386), and the groups
    would silently spread over the workers: each such test fails, saying so."""
    if _loadgroup(item.config) and item.get_closest_marker("xdist_group") \
            and "@" not in item.nodeid:
        pytest.fail("--dist loadgroup does not group with this pytest-xdist and pytest (see "
                    "pytest-dev/pytest-xdist#1386): pin the versions of requirements-dev.in",
                    pytrace=False)


def pytest_collection_finish(session):
    """What the session has built by now (pytest, the plugins, every test module) lives to the
    end: moved out of the collector's way. The firmware collects at each mode load and boot
    step, as on a device; on CPython a full collection also walked these few hundred thousand
    objects, about 38 ms each time (test_kept_state: 2.2 s of 2.6 s in gc.collect)."""
    import gc
    gc.collect()
    gc.freeze()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    global _requested
    _requested = rigs_of(item)
    try:
        yield
    finally:
        _requested = None
