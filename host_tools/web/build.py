"""`make web` (python -m host_tools.web.build): the static site in build/web.

  index.html, *.js, style.css   the page (host_tools/web/site)
  runtime/                      the pinned MicroPython WebAssembly (host_tools/web/package.json)
  flash.bin                     the firmware's flash: the same files `chromawheel deploy` sends
                                for board `web` (compiled .mpy when the runtime reads mpy-cross's
                                version, as deploy decides; boot.py, main.py, board.json, the
                                compiled default set), one after another
  host.bin                      what the page runs as the laptop: the core's meld-set validator
                                (core/meldset_compiler.py and what it imports), the page's source
                                reader and checks (host_tools/web/py), and the simulator's
                                script language, copied out of host_tools/sim/simulator.py;
                                the table view's (table.html) table link, log and score pad
                                (compiled .mpy as the flash's are; the example meld sets as
                                they are)
  install-BOARD.bin             what `chromawheel deploy --port` sends a MicroPython board for
                                board BOARD (pico, esp32), compiled .mpy, one file after
                                another: the page's installer puts it on a board over Web Serial
  site.json                     where each file lies in those two, the board file, the
                                wheel's colours (firmware/render.py), the display's glyphs
                                (as the simulator reads them back), the device-side code of
                                `meldset flash` (host_tools/device) and, under "device", the
                                set names' rules the flasher checks (set_name_chars,
                                set_name_max, default_set: core/meldset.py and
                                firmware/layout.py), the example meld sets, where the help
                                panel's documents are, and "install": the boards the
                                installer knows and where each file lies in its bundle
  docs/                         the documents (docs/*.md) as HTML pages (markdown.py, with
                                markdown-it-py), which the help panel links: on GitHub Pages it
                                links the repository's own rendered pages instead
  vendor/                       the QR code encoder of the share panel (npm qrcode-generator,
                                pinned in package-lock.json) and its licence
  fonts/                        the music signs' font subset and its licence (from site/)
  sw.js                         the service worker, with the list of every file above and a
                                version that changes with any of them (offline after one visit)

Every file the page runs is generated from the repository's own, never rewritten by hand."""

import ast
import hashlib
import importlib
import json
import os
import shutil
import subprocess
import sys

from hardware import board as board_file
from hardware.ring import sector_leds

from firmware.render import NOTE_COLOURS
from host_tools import ROOT, shipped
from host_tools.device import deploy
from host_tools.device.files import board_path, compiled_mpy
from host_tools.errors import UserError
from host_tools.sim.display_image import GLYPHS

HERE = os.path.dirname(os.path.abspath(__file__))
SITE = os.path.join(HERE, "site")
PAGE_PY = os.path.join(HERE, "py")
OUT = shipped("web")                     # build/web in a checkout; inside an installed wheel
BOARD = "web"
RUNTIME_PACKAGE = "@micropython/micropython-webassembly-pyscript"
RUNTIME_FILES = ("micropython.mjs", "micropython.wasm")
# The page's QR code encoder (the share panel), vendored from npm as the runtime is: the
# package, its file and where it goes in the site, with its licence beside it.
QR_PACKAGE = "qrcode-generator"
QR_FILE = ("dist/qrcode.mjs", "vendor/qrcode.mjs")
QR_LICENCE = """qrcode-generator (vendor/qrcode.mjs), from npm, version %s

Copyright (c) 2009 Kazuhiko Arase

Permission is hereby granted, free of charge, to any person obtaining a copy of this software
and associated documentation files (the "Software"), to deal in the Software without
restriction, including without limitation the rights to use, copy, modify, merge, publish,
distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the
Software is furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all copies or
substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING
BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM,
DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.

The word "QR Code" is a registered trademark of DENSO WAVE INCORPORATED.
"""
# The laptop's side of a meld set, run by the page's second MicroPython: the validator and the
# modules it imports (host-only modules included: the device never compiles a source).
HOST_CORE = ("core/__init__.py", "core/degrees.py", "core/notes.py", "core/parse.py",
             "core/spelling.py", "core/meldset.py", "core/meldset_check.py",
             "core/meldset_compiler.py", "core/midi.py", "core/melds.py", "core/pcset.py",
             "core/identify.py",
             # the table view's member of the table link (py/table_page.py)
             "core/link.py", "core/table.py", "core/scorepad.py", "core/games/__init__.py",
             "core/games/carmony_table.py")
SIMULATOR = os.path.join(ROOT, "host_tools", "sim", "simulator.py")
CARDS = os.path.join(ROOT, "host_tools", "cards.py")
SCRIPT_NAMES = ("TURN_GAP_MS", "WAIT_LIMIT_MS", "gestures", "compile_script", "_note_messages",
                "_number")
MELDSETS = os.path.join(ROOT, "core", "meldsets")
DOCS = os.path.join(ROOT, "docs")
HELP_DOCS = ("using.md", "meldsets.md", "music.md", "rules.md")
SERVICE_WORKER = "sw.js"


def docs_links(env=None):
    """Where the help panel's documents are: the repository's pages on GitHub when the build
    runs in a GitHub workflow (the Pages workflow), else the copies in the site's docs/."""
    env = os.environ if env is None else env
    repo = env.get("GITHUB_REPOSITORY")
    if repo:
        server = env.get("GITHUB_SERVER_URL") or "https://github.com"
        ref = env.get("GITHUB_SHA") or "HEAD"
        return {name: "%s/%s/blob/%s/docs/%s" % (server, repo, ref, name) for name in HELP_DOCS}
    return {name: "docs/" + name[:-3] + ".html" for name in HELP_DOCS}


def service_worker(out):
    """sw.js in `out` given the site's files (every one, but itself) and their version."""
    names = []
    digest = hashlib.sha256()
    for folder, subfolders, files in os.walk(out):
        subfolders.sort()
        for name in sorted(files):
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, out).replace(os.sep, "/")
            if rel == SERVICE_WORKER:
                continue
            names.append(rel)
            digest.update(rel.encode() + b"\0" + _read(path))
    files = ["./"] + ["index.html" if n == "index.html" else n for n in names]
    path = os.path.join(out, SERVICE_WORKER)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = text.replace('"__VERSION__"', json.dumps(digest.hexdigest()[:16]))
    text = text.replace("__FILES__", json.dumps(files))
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return files


def runtime_dir(package=RUNTIME_PACKAGE):
    """The installed npm package (the runtime, the QR encoder), checked against the version
    the lock file pins."""
    with open(os.path.join(HERE, "package-lock.json")) as f:
        lock = json.load(f)
    wanted = lock["packages"]["node_modules/" + package]["version"]
    folder = os.path.join(HERE, "node_modules", *package.split("/"))
    try:
        with open(os.path.join(folder, "package.json")) as f:
            installed = json.load(f)["version"]
    except (OSError, ValueError):
        installed = None
    if installed != wanted:
        raise UserError("the page's npm package %s %s is not installed (run: make web, which "
                        "needs Node.js and npm)" % (package, wanted))
    return folder, wanted


def _markdown():
    """host_tools/web/markdown.py, whose markdown-it-py is a build tool (requirements-dev),
    not a running one: a checkout set up for running only is told what to run."""
    try:        # by its full name: the package's attribute outlives a module taken away
        markdown = importlib.import_module("host_tools.web.markdown")
    except ImportError as err:
        raise UserError("the site's help pages need markdown-it-py, one of the build tools "
                        "(run: make web, which installs them; %s)" % err) from None
    return markdown


def runtime_mpy(folder):
    """(major, minor) of the .mpy files the runtime imports: asked of it under Node."""
    node = shutil.which("node")
    if node is None:
        raise UserError("make web needs Node.js 18+ (Debian: apt-get install nodejs npm)")
    url = "file://" + os.path.join(folder, "micropython.mjs")
    probe = ("const {loadMicroPython} = await import(process.argv[1]); let out = '';"
             "const mp = await loadMicroPython({stdout: (s) => { out += s; }});"
             "mp.runPython(\"import sys\\nprint(getattr(sys.implementation, '_mpy', 0))\");"
             "console.log(out.trim());")
    proc = subprocess.run([node, "--input-type=module", "-e", probe, url],
                          capture_output=True, text=True, timeout=60)
    if proc.returncode or not proc.stdout.strip().isdigit():
        raise UserError("the MicroPython WebAssembly runtime did not start under Node: %s"
                        % (proc.stderr or proc.stdout).strip()[-200:])
    return deploy.device_mpy_version({"mpy": int(proc.stdout.strip())})


def _top_level(path, names):
    """Source text of the named top-level functions and assignments of a module, in order."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    found = {}
    for node in ast.parse(text).body:
        if isinstance(node, ast.FunctionDef):
            name = node.name
        elif (isinstance(node, ast.Assign) and len(node.targets) == 1
              and isinstance(node.targets[0], ast.Name)):
            name = node.targets[0].id
        else:
            continue
        if name in names:
            found[name] = node
    missing = [n for n in names if n not in found]
    if missing:
        raise UserError("%s: no %s any more (host_tools/web/build.py copies them)"
                        % (os.path.relpath(path, ROOT), ", ".join(missing)))
    return text, found


def script_language():
    """The simulator's script language as a module of its own, for the page."""
    text, found = _top_level(SIMULATOR, SCRIPT_NAMES)
    parts = ['"""The simulator\'s script language, copied out of host_tools/sim/simulator.py',
             'by host_tools/web/build.py: the page reads ?script= as `chromawheel sim` does."""',
             "", "",
             "from core import midi",
             "from core.parse import NoteError, midi_note",
             "", "",
             "class UserError(Exception):",
             '    """As host_tools.errors.UserError: a message naming what is wrong and where."""',
             ""]
    for name in SCRIPT_NAMES:
        parts += ["", ast.get_source_segment(text, found[name]), ""]
    return "\n".join(parts).rstrip() + "\n"


def device_code():
    """What `chromawheel meldset flash` runs on the device, for the page's flasher: the same
    hashes walker and maintenance request line (host_tools/device), the layout's constants,
    and the rules the device and the laptop share for a set's name, read where they live
    (core/meldset.py, firmware/layout.py): its characters, its length, the default set's
    name (which a flash may not replace and the device will not remove)."""
    from firmware import layout
    from host_tools import set_files
    from host_tools.device import link, target
    return {"meld_dir": layout.MELD_DIR, "set_suffix": layout.SET_SUFFIX,
            "maintenance_path": layout.MAINTENANCE_PATH, "reconnect_s": link.RECONNECT_S,
            "write_chunk": link.WRITE_CHUNK, "hashes": link._HASHES, "call": target.CALL,
            "set_name_chars": layout.SET_NAME_CHARS, "set_name_max": layout.MAX_SET_NAME,
            "default_set": layout.DEFAULT_SET,
            "flash_refused": set_files.flash_problem(layout.DEFAULT_SET),
            # what `deploy` runs too, for the page's installer
            "info": link.INFO, "code_dirs": list(layout.CODE_DIRS), "listen_s": link.LISTEN_S}


# The boards the page installs the firmware on (MicroPython's: a CircuitPython board takes
# `deploy --drive`), each as `deploy --port --board NAME` lays it out, compiled.
INSTALL_BOARDS = ("pico", "esp32")


def install_kit(out):
    """install-BOARD.bin for each board, and what site.json says of them: the .mpy version
    the files are compiled for, and each board's title, what its MicroPython reports
    (deploy.PLATFORM_REPORTS) and where each file lies in its bundle."""
    boards = []
    for name in INSTALL_BOARDS:
        config = board_file.load(board_path(name))
        implementation, platforms = deploy.PLATFORM_REPORTS[config["platform"]]
        files = _bundle(os.path.join(out, "install-%s.bin" % name), deploy.payload(name, True))
        boards.append({"board": name, "title": config["title"], "platform": config["platform"],
                       "implementation": implementation, "reports": list(platforms),
                       "bundle": "install-%s.bin" % name, "files": files})
    return {"mpy": "%d.%d" % deploy.mpy_cross_version(), "boards": boards}


def host_module(source, rel, compiled):
    """(name, bytes) of a module of the page's laptop side: compiled .mpy when the runtime
    reads mpy-cross's version, as the flash's are, so that each page load does not compile
    ~100 KB of source again (a phone waits for it); else the source."""
    if compiled:
        return rel[:-3] + ".mpy", compiled_mpy(source, rel)
    return rel, _read(source)


def _bundle(path, files):
    """Write (name, bytes) one after another; [[name, offset, size], ...]."""
    table = []
    at = 0
    with open(path, "wb") as f:
        for name, data in files:
            f.write(data)
            table.append([name, at, len(data)])
            at += len(data)
    return table


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def build(out=OUT, progress=print):
    """Lay out the site in `out` (replaced whole); a report dict."""
    folder, version = runtime_dir()
    device_mpy = runtime_mpy(folder)
    compiled = device_mpy == deploy.mpy_cross_version()
    board = board_file.load(board_path(BOARD))
    flash = deploy.payload(BOARD, compiled)
    fresh = out + ".new"
    shutil.rmtree(fresh, ignore_errors=True)
    shutil.copytree(SITE, fresh)
    sources = [(os.path.join(ROOT, rel), rel) for rel in HOST_CORE]
    sources += [(os.path.join(PAGE_PY, name), name) for name in sorted(os.listdir(PAGE_PY))
                if name.endswith(".py")]
    sources.append((CARDS, "cards.py"))          # the studio prints the cards as the CLI does
    script = os.path.join(fresh, "script.py")          # generated: compiled from here
    with open(script, "w", encoding="utf-8") as f:
        f.write(script_language())
    sources.append((script, "script.py"))
    host = [host_module(source, rel, compiled) for source, rel in sources]
    os.remove(script)
    examples = sorted(n for n in os.listdir(MELDSETS) if n.endswith(".json"))
    host += [("meldsets/" + n, _read(os.path.join(MELDSETS, n))) for n in examples]

    os.makedirs(os.path.join(fresh, "runtime"))
    for name in RUNTIME_FILES:
        shutil.copyfile(os.path.join(folder, name), os.path.join(fresh, "runtime", name))
    qr_folder, qr_version = runtime_dir(QR_PACKAGE)
    os.makedirs(os.path.join(fresh, "vendor"))
    shutil.copyfile(os.path.join(qr_folder, QR_FILE[0]), os.path.join(fresh, QR_FILE[1]))
    with open(os.path.join(fresh, "vendor", "qrcode-generator.LICENSE.txt"), "w") as f:
        f.write(QR_LICENCE % qr_version)
    manifest = {
        "runtime": {"package": RUNTIME_PACKAGE, "version": version,
                    "mpy": "%d.%d" % device_mpy if device_mpy else None},
        "board": dict(board, ring=dict(board["ring"], sector_leds=sector_leds(board["ring"]))),
        "wheel_colours": list(NOTE_COLOURS),
        "flash": {"compiled": compiled, "files": _bundle(os.path.join(fresh, "flash.bin"), flash)},
        "host": _bundle(os.path.join(fresh, "host.bin"), host),
        "examples": examples,
        "glyphs": {cell.hex(): text for cell, text in GLYPHS.items()},
        "device": device_code(),
        "install": install_kit(fresh),
        "docs": docs_links(),
    }
    if os.path.isdir(DOCS):              # a checkout; an installed wheel has none to copy
        markdown = _markdown()
        os.makedirs(os.path.join(fresh, "docs"))
        bundled = sorted(n for n in os.listdir(DOCS) if n.endswith(".md"))
        for name in bundled:
            with open(os.path.join(DOCS, name), encoding="utf-8") as f:
                text = markdown.page(f.read(), bundled)
            with open(os.path.join(fresh, "docs", name[:-3] + ".html"), "w",
                      encoding="utf-8") as f:
                f.write(text)
    with open(os.path.join(fresh, "site.json"), "w") as f:
        json.dump(manifest, f, indent=1, ensure_ascii=False)
    service_worker(fresh)
    shutil.rmtree(out, ignore_errors=True)
    os.replace(fresh, out)
    total = site_size(out)
    progress("built %s: %d firmware files (%s), runtime %s %s, %d bytes in all" % (
        os.path.relpath(out, ROOT), len(flash),
        "compiled .mpy v%s" % manifest["runtime"]["mpy"] if compiled else "source .py",
        RUNTIME_PACKAGE, version, total))
    return {"out": out, "files": len(flash), "compiled": compiled, "bytes": total}


def site_size(out=OUT):
    total = 0
    for folder, _, names in os.walk(out):
        for name in names:
            total += os.path.getsize(os.path.join(folder, name))
    return total


def main():
    try:
        build()
    except UserError as err:
        sys.stderr.write("error: %s\n" % err)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
