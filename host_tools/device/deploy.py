"""Deploying the firmware, and flashing meld sets, through mpremote's transport.

Both go through maintenance: the device reboots once with the app held off (so no watchdog
can reset it mid-copy), files go to temporary names and are renamed, every file is checked by
hash on the device, and only then is the board reset into the app."""

import binascii
import hashlib
import os
import re
import subprocess
import tempfile
import time

from hardware import board as board_file

from host_tools.device.files import (board_path, compiled_mpy, data_files, library_files,
                                     python_files)
from host_tools.device.link import DeviceLink
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
CODE_DIRS = ("core", "hardware", "firmware")
ROOT_FILES = ("boot.py", "main.py", "board.json")
LIB_DIR = "lib"            # outside libraries (compared, never removed: may be the user's)
MELD_DIR = "melds"


def mpy_cross_version():
    """(major, minor) of the .mpy files mpy-cross writes, e.g. (6, 3)."""
    out = subprocess.run([mpy_cross_path(), "--version"], capture_output=True,
                         text=True).stdout
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


def payload(board, compiled):
    """[(device path, bytes)]: modules (.mpy when compiled), the libraries the board's parts
    need, boot.py, main.py, board file, default meld set."""
    files = []
    for source, rel in python_files() + library_files(board):
        if compiled and "/" in rel:
            files.append((rel[:-3] + ".mpy", compiled_mpy(source, rel)))
        else:
            with open(source, "rb") as f:
                files.append((rel, f.read()))
    for data, rel in data_files(board):
        files.append((rel, data))
    return files


def digest(data, like):
    """The hash of `data` in the form the device gave (`like`)."""
    if like is not None and like.startswith("crc32:"):
        return "crc32:%d:%08x" % (len(data), binascii.crc32(data) & 0xFFFFFFFF)
    return hashlib.sha256(data).hexdigest()


def _board_on_device(link, folder):
    """The board file the device has, kept as it is (a shipped one or the maker's own): a
    copy of it in `folder`, or None when it has none."""
    data = link.read("board.json")
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
                         % (port, "\n".join("  " + l for l in link.failure)))
    return UserError("%s: the firmware did not start after the deploy (%s)"
                     % (port, line or "no answer"))


def deploy(port, board=None, progress=print, meldset=None):
    """Copy the firmware to the device on `port`; returns a report dict. meldset: a set
    (shipped name or file) installed beside the default one and chosen."""
    started = time.time()
    chosen = set_to_flash(meldset) if meldset and meldset != "default" else None
    with tempfile.TemporaryDirectory(prefix="chromawheel-deploy-") as folder:
        return _deploy(port, board, progress, meldset, chosen, folder, started)


def _deploy(port, board, progress, meldset, chosen, folder, started):
    compiler_mpy = mpy_cross_version()
    # Compiled before connecting (and cached), so the board's watchdog never waits on it.
    for source, rel in python_files() + (library_files(board) if board else []):
        if "/" in rel:
            compiled_mpy(source, rel)
    with DeviceLink(port) as link:
        # Connecting stopped the app but not its watchdog (8 s on an RP2040, and it cannot be
        # stopped): only quick questions until the board is in maintenance.
        info = link.info()
        board = board or _board_on_device(link, folder)
        if board is None:
            raise UserError("%s has no board file yet: name it with --board" % port)
        config = board_file.load(board_path(board))
        check_platform(port, info, config["board"], config)
        device_mpy = device_mpy_version(info)
        compiled = device_mpy is not None and device_mpy == compiler_mpy
        files = payload(board, compiled)
        if chosen is not None:
            files.append(("%s/%s.cwm" % (MELD_DIR, chosen[2]), chosen[0]))
        progress("%s: %s %s, board %s, %s" % (
            port, info["name"], ".".join(map(str, info["version"])), config["board"],
            "compiled .mpy v%d.%d" % device_mpy if compiled else "source .py files"))
        before = link.hashes(CODE_DIRS + (MELD_DIR, LIB_DIR), ROOT_FILES)
        changed = [(path, data) for path, data in files
                   if before.get(path) != digest(data, before.get(path))]
        wanted = set(path for path, _ in files)
        stale = sorted(p for p in before if p.split("/")[0] in CODE_DIRS and p not in wanted)
        sent = 0
        if changed or stale or meldset:
            sent = _copy(link, changed, stale, progress)
            if meldset:
                link.run(_SET_SETTING.replace("NAME", repr(chosen[2] if chosen else "default")))
            after = link.hashes(CODE_DIRS + (MELD_DIR, LIB_DIR), ROOT_FILES)
            wrong = [path for path, data in files
                     if after.get(path) != digest(data, after.get(path))]
            if wrong:
                raise UserError("%s: %d files did not verify (%s): run deploy again"
                                % (port, len(wrong), ", ".join(wrong[:5])))
            link.leave_maintenance()
        else:
            progress("all %d files already there" % len(files))
        line = link.reset_and_listen(_app_started)
    if line is None or line.startswith("safe mode"):
        raise _not_started(port, line, link)
    want = "meld set %s loaded:" % (chosen[2] if chosen else "default")
    if meldset and not line.startswith(want):
        raise UserError("%s: the firmware started, but not with the set asked for (%s)"
                        % (port, line))
    progress("verified %d files; %s" % (len(files), line))
    return {"files": len(files), "sent": len(changed), "bytes_sent": sent, "removed": stale,
            "compiled": compiled, "board": config["board"], "seconds": time.time() - started,
            "started": line}


def _copy(link, changed, stale, progress):
    """In maintenance (no app, no watchdog): the changed files written, each to a temporary
    name and renamed; the stale modules removed. Returns the bytes sent."""
    link.enter_maintenance()
    total = max(1, sum(len(data) for _, data in changed))      # an empty file changes too
    sent = 0
    for number, (path, data) in enumerate(changed, 1):
        progress("[%2d/%d] %-34s %6d bytes  (%3d%% of %d bytes)" % (
            number, len(changed), path, len(data), 100 * (sent + len(data)) // total, total))
        link.makedirs(path)
        link.write_atomic(path, data)
        sent += len(data)
    for path in stale:
        progress("removing %s" % path)
        link.remove(path)
    return sent


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


# ---- meld sets on the device ------------------------------------------------------------

_SET_SETTING = """
import json
try:
    s = json.loads(open('settings.json').read())
    if not isinstance(s, dict):
        s = {}
except Exception:
    s = {}
s['meldset'] = NAME
f = open('settings.json.tmp', 'w')
f.write(json.dumps(s))
f.close()
import os
try:
    os.rename('settings.json.tmp', 'settings.json')
except OSError:
    os.remove('settings.json')
    os.rename('settings.json.tmp', 'settings.json')
"""


def flash_set(port, source_path, progress=print):
    """Validate and compile a set, copy it atomically, make the firmware load it, and confirm
    from the device's own console that it did. A set with any problem never leaves here."""
    started = time.time()
    blob, meldset, name = set_to_flash(source_path)
    path = "%s/%s.cwm" % (MELD_DIR, name)
    with DeviceLink(port) as link:
        link.enter_maintenance()
        progress("%s: writing %s (%d bytes, %d melds)" % (port, path, len(blob), meldset.count))
        link.makedirs(path)
        link.write_atomic(path, blob)
        on_device = link.hashes((), (path,)).get(path)
        if on_device != digest(blob, on_device):
            raise UserError("%s: %s did not verify; the device keeps its last good set"
                            % (port, path))
        link.run(_SET_SETTING.replace("NAME", repr(name)))
        link.leave_maintenance()
        line = link.reset_and_listen(_app_started)
    if line != "meld set %s loaded: %d melds" % (name, meldset.count):
        raise UserError("%s: the device did not load %s (%s)" % (port, name, line or "no answer"))
    progress("the device says: %s" % line)
    return {"name": name, "bytes": len(blob), "melds": meldset.count,
            "seconds": time.time() - started}


_LIST_SETS = """
import os, json
from core.meldset import load
out = []
try:
    names = sorted(os.listdir('melds'))
except OSError:
    names = []
for n in names:
    if n.endswith('.cwm'):
        try:
            out.append([n[:-4], load('melds/' + n).count, None])
        except Exception as e:
            out.append([n[:-4], 0, str(e)])
try:
    active = json.loads(open('settings.json').read()).get('meldset', 'default')
except Exception:
    active = 'default'
print(json.dumps({'sets': out, 'active': active}))
"""


def list_sets(port):
    """The sets on the device, each checked by the device's own loader; the app restarts."""
    with DeviceLink(port) as link:
        answer = link.run_json(_LIST_SETS)
        link.restart()
    return answer


def remove_set(port, name):
    if name == "default":
        raise UserError("the default set comes with the firmware and cannot be removed")
    with DeviceLink(port) as link:
        path = "%s/%s.cwm" % (MELD_DIR, name)
        if not link.exists(path):
            raise UserError("%s: no meld set %r on the device" % (port, name))
        if _active(link) == name:
            link.run(_SET_SETTING.replace("NAME", repr("default")))
        link.remove(path)
        link.restart()


def _active(link):
    return link.run_json("import json\ntry:\n    print(json.dumps(json.loads(open("
                         "'settings.json').read()).get('meldset')))\nexcept Exception:\n"
                         "    print('null')")
