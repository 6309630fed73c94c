"""The wheel in a real browser: headless Chromium loads the built site (make web), the
unmodified firmware runs on MicroPython WebAssembly with board `web`, a script gives the
simulator's frames, the studio shows the validator's messages, and the flasher's code, with
navigator.serial stood in for by a port bridged over a WebSocket to the emulated Pico's USB
serial (the real rp2 port), flashes a set that the board then lists and shows after a reset;
a bad set never reaches it.

Without Chromium these tests are skipped with one line saying what to install; under CI=true
a skip is a failure."""

import json
import math
import os
import re
import shutil

import pytest

from core.meldset import MeldSet

from browser_fixtures import console_says, power_up
from conftest import unavailable
from host_tools.cli.main import main
from host_tools.device import deploy
from host_tools.device.files import ROOT
from host_tools.errors import UserError
from host_tools.set_files import compile_file
from host_tools.sim import simulator
from host_tools.web import browser
from host_tools.web.testing.bridge import SerialBridge
from waiting import wait_until

JAZZ = os.path.join(ROOT, "core", "meldsets", "jazz.json")
STAND_IN = os.path.join(ROOT, "host_tools", "web", "testing", "serial_stand_in.js")
MIDI_STAND_IN = os.path.join(ROOT, "host_tools", "web", "testing", "midi_stand_in.js")
ALLOC = os.path.join(ROOT, "host_tools", "web", "testing", "alloc_mpy.py")
ISSUE_SCRIPT = "cw 3; click; ccw 1; double; long; wait 200"
BAD_SET = ('{"format": "chromawheel-meldset", "version": 1, "name": "bad", "melds": [\n'
           '  {"id": "x", "name": "x chord", "kind": "chord", "degrees": ["1", "b4"]},\n'
           '  {"id": "x", "name": "y chord", "kind": "chord", "degrees": ["1", "3", "5"]}]}\n')
# The emulator runs at about a tenth of a Pico's speed: the flasher's waits are stretched.
SLOW_BOARD = 6


if browser.chromium_path() is None:           # one line for the whole file, not one a test
    if os.getenv("CI") == "true":
        pytest.fail("the browser tests cannot run under CI: " + browser.INSTALL, pytrace=False)
    pytest.skip(browser.INSTALL, allow_module_level=True)


@pytest.fixture
def page(new_page, simulator):
    """A new page (tests/conftest.py's new_page: nothing of an earlier test's)."""
    page = new_page(viewport={"width": 1280, "height": 1000})
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    yield page
    assert not errors, errors


def _texts(page, selector):
    return page.eval_on_selector_all(selector, "items => items.map(i => i.textContent)")


# ---- the firmware in the page ---------------------------------------------------------------

def _simulated(script, **options):
    """The simulator's frames and console for `script`, less what the page's board has not: the
    sim board's MIDI jacks ("jacks", the bytes sent on them): a browser has no UART."""
    frames, console = simulator.run_script(script, **options)
    for frame in frames:
        frame.pop("jacks", None)
    return frames, console


def test_a_script_gives_the_simulators_frames(page, site):
    frames = browser.run_script(page, site.url, ISSUE_SCRIPT)
    expected, console = _simulated(ISSUE_SCRIPT)
    assert frames == expected            # wheel, wire bytes, console, display text, tones
    assert page.text_content("#console").splitlines()[1:] == console
    # The ring as the page draws it: C at the top, each LED its pitch class and drive level.
    leds = page.eval_on_selector_all(
        "#ring .led", "items => items.map(i => [i.dataset.pc, i.dataset.rgb])")
    assert leds == [[str(pc), ",".join(map(str, rgb))]
                    for pc, rgb in enumerate(expected[-1]["wheel"])]
    assert page.text_content("#oled-text").splitlines() == expected[-1]["display"]
    assert page.get_attribute("body", "data-script-done") == str(len(expected))


def test_tones_held_buttons_and_long_waits_replay_alike(page, site):
    script = "click; click; wait 1500; cw 13; double; press; wait 2000; release; wait 300"
    assert browser.run_script(page, site.url, script) == _simulated(script)[0]
    frames = browser.run_script(page, site.url, "wait 100", hold=True)
    assert frames == _simulated("wait 100", hold=True)[0]
    lit = [pc for pc, rgb in enumerate(frames[0]["wheel"]) if any(rgb)]
    assert lit == [0, 3, 6, 9]                 # amber quarters (printed after the frame)
    assert "safe mode: button held at power-up" in page.text_content("#console")


def test_midi_in_a_script_gives_the_simulators_frames(page, site):
    """?script= with note-on steps and ?settings=: listen names the chord, as in the
    simulator; MIDI out's messages are on the frames, as in the simulator."""
    listen = {"midi": "both", "mode": "listen"}
    script = "note-on C4 E4 G4; wait 60; pedal down; note-off C4 E4 G4; note-on A3; pedal up"
    frames = browser.run_script(page, site.url, script, settings=listen)
    expected, console = _simulated(script, settings=listen)
    assert frames == expected
    assert "listen: C E G: C major triad (maj)" in page.text_content("#console")
    names = page.eval_on_selector_all(
        "#ring .led.lit", "items => items.map(i => i.dataset.name)")
    assert names == ["A"]
    played = "click; cw 2; click; double"
    frames = browser.run_script(page, site.url, played, settings={"midi": "out"})
    expected, _ = _simulated(played, settings={"midi": "out"})
    assert frames == expected
    assert [m for f in frames for m in f["midi"]][:3] == [[0x90, 60, 100], [0x90, 63, 100],
                                                          [0x90, 67, 100]]


def test_web_midi_plays_the_wheel_and_hears_a_keyboard(new_page, site):
    """Through Web MIDI (the tests' stand-in: headless Chromium has none here): the page's MIDI
    button, a keyboard chosen as the wheel's input, a synth as its output."""
    page = new_page(viewport={"width": 1280, "height": 1000})
    with open(MIDI_STAND_IN) as f:
        page.add_init_script(f.read())
    page.goto(site.url)
    page.wait_for_selector("body[data-ready]", state="attached", timeout=60000)
    # The wheel's own setting first: menu (long), to midi (ccw 1), both (cw 3), leave;
    # then listen through the menu's mode item.
    for steps in (["long"], ["ccw 1"], ["click"], ["cw 3"], ["click"], ["long"],
                  ["long"], ["click"], ["ccw 1"], ["click"], ["long"]):
        page.evaluate("(lines) => window.chromawheel.board.send(lines)",
                      _gesture(page, steps))
    console_says(page, "listen: no notes held", timeout=60000)
    page.click("#midi")
    page.wait_for_selector("#midi-ports:not([hidden])")
    page.select_option("#midi-in", "keyboard-1")
    page.select_option("#midi-out", "synth-1")
    assert page.evaluate("globalThis.midiStandIn.play([0x90, 62, 90, 65, 90, 69, 90])")
    console_says(page, "listen: D F A: D minor triad (min)", timeout=60000)
    lit = page.eval_on_selector_all("#ring .led.lit", "items => items.map(i => i.dataset.pc)")
    assert lit == ["2", "5", "9"]
    # Back to the explorer (menu, mode, cw 1 from listen wraps to explorer): a click plays.
    for steps in (["long"], ["click"], ["cw 1"], ["click"], ["long"], ["click"]):
        page.evaluate("(lines) => window.chromawheel.board.send(lines)",
                      _gesture(page, steps))
    page.wait_for_function("globalThis.midiStandIn.sent.some(m => m[0] === 0x90)",
                           timeout=60000)
    sent = page.evaluate("globalThis.midiStandIn.sent")
    ons = [m for m in sent if m[0] == 0x90]
    assert ons[:1] and all(len(m) % 3 == 0 for m in sent)


def _gesture(page, steps):
    """A script's steps ("click", "cw 3", ...) as the page's protocol lines."""
    return page.evaluate("async (text) => (await window.chromawheel.host.compileScript(text, "
                         "window.chromawheel.site.board.button)).lines", "; ".join(steps))


def test_the_frame_loop_allocates_nothing_on_the_web_pins(page, site):
    """As make bench measures it on the unix port, here with the page's pins: every tick asks
    the page for a command, every repainted frame goes to the page."""
    page.goto(browser.script_url(site.url, "wait 10"))
    page.wait_for_selector("body[data-ready]", state="attached", timeout=60000)
    with open(ALLOC) as f:
        printed = page.evaluate("(code) => window.chromawheel.runOnBoard(code)", f.read())
    figures = json.loads(printed[-1])
    assert figures["alloc_idle_tick"] == 0 and figures["alloc_repaint_tick"] == 0, figures
    assert figures["frames_written"] == 1000


def test_a_script_that_cannot_be_read_says_where(page, site):
    page.goto(browser.script_url(site.url, "cw 2; jump 3"))
    page.wait_for_selector("body[data-script-error]", state="attached")
    with pytest.raises(UserError) as err:
        simulator.compile_script("cw 2; jump 3", {"debounce_ms": 50, "long_ms": 700,
                                                  "double_ms": 350})
    assert page.get_attribute("body", "data-script-error") == str(err.value)


def test_the_knob_button_and_keys_drive_the_firmware(page, site):
    page.goto(site.url)
    page.wait_for_selector("body[data-ready]", state="attached", timeout=60000)
    page.evaluate("localStorage.clear()")
    power_up(page, "C major triad (maj): C E G")
    page.focus("#knob")
    for _ in range(2):
        page.keyboard.press("ArrowRight")
    console_says(page, "D major triad (maj): D F# A", timeout=30000)
    lit = [pc for pc, rgb in _leds(page) if rgb != "0,0,0"]
    assert lit == [2, 6, 9]
    page.keyboard.press("Space")             # the simulator's click gesture, in real time
    console_says(page, "D minor triad (min): D F A", timeout=30000)
    box = page.locator("#knob").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -120)                # three detents clockwise
    console_says(page, "F minor triad (min): F Ab C", timeout=30000)
    assert "minor triad" in page.text_content("#oled-text")
    # Dragged a quarter turn clockwise (18 degrees a detent): five detents, F to A#/Bb.
    box = page.locator("#knob").bounding_box()
    cx, cy, r = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, box["width"] / 3
    page.mouse.move(cx, cy - r)
    page.mouse.down()
    for step in range(1, 11):
        angle = math.pi / 2 * step / 10
        page.mouse.move(cx + r * math.sin(angle), cy - r * math.cos(angle))
    page.mouse.up()
    console_says(page, "Bb minor triad (min): Bb Db F", timeout=30000)
    page.keyboard.press("l")                 # the long press: the menu, on the display too
    page.wait_for_function("document.querySelector('#oled-text').textContent"
                           ".startsWith('menu: mode')", timeout=30000)


def _leds(page):
    return page.eval_on_selector_all(
        "#ring .led", "items => items.map(i => [Number(i.dataset.pc), i.dataset.rgb])")


# ---- the studio -------------------------------------------------------------------------------

def friendly(line):
    """The page says the validator's places counting from 1 (meld 2, degree 3) and the set's
    name as its file name; the messages are the command line's."""
    def place(m):
        words = "meld %d" % (int(m.group(1)) + 1)
        if m.group(2) == "degrees" and m.group(3) is not None:
            return words + ", degree %d" % (int(m.group(3)) + 1)
        if m.group(2):
            return words + ", " + {"id": "short name"}.get(m.group(2), m.group(2))
        return words
    line = re.sub(r"melds\[(\d+)\](?:\.(\w+)(?:\[(\d+)\])?)?", place, line)
    return re.sub(r"^([^:\s]+\.json): name: ", r"\1: file name: ", line)


def _validate_lines(capsys, monkeypatch, folder, name):
    monkeypatch.chdir(folder)
    code = main(["meldset", "validate", name])
    out, err = capsys.readouterr()
    return code, [friendly(line[len("error: "):] if line.startswith("error: ") else line)
                  for line in (out + err).splitlines()]


def _checks(page):
    return int(page.get_attribute("#studio", "data-checks") or 0)


def _open_in_studio(page, path):
    before = _checks(page)
    page.set_input_files("#meldset-file", str(path))
    page.wait_for_function("Number(document.querySelector('#studio').dataset.checks) > %d && "
                           "document.querySelector('#source-name').textContent === %r"
                           % (before, os.path.basename(str(path))))
    return _texts(page, "#problems li")


def test_a_bad_set_shows_the_validators_messages(page, site, tmp_path, capsys, monkeypatch):
    bad = tmp_path / "bad.json"
    bad.write_text(BAD_SET)
    syntax = tmp_path / "syntax.json"
    syntax.write_text('{"format": "chromawheel-meldset",\n  "version": 1\n  "name": "x"}\n')
    good = tmp_path / "jazz.json"
    shutil.copyfile(JAZZ, good)
    page.goto(site.url)
    page.wait_for_selector("body[data-ready]", state="attached", timeout=60000)
    for path in (bad, good):
        code, expected = _validate_lines(capsys, monkeypatch, tmp_path, path.name)
        assert _open_in_studio(page, path) == expected
        valid = page.get_attribute("#studio", "data-valid")
        assert valid == ("true" if code == 0 else "false")
        assert page.is_disabled("#preview") == (code != 0)
        if path == bad:
            assert any(": meld 2, short name: duplicate id 'x' (also meld 1)" in line
                       for line in expected)
            assert page.get_attribute("#problems li >> nth=-1", "data-error-for") == "meld-list"
            # A file that does not read: said at the top, the set being edited kept.
            _, said = _validate_lines(capsys, monkeypatch, tmp_path, syntax.name)
            page.set_input_files("#meldset-file", str(syntax))
            page.wait_for_selector("#open-error:not([hidden])")
            assert page.text_content("#open-error") == (
                "syntax.json could not be opened, so your set is unchanged: " + said[0])
            assert page.text_content("#source-name") == "bad.json"
            assert _texts(page, "#problems li") == expected
            assert page.input_value("#source") == BAD_SET
    assert _texts(page, "#problems li") == [
        "jazz.json: valid meld set 'jazz': 47 melds (0 intervals, 35 chords, 12 scales), "
        "1603 bytes compiled"]
    # Typed in the JSON view: checked as it is typed; the set is named "bad" there now, and
    # the file name follows it.
    page.fill("#source", BAD_SET.replace('"b4"', '"b3", "#2"'))
    page.wait_for_function("document.querySelector('#problems li') && "
                           "document.querySelector('#problems li').textContent.includes('#2')")
    assert _texts(page, "#problems li")[0] == \
        "bad.json: meld 1, degree 3: '#2' is the same position as meld 1, degree 2 'b3'"


# The preview (on a copy of the page's flash, until stopped or reloaded): test_web_studio.py.


NO_SERIAL = "delete Navigator.prototype.serial;"


def test_without_web_serial_the_page_says_so(new_page, site):
    page = new_page()
    page.add_init_script(NO_SERIAL)
    page.goto(site.url)
    page.wait_for_selector("body[data-ready]", state="attached", timeout=60000)
    assert page.get_attribute("body", "data-web-serial") == "no"
    # Plain words, and what works here: the file for a CircuitPython wheel's drive with its
    # steps, and a link that opens the set in a computer's browser.
    said = page.inner_text("#no-serial") + page.inner_text("#drive-box")
    assert "This browser cannot talk to a wheel over USB" in said
    assert "melds" in said and "Hold the wheel's button while you plug it in" in said
    assert page.is_disabled("#flash") and not page.is_disabled("#preview")
    assert "cannot send to a wheel over USB" in page.text_content("#why-not")
    with page.expect_download() as download:
        page.click("#drive-file")
    assert download.value.suggested_filename == "jazz.cwm"
    with open(download.value.path(), "rb") as f:
        assert f.read() == compile_file(JAZZ)
    link = page.get_attribute("#set-link", "href")
    other = new_page()                      # the same browser
    other.add_init_script(NO_SERIAL)
    other.goto(link)
    other.wait_for_selector("body[data-ready]", state="attached", timeout=60000)
    other.evaluate("window.chromawheel.studio.settled()")
    assert other.text_content("#source-name") == "jazz.json"
    assert json.loads(other.input_value("#source")) == json.loads(page.input_value("#source"))
    assert "valid meld set 'jazz'" in _texts(page, "#problems li")[0]


# The README's screenshots (a desktop's and a phone's): test_web_studio.py.


# ---- the flasher over Web Serial, to the emulated Pico ---------------------------------------

@pytest.fixture(scope="module")
def pico(tmp_path_factory, deployed_image):
    from host_tools.emulator import emulate
    from host_tools.emulator.rp2040 import EmulatedPico
    try:
        board = emulate.load_board("pico")
        image = str(tmp_path_factory.mktemp("pico") / "flash.img")
        shutil.copyfile(deployed_image("pico"), image)
    except UserError as err:
        unavailable(str(err))
    with EmulatedPico(image, board) as pico:
        emulate.wait_started(pico)
        yield pico


def _serial_page(new_page, bridge):
    page = new_page(viewport={"width": 1280, "height": 1000})
    with open(STAND_IN) as f:
        script = f.read().replace("__BRIDGE_URL__", bridge.url).replace(
            "__SLOW_BOARD__", str(SLOW_BOARD))
    page.add_init_script(script)
    page.goto(bridge.site_url)
    page.wait_for_selector("body[data-ready]", state="attached", timeout=60000)
    return page


def test_a_bad_set_never_reaches_the_board(new_page, site, pico, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(BAD_SET)
    with SerialBridge(pico.port) as bridge:
        bridge.site_url = site.url
        page = _serial_page(new_page, bridge)
        _open_in_studio(page, bad)
        assert page.is_disabled("#flash")
        page.evaluate("window.chromawheel.studio.flash()")   # past the disabled button
        assert bridge.stats == {"sessions": 0, "to_device": 0, "from_device": 0}
        assert page.evaluate("serialStandIn") == {"requestPort": 0, "opens": 0, "closes": 0}
        page.close()                  # its stand-in port with it, before the bridge


def test_the_flasher_flashes_the_emulated_pico(new_page, site, pico):
    from host_tools.emulator import emulate
    before = len(pico.said)
    with SerialBridge(pico.port) as bridge:
        bridge.site_url = site.url
        page = _serial_page(new_page, bridge)
        page.select_option("#example", "jazz.json")
        page.wait_for_function("!document.querySelector('#flash').disabled")
        page.click("#flash")
        page.wait_for_selector("body[data-flash=done], body[data-flash=failed]",
                               state="attached", timeout=300000)
        log = page.text_content("#flash-log")
        assert page.get_attribute("body", "data-flash") == "done", log
        assert "the device says: meld set jazz loaded: 47 melds" in log
        report = page.evaluate("window.chromawheel.studio.report")
        assert report["bytes"] == len(compile_file(JAZZ)) == 1603 and report["melds"] == 47
        assert report["rawPaste"] > 0            # the rp2 port has raw-paste
        assert bridge.stats["sessions"] == 1 and bridge.stats["to_device"] > 1603  # one open
        page.screenshot(path=os.path.join(ROOT, "build", "web-flash.png"))
        page.close()                  # its stand-in port with it, before the bridge
    # The board lists it, checked by its own loader, as the active set; after that reset the
    # firmware loads it and the ring shows its meld.
    listing = deploy.list_sets(pico.port)
    assert listing["active"] == "jazz"
    assert [s[0] for s in listing["sets"]] == ["default", "jazz"]
    assert not [s for s in listing["sets"] if s[2]]
    loaded = "meld set jazz loaded: 47 melds"
    wait_until(lambda: bytes(pico.said[before:]).decode("utf-8", "replace").count(loaded) >= 2,
               120, what="the set loaded after the flash's reset and the listing's")
    shown = _line_after(pico, loaded)               # after the flash, and after this reset
    jazz = MeldSet(compile_file(JAZZ))
    names = [jazz.meld_name(i) for i in range(jazz.count)]
    assert [n for n in names if shown.startswith("C %s (" % n)], shown
    frames = emulate.frames_of(pico, emulate.load_board("pico")["ring"])
    assert frames and any(any(rgb) for rgb in frames[-1]["wheel"])


def _line_after(pico, line, timeout=120):
    """The console line the firmware printed after the last `line` (waited for)."""
    from host_tools.emulator import emulate

    def following():
        lines = emulate.console_lines(pico)
        # The raw REPL's last bytes can share the line the app prints first after a reset.
        ends = [i for i, said in enumerate(lines) if said.endswith(line)]
        at = ends[-1] if ends else -1
        return lines[at + 1] if 0 <= at < len(lines) - 1 and pico.frames else None
    return wait_until(following, timeout, what="what the board says after %r" % line)
