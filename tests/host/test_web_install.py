"""The page's "Install ChromaWheel" (host_tools/web/site/installer.js) over Web Serial, stood in
for by a port bridged to the emulated Pico's USB serial (host_tools/web/testing), as the set's
flash is tested: onto an emulated Pico whose flash holds only the stock MicroPython v1.28.0,
the page installs what `chromawheel deploy` lays out for board pico, file for file; the board
restarts into the firmware and says so, its drive that of the deployed image on which
tests/host/test_emulated_pico.py plays the simulator's script; a second
install sends nothing; a board that is not the one chosen is refused before anything is
written, in words that say what to do; an older firmware gets the one module that changed and
loses the one no longer shipped (a set of the maker's kept), the progress bar counting the
bytes.

Without Chromium these tests are skipped with one line saying what to install; under CI=true
a skip is a failure."""

import os
import shutil

import pytest

from conftest import unavailable
from host_tools.device import deploy
from host_tools.device.files import ROOT
from host_tools.emulator import emulate
from host_tools.errors import UserError
from host_tools.web import browser
from host_tools.web.testing.bridge import SerialBridge

STAND_IN = os.path.join(ROOT, "host_tools", "web", "testing", "serial_stand_in.js")
SLOW_BOARD = 6                 # the emulator runs at about a tenth of a Pico's speed

if browser.chromium_path() is None:           # one line for the whole file, not one a test
    if os.getenv("CI") == "true":
        pytest.fail("the browser tests cannot run under CI: " + browser.INSTALL, pytrace=False)
    pytest.skip(browser.INSTALL, allow_module_level=True)

pytestmark = pytest.mark.usefixtures("emulator")


def page_on(chromium, site, bridge):
    context = chromium.new_context(viewport={"width": 1280, "height": 1000})
    with open(STAND_IN) as f:
        context.add_init_script(f.read().replace("__BRIDGE_URL__", bridge.url).replace(
            "__SLOW_BOARD__", str(SLOW_BOARD)))
    page = context.new_page()
    page.goto(site.url)
    page.wait_for_selector("body[data-ready]", state="attached", timeout=60000)
    return context, page


def install(page, board="pico"):
    page.select_option("#install-board", board)
    page.click("#install")
    page.wait_for_selector("body[data-install=done], body[data-install=failed]",
                           state="attached", timeout=900000)
    return page.get_attribute("body", "data-install")


def _drive(flash):
    from littlefs import LittleFS

    from host_tools.builds import littlefs_uf2
    with open(flash, "rb") as f:
        image = bytearray(f.read())
    fs = LittleFS(block_size=4096, block_count=littlefs_uf2.STORAGE_BYTES // 4096,
                  read_size=32, prog_size=256, mount=False)
    fs.context.buffer[:] = image[littlefs_uf2.STORAGE_BASE:]
    fs.mount()
    return fs, image, littlefs_uf2.STORAGE_BASE


def drive(flash):
    """{path: bytes} on the emulated Pico's littlefs drive."""
    fs, _, _ = _drive(flash)
    files = {}
    for top, _, names in fs.walk("/"):
        for name in names:
            path = (top.rstrip("/") + "/" + name).lstrip("/")
            with fs.open(path, "rb") as f:
                files[path] = f.read()
    return files


def put_files(flash, files):
    """Files written onto the emulated Pico's drive (the board powered off)."""
    fs, image, base = _drive(flash)
    for path, data in files.items():
        with fs.open(path, "wb") as f:
            f.write(data)
    fs.unmount()
    image[base:] = bytes(fs.context.buffer)
    with open(flash, "wb") as f:
        f.write(image)


# The progress bar's values as the page sets them (<progress>'s value is an attribute).
WATCH_BAR = """() => {
  window.barValues = [];
  new MutationObserver(() => window.barValues.push(
    Number(document.getElementById("install-progress").value))).observe(
    document.getElementById("install-progress"), { attributes: true,
                                                   attributeFilter: ["value"] });
}"""


def test_the_page_installs_the_firmware_on_an_empty_pico(chromium, site, deployed_image,
                                                          tmp_path):
    flash = str(tmp_path / "flash.img")              # nothing yet: stock MicroPython alone
    try:
        pico = emulate.emulated("pico", flash)
    except UserError as err:
        unavailable(str(err))
    with pico:
        with SerialBridge(pico.port) as bridge:
            context, page = page_on(chromium, site, bridge)
            assert page.text_content("#install") == "Install ChromaWheel"
            assert install(page) == "done", page.text_content("#install-log")
            log = page.text_content("#install-log")
            report = page.evaluate("window.chromawheel.installer.report")
            status = page.text_content("#install-status")
            # a second install finds every file there: nothing sent, no maintenance reset
            page.evaluate("document.querySelector('#install-log').textContent = ''")
            assert install(page) == "done", page.text_content("#install-log")
            again = page.evaluate("window.chromawheel.installer.report")
            log_again = page.text_content("#install-log")
            context.close()
    payload = dict(deploy.payload("pico", compiled=True))
    assert report["files"] == report["sent"] == len(payload) and report["removed"] == []
    assert report["started"].startswith("meld set default loaded:")
    assert "micropython 1.28.0 on rp2, board pico, compiled .mpy v6.3" in log
    assert "the board says: meld set default loaded:" in log
    assert status.startswith("ChromaWheel is installed and running")
    assert again["sent"] == 0 and again["files"] == len(payload) - 1
    assert "kept the board's own board.json" in log_again
    assert "all %d files already there" % (len(payload) - 1) in log_again
    # what `chromawheel deploy` lays out, file for file; besides, only the records the
    # firmware keeps itself (the maintenance flag gone)
    from firmware.records import MAINTENANCE_PATH, RECORD_KEYS
    on_board = drive(flash)
    assert {path: on_board.get(path) for path in payload} == payload
    assert set(on_board) - set(payload) <= set(RECORD_KEYS)
    assert MAINTENANCE_PATH not in on_board
    # the firmware it installed runs: it said so above, and its drive holds, byte for byte,
    # that of the deployed image on which test_emulated_pico.py plays the simulator's script
    # and gets the simulator's frames (the same run here took a boot and 10-20 s more)
    deployed = drive(deployed_image("pico"))
    assert {p: d for p, d in on_board.items() if p not in RECORD_KEYS} == \
        {p: d for p, d in deployed.items() if p not in RECORD_KEYS}


def test_the_wrong_board_is_refused_and_an_older_firmware_brought_up_to_date(
        chromium, site, deployed_image, tmp_path):
    flash = str(tmp_path / "flash.img")
    shutil.copyfile(deployed_image("pico"), flash)
    before = drive(flash)
    with emulate.emulated("pico", flash) as pico:
        emulate.wait_started(pico)
        with SerialBridge(pico.port) as bridge:
            context, page = page_on(chromium, site, bridge)
            assert install(page, board="esp32") == "failed"
            status = page.text_content("#install-status")
            context.close()
    assert status.startswith("the board runs micropython 1.28.0 on rp2, not micropython on "
                             "esp32 as board esp32 does, so nothing was written. Choose the "
                             "board it is in the list"), status
    # the same files, but the records the firmware keeps itself (settings, the crash count
    # it writes when the REPL stops it)
    from firmware.records import MAINTENANCE_PATH, RECORD_KEYS
    after = drive(flash)
    assert {p: d for p, d in after.items() if p not in RECORD_KEYS} == \
        {p: d for p, d in before.items() if p not in RECORD_KEYS}
    assert len(before) > 80

    # An older firmware: a module changed since (one that still loads: the loader reads a
    # module's own bytes and no further), one no longer shipped, a set of the maker's.
    stale = {"core/notes.mpy": before["core/notes.mpy"] + bytes(64),
             "core/retired.mpy": b"gone since",
             "melds/mine.cwm": before["melds/default.cwm"]}
    put_files(flash, stale)
    with emulate.emulated("pico", flash) as pico:
        emulate.wait_started(pico)
        with SerialBridge(pico.port) as bridge:
            context, page = page_on(chromium, site, bridge)
            page.evaluate(WATCH_BAR)
            assert install(page) == "done", page.text_content("#install-log")
            report = page.evaluate("window.chromawheel.installer.report")
            bar = page.evaluate("window.barValues")
            log = page.text_content("#install-log")
            context.close()
    shipped = dict(deploy.payload("pico", compiled=True))
    assert report["sent"] == 1 and report["bytes"] == len(shipped["core/notes.mpy"]), log
    assert report["removed"] == ["core/retired.mpy"]
    assert "writing core/notes.mpy (%d bytes)" % report["bytes"] in log
    assert report["started"].startswith("meld set default loaded:")
    # the bar counts the bytes written, up to all of them
    assert bar and bar == sorted(bar) and bar[-1] == 1, bar
    on_board = drive(flash)
    assert on_board["core/notes.mpy"] == shipped["core/notes.mpy"]
    assert "core/retired.mpy" not in on_board and MAINTENANCE_PATH not in on_board
    assert on_board["melds/mine.cwm"] == stale["melds/mine.cwm"]        # the maker's, kept
