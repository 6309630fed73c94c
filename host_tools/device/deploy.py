"""Deploying the firmware to a MicroPython board on a serial port, and its meld sets, through
one SerialTarget (host_tools/device/target.py).

A deploy that changes anything goes through maintenance: the device reboots once with the app
held off (so no watchdog can reset it mid-copy), files go to temporary names and are renamed,
every file is checked by hash on the device, and only then is the board reset into the app.
A meld set's flash is short: one open of the port, the set written while the app is stopped,
the device's own loader takes it ("use"), one reset (host_tools/device/sets.py)."""

import os
import re
import tempfile
import time

from hardware import board as board_file

from firmware.layout import CODE_DIRS, DEFAULT_SET
from host_tools import tools
from host_tools.device import native, sets
from host_tools.device.files import (
    board_path,
    compiled_mpy,
    data_files,
    library_files,
    platform_of,
    python_files,
)
from host_tools.device.target import SerialTarget, sync
from host_tools.errors import UserError
from host_tools.set_files import set_to_flash
from host_tools.tools import mpy_cross_path

# What a board file's platform runs on, as the board reports it (sys.implementation.name,
# sys.platform): checked before anything is written.
PLATFORM_REPORTS = {
    "rp2": ("micropython", ("rp2",)),
    "esp32": ("micropython", ("esp32",)),
    "sim": ("micropython", ("linux", "darwin")),           # the unix port (the virtual board)
    "web": ("micropython", ("webassembly",)),
    "circuitpython": ("circuitpython", None),
}


def mpy_cross_version():
    """(major, minor) of the .mpy files mpy-cross writes, e.g. (6, 3)."""
    out = tools.run([mpy_cross_path(), "--version"], "mpy-cross --version", 60, text=True).stdout
    found = re.search(r"mpy v(\d+)\.(\d+)", out)
    if not found:
        raise UserError("cannot tell which .mpy version mpy-cross writes (%r)" % out.strip())
    return int(found.group(1)), int(found.group(2))


def device_mpy_version(info):
    """(major, minor) from sys.implementation._mpy, or None when the device does not say."""
    mpy = info.get("mpy") or 0
    if not mpy:
        return None
    return mpy & 0xFF, (mpy >> 8) & 3


# littlefs, the drive of the rp2 and esp32 ports, keeps a file of up to 512 bytes (its inline
# limit as MicroPython mounts it: a quarter of the 4 KB block, at most its 1 KB cache) inside
# its folder's metadata, which every lookup in that folder reads through, checksum and all; a
# Pico's power-up looks up four names a module. A compiled module that small is padded past the
# limit, so it gets a block of its own: MicroPython's loader reads a module's own bytes and no
# further (56 ms of the emulated Pico's power-up; a block more of flash each, of 1.4 MB).
LITTLEFS_PLATFORMS = ("rp2", "esp32")
INLINE_MAX = 512


def out_of_line(data):
    """A compiled module's bytes, padded with zeros past littlefs's inline limit."""
    return data + bytes(INLINE_MAX + 1 - len(data)) if len(data) <= INLINE_MAX else data


_SCRIPT_PADDING = (b"\n# Padded by chromawheel deploy past 512 bytes: littlefs keeps a smaller file"
                   b"\n# inside its folder's metadata, and the root folder's is read at every"
                   b"\n# import of the power-up.\n")


def out_of_line_script(data):
    """boot.py's or main.py's source, padded with a comment past littlefs's inline limit
    (only on the device: the simulator runs them from the checkout)."""
    if len(data) > INLINE_MAX:
        return data
    data += _SCRIPT_PADDING
    while len(data) <= INLINE_MAX:
        data += b"#" * 79 + b"\n"
    return data


def payload(board, compiled):
    """[(device path, bytes)]: modules (.mpy when compiled, none small enough to sit inline
    on littlefs: out_of_line; of the ports, only the board's own), the libraries the board's
    parts need, boot.py, main.py, board file, default meld set. A deploy removes the modules
    of other ports a board still has (sync's stale files)."""
    files = []
    platform = platform_of(board)
    arch = native.arch_of(platform)
    littlefs = platform in LITTLEFS_PLATFORMS
    for source, rel in python_files(board) + library_files(board):
        if compiled and "/" in rel:
            data = compiled_mpy(source, rel, arch=arch)
            files.append((rel[:-3] + ".mpy", out_of_line(data) if littlefs else data))
        else:
            with open(source, "rb") as f:
                data = f.read()
            data = data if arch else native.plain(data)
            if littlefs and "/" not in rel:
                data = out_of_line_script(data)
            files.append((rel, data))
    for data, rel in data_files(board):
        files.append((rel, data))
    return files


def _board_on_device(target, folder):
    """The board file the device has, kept as it is (a shipped one or the maker's own): a
    copy of it in `folder`, or None when it has none."""
    data = target.read("board.json")
    if data is None:
        return None
    path = os.path.join(folder, "board.json")
    with open(path, "wb") as f:
        f.write(data)
    return path


def check_platform(port, info, board, config):
    """UserError, before anything is written, when the board file is for another platform
    than the board on `port` runs."""
    if config["platform"] not in PLATFORM_REPORTS:
        raise UserError("board file %s is for platform %s, which deploy --port does not know "
                        "(%s)" % (board, config["platform"], ", ".join(sorted(PLATFORM_REPORTS))))
    name, platforms = PLATFORM_REPORTS[config["platform"]]
    if info["name"] == name and (platforms is None or info["platform"] in platforms):
        return
    where = "%s %s on %s" % (info["name"], ".".join(map(str, info["version"])),
                             info["platform"])
    hint = ""
    if info["name"] == "circuitpython":
        hint = "; a CircuitPython board is deployed with --drive (its CIRCUITPY drive)"
    else:
        fits = [p for p, (n, ps) in sorted(PLATFORM_REPORTS.items())
                if n == info["name"] and ps and info["platform"] in ps]
        if fits:
            hint = "; give a board file for platform %s" % fits[0]
    raise UserError("%s runs %s, but board file %s is for platform %s: nothing was written%s"
                    % (port, where, board, config["platform"], hint))


def _not_started(port, line, link):
    """Why the firmware did not start after the deploy, in the board's own words."""
    if link.failure:
        return UserError("%s: the firmware did not start after the deploy; the board said:\n%s"
                         % (port, "\n".join("  " + line for line in link.failure)))
    return UserError("%s: the firmware did not start after the deploy (%s)"
                     % (port, line or "no answer"))


def deploy(port, board=None, progress=print, meldset=None):
    """Copy the firmware to the device on `port`; returns a report dict. meldset: a set
    (shipped name or file) installed beside the default one and chosen."""
    started = time.time()
    chosen = set_to_flash(meldset) if meldset and meldset != DEFAULT_SET else None
    with tempfile.TemporaryDirectory(prefix="chromawheel-deploy-") as folder:
        return _deploy(port, board, progress, meldset, chosen, folder, started)


def _deploy(port, board, progress, meldset, chosen, folder, started):
    compiler_mpy = mpy_cross_version()
    # Compiled before connecting (and cached), so the board's watchdog never waits on it.
    arch = native.arch_of(platform_of(board)) if board else None
    for source, rel in python_files(board) + (library_files(board) if board else []):
        if "/" in rel:
            compiled_mpy(source, rel, arch=arch)
    with SerialTarget(port) as target:
        # Connecting stopped the app but not its watchdog (8 s on an RP2040, and it cannot be
        # stopped): only quick questions until the board is in maintenance.
        info = target.info()
        board = board or _board_on_device(target, folder)
        if board is None:
            raise UserError("%s has no board file yet: name it with --board" % port)
        config = board_file.load(board_path(board))
        check_platform(port, info, config["board"], config)
        device_mpy = device_mpy_version(info)
        compiled = device_mpy is not None and device_mpy == compiler_mpy
        files = payload(board, compiled)
        if chosen is not None:
            files.append((sets.set_path(chosen[2]), chosen[0]))
        progress("%s: %s %s, board %s, %s" % (
            port, info["name"], ".".join(map(str, info["version"])), config["board"],
            "compiled .mpy v%d.%d" % device_mpy if compiled else "source .py files"))
        # Compared also under melds/ and lib/; only the firmware's own folders lose files.
        report = sync(files, target, CODE_DIRS, progress,
                      before_writing=target.enter_maintenance)
        if meldset:
            target.enter_maintenance()
            answer = target.call("use", chosen[2] if chosen else DEFAULT_SET)
            progress("the device says: %s" % answer["said"])
        if not target.maintenance:
            progress("all %d files already there" % len(files))
        line = target.done_and_listen(_app_started)
    if line is None or line.startswith("safe mode"):
        raise _not_started(port, line, target.link)
    progress("verified %d files; %s" % (len(files), line))
    return dict(report, compiled=compiled, board=config["board"],
                seconds=time.time() - started, started=line)


_COLOUR_TEST = """
from hardware import board
from firmware import ports, render
hw = ports.build(board.load("board.json"))
hw.ring.brightness = 64
render.paint_colour_test(hw.ring.frame)
hw.ring.show()
"""


def colour_test(port, seconds=10, progress=print):
    """Show the colour-order test on the device's own ring, through its board file, for
    `seconds`, then restart the app. Runs in maintenance (no app, no watchdog)."""
    from firmware.render import COLOUR_TEST_TEXT
    from host_tools.device.link import DeviceLink
    with DeviceLink(port) as link:
        link.enter_maintenance()
        try:
            link.run(_COLOUR_TEST)
            progress("%s: %s" % (port, COLOUR_TEST_TEXT))
            time.sleep(seconds)
        finally:                       # whatever happened, the board goes back to its app
            link.leave_maintenance()
            line = link.reset_and_listen(_app_started)
    return {"shown_s": seconds, "started": line}


def _app_started(line):
    return line.startswith("safe mode") or (line.startswith("meld set ") and "loaded:" in line)


# ---- meld sets on the device (host_tools/device/sets.py on a SerialTarget) ---------------

def flash_set(port, source_path, progress=print):
    """Validate and compile a set, copy it atomically, and have the device's own loader take
    it as the active set (its answer is the verdict); one open of the port, one reset. A set
    with any problem never leaves here."""
    with SerialTarget(port) as target:
        return sets.flash(target, source_path, progress)


def list_sets(port):
    """The sets on the device, each checked by the device's own loader; the app restarts."""
    with SerialTarget(port) as target:
        return sets.list_sets(target)

