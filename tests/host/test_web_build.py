"""The web site's parts that need no browser: what make web lays out (the same files a deploy
sends), the board file, the script language copied out of the simulator, and the studio's
source reader and checks, on CPython against the command line and on the MicroPython unix
port (the interpreter family the page runs)."""

import importlib
import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware import board as board_file
from hardware.ring import sector_leds

from host_tools.cli.main import main
from host_tools.device import deploy
from host_tools.device.files import ROOT, board_path
from host_tools.errors import UserError
from host_tools.set_files import parse_source
from host_tools.sim import simulator
from host_tools.tools import micropython_path
from host_tools.web import build
from running import line_matching, run

PAGE_PY = os.path.join(ROOT, "host_tools", "web", "py")
sys.path.insert(0, PAGE_PY)
sourcefile = importlib.import_module("sourcefile")    # the page's module, run here on CPython

JAZZ = os.path.join(ROOT, "core", "meldsets", "jazz.json")


def _site(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("web") / "site")
    report = build.build(out, progress=lambda line: None)
    with open(os.path.join(out, "site.json")) as f:
        return out, report, json.load(f)


@pytest.fixture(scope="module")
def site(tmp_path_factory, web_runtime):
    try:
        return _site(tmp_path_factory)
    except UserError as err:
        if os.getenv("CI") == "true":
            raise
        pytest.skip(str(err))


def _unbundle(folder, name, table):
    with open(os.path.join(folder, name), "rb") as f:
        data = f.read()
    return {path: data[at:at + size] for path, at, size in table}


def test_the_flash_is_what_a_deploy_sends(site):
    out, report, manifest = site
    flash = _unbundle(out, "flash.bin", manifest["flash"]["files"])
    compiled = manifest["flash"]["compiled"]
    assert compiled and manifest["runtime"]["mpy"] == "%d.%d" % deploy.mpy_cross_version()
    assert flash == dict(deploy.payload("web", compiled))
    assert "hardware/web_pins.mpy" in flash and "hardware/web_parts.mpy" in flash
    assert json.loads(flash["board.json"])["platform"] == "web"
    assert flash["melds/default.cwm"][:4] == b"CWMS"
    board = board_file.load(board_path("web"))
    # The board file, with the ring's sector-to-LED mapping the page's frames read
    # (hardware/ring.py: one mapping for the firmware, the simulator and the page).
    assert manifest["board"] == dict(board, ring=dict(board["ring"],
                                                      sector_leds=sector_leds(board["ring"])))
    for name in ("index.html", "main.js", "runtime/micropython.mjs", "runtime/micropython.wasm"):
        assert os.path.exists(os.path.join(out, name))
    assert report["bytes"] == build.site_size(out)
    # Laptop-only code never reaches the board's flash; the page's laptop side has it.
    host = _unbundle(out, "host.bin", manifest["host"])
    assert "core/meldset_compiler.py" not in flash and "core/meldset_compiler.mpy" not in flash
    # Compiled as the flash is: a page load compiles no Python.
    assert {"core/meldset_compiler.mpy", "core/parse.mpy", "sourcefile.mpy", "studio.mpy",
            "script.mpy"} <= set(host)
    assert not [name for name in host if name.endswith(".py")]
    assert all(data[:2] == b"M\x06" for name, data in host.items() if name.endswith(".mpy"))


def test_the_installers_files_are_what_deploy_sends(site):
    from host_tools.device import link
    out, _, manifest = site
    kit = manifest["install"]
    assert kit["mpy"] == "%d.%d" % deploy.mpy_cross_version()
    assert [b["board"] for b in kit["boards"]] == ["pico", "esp32"]
    for board in kit["boards"]:
        files = _unbundle(out, board["bundle"], board["files"])
        assert files == dict(deploy.payload(board["board"], compiled=True)), board["board"]
        assert (board["implementation"], tuple(board["reports"])) == \
            deploy.PLATFORM_REPORTS[board["platform"]]
        assert json.loads(files["board.json"])["board"] == board["board"]
    # What the page asks the board first is what deploy asks (link.info).
    assert manifest["device"]["info"] == link.INFO
    assert manifest["device"]["listen_s"] == link.LISTEN_S


def test_the_device_code_is_the_command_lines(site):
    from firmware import layout
    from host_tools.device import link, target
    device = site[2]["device"]
    assert device["call"] == target.CALL and device["hashes"] == link._HASHES
    assert device["maintenance_path"] == layout.MAINTENANCE_PATH == "maintenance"
    assert device["write_chunk"] == link.WRITE_CHUNK and device["meld_dir"] == layout.MELD_DIR
    # The set names' rules, as the device and the laptop read them (the flasher's check).
    assert device["set_name_chars"] == layout.SET_NAME_CHARS == "abcdefghijklmnopqrstuvwxyz" \
        "0123456789-_"
    assert device["set_name_max"] == layout.MAX_SET_NAME == 24
    assert device["default_set"] == layout.DEFAULT_SET == "default"
    # Why a flash refuses the default set: the command line's words (set_files), which the
    # page's studio says from here.
    from host_tools import set_files
    assert device["flash_refused"] == set_files.flash_problem("default")
    assert device["flash_refused"].startswith("the set named 'default' comes with the firmware")


def test_the_web_board_file():
    board = board_file.load(board_path("web"))
    assert board["platform"] == "web" and board["encoder"]["driver"] == "web"
    # The sim board's ring mapping: the page decodes real wire bytes, as the simulator does.
    sim = board_file.load(board_path("sim"))
    assert board["ring"] == sim["ring"] and board["button"] == sim["button"]
    assert board["display"] == sim["display"] and board["buzzer"] == sim["buzzer"]
    _, problems = board_file.validate(dict(json.load(open(board_path("web"))),
                                           encoder={"driver": "pio", "pin_a": None,
                                                    "pin_b": None}))
    assert ("encoder.driver", "'pio' is not an encoder driver for platform 'web' (web)") \
        in problems


SCRIPTS = ["cw 3; click; ccw 1; double; long; wait 200", "", "cw; ccw 2\nclick;;release",
           "press; wait 3600000; release", "cw x", "wait 3600001", "jump", "click 2",
           "CW 2; Wait 5", "long; double"]


def test_the_script_language_is_the_simulators(tmp_path):
    path = tmp_path / "script.py"
    path.write_text(build.script_language())
    namespace = {}
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    button = board_file.load(board_path("web"))["button"]
    for script in SCRIPTS:
        try:
            expected = simulator.compile_script(script, button)
        except UserError as err:
            expected = str(err)
        try:
            got = namespace["compile_script"](script, button)
        except namespace["UserError"] as err:
            got = str(err)
        assert got == expected, script


# ---- the studio's source reader: the command line's messages --------------------------------

def _host(data):
    try:
        return parse_source(data, "x.json")
    except UserError as err:
        return "error: " + str(err)


def _page(data):
    try:
        return sourcefile.parse_source(data, "x.json")
    except sourcefile.SourceError as err:
        return "error: " + str(err)


CASES = [b"", b" ", b"[", b"{", b'{"a"', b'{"a":', b'{"a":1', b'{"a":1,', b"[1,]",
         b'{"a":1,}', b'"\\u"', b'"\\u12345"', b'"abc', b'"\\ud834\\udd2b"', b'"\\ud834x"',
         b"-", b"[-]", b"1 2", b"tru", b"[1e]", b"[1e+5]", b"[.5]", b'"\x01"', b"\xef\xbb\xbf{}",
         b"\xff", b"abc\xc3", b'{"x": NaN}', b"[Infinity]", b"[-Infinity]", b"[01]",
         b'{"a":1,"a":{"b":2,"b":3}}', b'{"a":{"b":2,"b":3}, }', b'"\\q"', b"[1.5e400]",
         "{\"n\": \"E\u266d \U0001d12b\"}\n  ,".encode()]


def test_the_source_reader_says_what_the_command_line_says():
    # (CPython 3.13 added "Illegal trailing comma" messages; the page reads as 3.9-3.12 do.)
    cases = CASES if sys.version_info < (3, 13) else [c for c in CASES if b",]" not in c
                                                      and b",}" not in c]
    for data in cases:
        assert _page(data) == _host(data), data


JSON_BYTES = st.sampled_from(list(b'{}[]:,"\\ \n\tu0123456789abcdefE+-.ntrfaNIy') + [
    0, 1, 0x1F, 0x7F, 0xC3, 0xA9, 0xE2, 0x99, 0xAD, 0xFF, 0xED, 0xA0, 0x80, 0xF0, 0x9D])


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_mutated_meld_sets_read_alike(data):
    with open(JAZZ, "rb") as f:
        source = bytearray(f.read()[:data.draw(st.integers(0, 1700))])
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(source)))
        if data.draw(st.booleans()) and source:
            del source[at:at + data.draw(st.integers(1, 3))]
        else:
            source[at:at] = bytes([data.draw(JSON_BYTES)])
    source = bytes(source)
    if sys.version_info >= (3, 13):
        for trailing in (b",]", b",}", b", ]", b", }"):
            source = source.replace(trailing, b"]")
    assert _page(source) == _host(source)


# ---- the studio's checks on MicroPython, against `chromawheel meldset validate` --------------

BAD_SETS = {
    "degree.json": '{"format": "chromawheel-meldset", "version": 1, "name": "bad", "melds": ['
                   '{"id": "x", "name": "x chord", "kind": "chord", "degrees": ["1", "b4"]}]}',
    "fields.json": '{"format": "chromawheel-meldset", "version": 2, "name": "Bad Name", '
                   '"melds": [{"id": "x", "kind": "triad", "degrees": ["1", "3", "(5)"]}, 7],'
                   ' "extra": 1}',
    "syntax.json": '{"format": "chromawheel-meldset",\n  "version": 1\n  "name": "x"}',
    "dupes.json": '{"name": "a", "name": "b"}',
    "default.json": open(os.path.join(ROOT, "core", "meldsets", "default.json")).read(),
    "jazz.json": open(JAZZ).read(),
}


def cli_lines(capsys, path):
    code = main(["meldset", "validate", path])
    out, err = capsys.readouterr()
    lines = (out + err).splitlines()
    return code, [line[len("error: "):] if line.startswith("error: ") else line
                  for line in lines]


def test_the_studio_on_micropython_says_what_validate_says(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name, text in BAD_SETS.items():
        (tmp_path / name).write_text(text)
    host = tmp_path / "host"
    for rel in build.HOST_CORE:
        (host / os.path.dirname(rel)).mkdir(parents=True, exist_ok=True)
        (host / rel).write_bytes(open(os.path.join(ROOT, rel), "rb").read())
    for name in sorted(os.listdir(PAGE_PY)):          # as the build bundles them
        if name.endswith(".py"):
            (host / name).write_bytes(open(os.path.join(PAGE_PY, name), "rb").read())
    program = ("import sys, json\nsys.path.insert(0, 'host')\nimport studio\n"
               "for name in %r:\n    print(studio.check(name, name))\n" % sorted(BAD_SETS))
    proc = run([micropython_path(), "-c", program], timeout=120, expect=0)
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    for name, answer in zip(sorted(BAD_SETS), answers):
        code, lines = cli_lines(capsys, name)
        assert answer["lines"] == lines, name
        assert answer["valid"] == (code == 0), name
    valid = dict(zip(sorted(BAD_SETS), answers))
    # The page says why a flash would refuse the default set, from site.json's device section.
    assert valid["default.json"]["valid"] and valid["default.json"]["refused"] is None
    assert valid["jazz.json"]["refused"] is None and valid["jazz.json"]["melds"] == 47


def test_the_web_clock_is_the_simulators_in_small_ints(monkeypatch):
    """hardware/web_pins.py's virtual clock gives SimClock's ticks (the frames depend on them),
    in arithmetic that makes no long int on the page's 32-bit MicroPython."""
    import random
    import types
    for name in ("webpins", "uctypes"):        # the page's modules: the board boundary
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch.delitem(sys.modules, "hardware.web_pins", raising=False)
    from hardware.sim import SimClock
    from hardware.web_pins import WebClock
    monkeypatch.delitem(sys.modules, "hardware.web_pins")
    rng = random.Random(5)
    web, sim = WebClock(), SimClock()
    web.virtual = sim.virtual = True
    for _ in range(20000):
        step = rng.choice([0, 1, 10, 20, 999, rng.randrange(1 << 31)])
        web.advance(step)
        sim.advance(step)
        assert (web.ticks_ms(), web.ticks_us()) == (sim.ticks_ms(), sim.ticks_us())
        assert -(1 << 30) <= web.ticks_us() < (1 << 30)       # a small int on a 32-bit port


def test_the_web_clocks_real_time_counts_a_stall_as_a_short_gap(monkeypatch):
    """A page the browser stalls for a second moves the firmware's real-time clock only
    MAX_GAP_MS, ms and us alike: a queued click (press, 70 ms, release) stays a click."""
    import importlib
    import types
    for name in ("webpins", "uctypes"):        # the page's modules: the board boundary
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch.delitem(sys.modules, "hardware.web_pins", raising=False)
    web_pins = importlib.import_module("hardware.web_pins")      # on these modules
    monkeypatch.delitem(sys.modules, "hardware.web_pins")
    real = [(1 << 30) - 3000]                  # the real ms, 3 s before they wrap
    monkeypatch.setattr(web_pins, "ticks_ms", lambda: real[0])
    monkeypatch.setattr(web_pins, "ticks_us", lambda: real[0] * 1000 % (1 << 30))
    clock = web_pins.WebClock()
    readings = []
    for gap in (10, 10, 1000, 10, 20, 5000, 10):
        real[0] = (real[0] + gap) % (1 << 30)
        readings.append((clock.ticks_ms(), clock.ticks_us()))
    ms = [r[0] for r in readings]
    assert [(b - a) % (1 << 30) for a, b in zip(ms, ms[1:])] == [10, 100, 10, 20, 100, 10]
    assert all(us == m * 1000 % (1 << 30) for m, us in readings)
    # The page's queue waits in that clock: a 70 ms press held up by a 1 s stall is 100 ms.
    link = web_pins.WebLink.__new__(web_pins.WebLink)
    web_pins.CommandQueue.__init__(link, clock, None, None, 10)
    link._wait(70)
    real[0] += 1000
    assert not link._waiting(True)
    assert (clock.ticks_ms() - ms[-1]) % (1 << 30) == 100


def test_a_tap_on_the_page_between_two_passes_is_still_a_press(monkeypatch):
    """In real time a button edge ends a pass's commands: a press and its release that both
    reached the board since the last pass are seen one pass apart (a pass every 20 ms once
    the wheel rests deeply). In virtual time a script's commands go as the simulator's."""
    import importlib
    import types
    for name in ("webpins", "uctypes"):        # the page's modules: the board boundary
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch.delitem(sys.modules, "hardware.web_pins", raising=False)
    web_pins = importlib.import_module("hardware.web_pins")
    monkeypatch.delitem(sys.modules, "hardware.web_pins")
    from hardware.sim import SimButton
    for virtual, seen in ((False, [True, False, False]), (True, [False, False, False])):
        queued = [web_pins.PRESS, web_pins.RELEASE]
        sys.modules["webpins"].next = lambda queued=queued: queued.pop(0) if queued else 0
        clock = web_pins.WebClock()
        clock.virtual = virtual
        button = SimButton({"pin": 0})
        link = web_pins.WebLink(clock, None, button, 10)
        downs = []
        for _ in range(3):
            link.poll()
            downs.append(button.pressed())
        assert downs == seen, virtual


def test_the_web_command_builds_serves_and_says_where(capsys, site):
    import signal
    import urllib.request
    assert main(["web", "--set", "x.json"]) == 2
    assert main(["web", "--port", "70000"]) == 2
    assert capsys.readouterr().err.splitlines() == [     # an option only where it is used
        "error: unrecognized arguments: --set x.json (see 'chromawheel --help')",
        "error: --port 70000: 0 to 65535"]
    exe = os.path.join(os.path.dirname(sys.executable), "chromawheel")
    proc = subprocess.Popen([exe, "web", "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        built = line_matching(proc, ".+").group(0)            # its first two lines
        serving = line_matching(proc, ".+").group(0)
        assert built.startswith("built build/web: ") and "firmware files" in built, built
        assert serving.startswith("ChromaWheel at http://127.0.0.1:"), serving
        url = serving.split()[2]
        with urllib.request.urlopen(url, timeout=30) as page:
            assert b"Meld-set studio" in page.read()
        with urllib.request.urlopen(url + "runtime/micropython.wasm", timeout=30) as wasm:
            assert wasm.headers["Content-Type"] == "application/wasm"
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=10)
    assert proc.returncode == 0 and proc.stderr.read() == ""


def test_a_build_without_the_build_tools_says_what_to_run(monkeypatch):
    """markdown-it-py is a build tool (requirements-dev): a checkout set up for running only
    (make sim) that builds the site is told to run make web, not shown an internal error."""
    importlib.import_module("host_tools.web.markdown")    # as another test of the run may have
    monkeypatch.setitem(sys.modules, "markdown_it", None)        # import fails as if absent
    monkeypatch.delitem(sys.modules, "host_tools.web.markdown", raising=False)
    with pytest.raises(UserError, match=r"markdown-it-py.*run: make web"):
        build._markdown()
