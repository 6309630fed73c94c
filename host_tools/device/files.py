"""What goes onto a device (or into the simulator's flash): one list for deploy, the simulator,
the virtual board and the mpy-cross check, so they can never disagree."""

import ast
import hashlib
import json
import os
import re
import shutil

from firmware.layout import DEFAULT_SET
from host_tools import ROOT, cache, shipped, tools
from host_tools.device import native
from host_tools.errors import UserError
from host_tools.set_files import DEFAULT_SOURCE, compile_file, set_to_flash
from host_tools.tools import mpy_cross_path

PACKAGES = ("core", "hardware", "firmware")
# Host-only modules: the device never compiles a JSON source.
HOST_ONLY = ("core/meldset_compiler.py", "core/parse.py")
# The rule engines run on MicroPython (the core cases prove it) but the firmware uses only the
# device-sized rule modules (*_table.py) they share with the engines: the engines stay off the
# device's flash. Which ones follows from the firmware's imports (a new mode's included).
_GAMES_IMPORT = re.compile(r"^\s*(?:from|import)\s+core\.games(?:\.(\w+))?", re.M)


def games_imported(sources):
    """The core/games modules (device paths) the Python texts in `sources` import, with those
    they import in turn, and the package itself when any is."""
    wanted, todo = set(), list(sources)
    while todo:
        for name in _GAMES_IMPORT.findall(todo.pop()):
            rel = "core/games/%s.py" % (name or "__init__")
            if rel not in wanted:
                wanted.add(rel)
                with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
                    todo.append(f.read())
    if wanted:
        wanted.add("core/games/__init__.py")
    return tuple(sorted(wanted))


def _firmware_sources():
    for folder, dirs, names in os.walk(os.path.join(ROOT, "firmware")):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(names):
            if name.endswith(".py"):
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    yield f.read()


DEVICE_GAMES = games_imported(_firmware_sources())


# Copied to the device's root under other names (boot.py, main.py or code.py).
ROOT_SCRIPTS = ("firmware/boot.py", "firmware/main.py", "firmware/circuitpy_boot.py")


def on_device(rel):
    if rel in HOST_ONLY or rel in ROOT_SCRIPTS:
        return False
    return not rel.startswith("core/games/") or rel in DEVICE_GAMES
BOARD_DIR = shipped("boards")


# The port-specific modules: a port module and the drivers only port modules import. A board
# gets its own port's (firmware/ports/<platform>.py and what it imports), not the others': on
# a Pico every module in a folder slows each lookup in it (littlefs reads the folder's whole
# metadata log for every name it looks up), and each import looks up four names.
PORT_FOLDERS = ("firmware/ports/", "hardware/")


def _module_path(dotted):
    """The source path (relative, /-separated) of module `dotted` in this tree, or None."""
    base = dotted.replace(".", "/")
    for rel in (base + ".py", base + "/__init__.py"):
        if os.path.isfile(os.path.join(ROOT, rel)):
            return rel
    return None


def _imported(rel):
    """The modules of this tree that the module at `rel` imports (anywhere in it), with their
    packages."""
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        tree = ast.parse(f.read(), rel)
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.append(node.module)
            names.extend(node.module + "." + alias.name for alias in node.names)
    found = set()
    for name in names:
        parts = name.split(".")
        for end in range(1, len(parts) + 1):
            path = _module_path(".".join(parts[:end]))
            if path is not None:
                found.add(path)
    return found


def import_closure(rels):
    """`rels` and every module of this tree they import, transitively (paths, with their
    packages)."""
    wanted = set()
    todo = list(rels)
    while todo:
        rel = todo.pop()
        if rel not in wanted:
            wanted.add(rel)
            todo.extend(_imported(rel) - wanted)
    return wanted


_port_modules = {}


def port_modules(platform):
    """The device paths a board of `platform` runs from PORT_FOLDERS: its port module, the
    ports' package, and every module there the firmware or its port imports (the modes by
    name: every firmware module outside firmware/ports counts as imported)."""
    if platform not in _port_modules:
        todo = ["firmware/ports/__init__.py", "firmware/ports/%s.py" % platform]
        for rel in _all_modules():
            if not rel.startswith(PORT_FOLDERS):
                todo.append(rel)
        _port_modules[platform] = frozenset(r for r in import_closure(todo)
                                            if r.startswith(PORT_FOLDERS))
    return _port_modules[platform]


def _all_modules():
    """Every module (device path) the device may run, for any board."""
    out = []
    for package in PACKAGES:
        for folder, dirs, names in os.walk(os.path.join(ROOT, package)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(names):
                if name.endswith(".py"):
                    rel = os.path.relpath(os.path.join(folder, name), ROOT).replace(os.sep, "/")
                    if on_device(rel):
                        out.append(rel)
    return out


def _code_less_package(rel):
    """True for a package's __init__.py that holds nothing but its docstring: MicroPython
    imports the folder without it (a namespace package), and on a Pico that saves the file's
    open and load at power-up, and a small file held inline in its folder's metadata, which
    every lookup there reads through."""
    if not rel.endswith("/__init__.py"):
        return False
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        body = ast.parse(f.read(), rel).body
    return all(isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
               and isinstance(node.value.value, str) for node in body)


def platform_of(board):
    """The `platform` of board `board` (a shipped name or a board file's path)."""
    from hardware import board as board_file
    return board_file.load(board_path(board))["platform"]


def python_files(board=None):
    """(source path, path on the device) for every module the device runs, plus boot/main.
    With `board`, only that board's port modules (port_modules) among those of every port,
    and no package __init__.py that holds only a docstring (_code_less_package)."""
    ported = None
    if board is not None:
        platform = platform_of(board)
        if os.path.isfile(os.path.join(ROOT, "firmware", "ports", platform + ".py")):
            ported = port_modules(platform)
    files = []
    for package in PACKAGES:
        for folder, dirs, names in os.walk(os.path.join(ROOT, package)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(names):
                if not name.endswith(".py"):
                    continue
                source = os.path.join(folder, name)
                rel = os.path.relpath(source, ROOT).replace(os.sep, "/")
                if not on_device(rel):
                    continue
                if ported is not None and (rel.startswith(PORT_FOLDERS) and rel not in ported
                                           or _code_less_package(rel)):
                    continue
                files.append((source, rel))
    files.append((os.path.join(ROOT, "firmware", "boot.py"), "boot.py"))
    files.append((os.path.join(ROOT, "firmware", "main.py"), "main.py"))
    return files


# The Adafruit bundle modules a CircuitPython board with a display gets; the wheel itself
# needs none there (its loop runs without asyncio: firmware/ports/circuitpython.py).
CIRCUITPYTHON_DISPLAY_LIBS = ("adafruit_ssd1306.py", "adafruit_framebuf.py",
                              "adafruit_bus_device/")


def library_files(board):
    """(source path, path on the device) of the outside libraries the board needs, in lib/
    (host_tools/device/libs.py pins them): Adafruit's SSD1306 driver for a CircuitPython board
    with a display. A MicroPython board needs none (hardware/mp_parts.py drives its SSD1306
    itself), nor does the simulator."""
    from hardware import board as board_file

    from host_tools.device import libs
    config = board_file.load(board_path(board))
    platform = config["platform"]
    if platform == "circuitpython" and config["display"]:
        return [(source, "lib/" + rel) for source, rel in libs.files("circuitpython")
                if rel.startswith(CIRCUITPYTHON_DISPLAY_LIBS)]
    return []


def board_names():
    return sorted(n[:-5] for n in os.listdir(BOARD_DIR) if n.endswith(".json"))


def board_path(name):
    """The board file named: a shipped board's name (pico), or a path to a file of one's own
    (anything ending in .json or naming a folder: ./myring.json, boards/pico.json)."""
    if name.endswith(".json") or os.sep in name or "/" in name:
        if not os.path.isfile(name):
            raise UserError("board file %s: no such file" % name)
        return name
    path = os.path.join(BOARD_DIR, name + ".json")
    if not os.path.exists(path):
        raise UserError("no board %r (boards: %s; or give a board file's path)"
                        % (name, ", ".join(board_names())))
    return path


def simulated_board(name):
    """The board file for the simulator or the virtual board: it must be a `sim` one (a board
    for a chip needs that chip's modules: chromawheel emulate runs an rp2 board)."""
    from hardware import board as board_file
    config = board_file.load(board_path(name))
    if config["platform"] != "sim":
        raise UserError("board %s is for platform %s: the simulator runs board files of platform "
                        "sim (copy boards/sim.json for a ring of your own; chromawheel emulate "
                        "runs an rp2 board)" % (config["board"], config["platform"]))
    return config


def board_key(name):
    """A board's name fit for a file name: a shipped name as it is, a board file's own name
    without its folder and .json."""
    base = os.path.basename(name)
    return base[:-5] if base.endswith(".json") else base


def data_files(board, meldset_sources=(DEFAULT_SOURCE,)):
    """(bytes, path on the device) for the board file and the compiled meld sets."""
    with open(board_path(board), "rb") as f:
        files = [(f.read(), "board.json")]
    for source in meldset_sources:
        blob = compile_file(source)
        name = os.path.splitext(os.path.basename(source))[0]
        files.append((blob, "melds/%s.cwm" % name))
    return files


def compile_mpy(source, rel, target, mpy_cross=None, arch=None):
    """mpy-cross source -> target; UserError with the compiler's message if it fails. A module
    with machine code is compiled for `arch` (mpy-cross -march), or without one as plain
    Python (host_tools/device/native.py)."""
    args = [mpy_cross or mpy_cross_path(), "-o", target, "-s", rel]
    with open(source, "rb") as f:
        data = f.read()
    plain_copy = None
    if native.has_machine_code(data):
        if arch:
            args.append("-march=" + arch)
        else:
            plain_copy = source = target + ".plain.py"
            with open(plain_copy, "wb") as f:
                f.write(native.plain(data))
    try:
        proc = tools.run(args + [source], "mpy-cross " + rel, 120, text=True)
    finally:
        if plain_copy:
            os.remove(plain_copy)
    if proc.returncode:
        raise UserError("mpy-cross %s: %s" % (rel, proc.stderr.strip()))


# Compiled modules, kept between runs: a deploy with nothing changed, or another simulator
# run, compiles nothing (mpy-cross is a process per module: most of a deploy's host time).
MPY_CACHE = cache("mpy-cache")
_compiler_ids = {}


def _compiler_id(tool):
    """What the cache key must hold of the compiler: its version line (asked once a run)."""
    if tool not in _compiler_ids:
        _compiler_ids[tool] = tools.run([tool, "--version"], "mpy-cross --version", 60).stdout
    return _compiler_ids[tool]


def compiled_mpy(source, rel, tool=None, arch=None):
    """The .mpy bytes of `source` compiled as device path `rel` (for `arch`: compile_mpy), from
    the cache when this compiler has compiled these bytes before."""
    tool = tool or mpy_cross_path()
    with open(source, "rb") as f:
        data = f.read()
    if native.has_machine_code(data):
        data += b"\0" + (arch or "plain").encode()
    else:
        arch = None
    key = hashlib.sha256(_compiler_id(tool) + b"\0" + rel.encode() + b"\0" + data).hexdigest()
    cached = os.path.join(MPY_CACHE, key + ".mpy")
    try:
        with open(cached, "rb") as f:
            return f.read()
    except OSError:
        pass
    os.makedirs(MPY_CACHE, exist_ok=True)
    fresh = "%s.%d.tmp" % (cached, os.getpid())
    compile_mpy(source, rel, fresh, tool, arch)
    os.replace(fresh, cached)            # whole or absent, even with two runs at once
    with open(cached, "rb") as f:
        return f.read()


def build_flash(dest, board="sim", compiled=True, meldset=None):
    """Lay out a device's flash in folder `dest` (kept: settings, logs, flashed sets stay).
    Modules are precompiled with mpy-cross, as deploy does: compiling on the device would
    take RAM a small board does not have. boot.py and main.py stay source, as on a board.
    meldset: a set (shipped name or file) to install beside the default one and choose, as
    `meldset flash` does on a board."""
    chosen = set_to_flash(meldset) if meldset and meldset != DEFAULT_SET else None
    tool = mpy_cross_path() if compiled else None
    for source, rel in python_files():
        target = os.path.join(dest, rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if compiled and "/" in rel:
            with open(target[:-3] + ".mpy", "wb") as f:
                f.write(compiled_mpy(source, rel, tool))
            stale = target
        else:
            shutil.copyfile(source, target)
            stale = target[:-3] + ".mpy"
        if os.path.exists(stale):
            os.remove(stale)     # MicroPython would import a leftover .py before the .mpy
    for data, rel in data_files(board):
        target = os.path.join(dest, rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as f:
            f.write(data)
    if chosen is not None:
        blob, _, name = chosen
        with open(os.path.join(dest, "melds", name + ".cwm"), "wb") as f:
            f.write(blob)
    if meldset:
        choose_set(dest, chosen[2] if chosen else DEFAULT_SET)
    return dest


def choose_set(dest, name):
    """Make the firmware in flash folder `dest` load set `name` at its next start: the
    settings file's meldset, the other settings kept (what deploy.flash_set does on a
    board)."""
    merge_settings(dest, {"meldset": name})


def merge_settings(dest, values):
    """These settings into flash folder `dest`'s settings.json, the others kept."""
    path = os.path.join(dest, "settings.json")
    try:
        with open(path, "rb") as f:
            saved = f.read()
    except OSError:
        saved = None
    with open(path + ".tmp", "wb") as f:
        f.write(merged_settings(saved, values))
    os.replace(path + ".tmp", path)


def merged_settings(saved, values):
    """A settings file's bytes (or None) with these settings put in, the others kept; an
    unreadable file counts as empty, as the firmware reads it."""
    try:
        settings = json.loads(saved) if saved else {}
    except ValueError:
        settings = {}
    if not isinstance(settings, dict):
        settings = {}
    settings.update(values)
    return json.dumps(settings).encode()
