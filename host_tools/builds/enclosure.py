"""The enclosure (boards/enclosure/chromawheel.scad) through OpenSCAD: its STL files for a
build, and the size table in boards/enclosure/README.md, taken from the model's own
`CHROMAWHEEL ...` echo line so the two cannot disagree.

    python -m host_tools.builds.enclosure --stl build/stl [--board pico] [--ring-leds 12]
    python -m host_tools.builds.enclosure --readme     (rewrites the README's size table)
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from host_tools import shipped

SCAD = shipped("boards", "enclosure", "chromawheel.scad")
README = shipped("boards", "enclosure", "README.md")
PARTS = ("base", "encoder_mount", "ring_holder", "faceplate")
BOARDS = (("pico", "Pico"), ("qtpy", "QT Py"), ("esp32", "ESP32"))
RINGS = ((12, "37 mm"), (16, "44.5 mm"), (24, "65.6 mm"), (60, "158 mm"))
TABLE_START = "<!-- sizes: python -m host_tools.builds.enclosure --readme -->"
TABLE_END = "<!-- end of sizes -->"
INSTALL = "OpenSCAD is not installed (Debian: apt-get install openscad; openscad.org)"


class OpenScadError(Exception):
    pass


def openscad():
    path = shutil.which("openscad")
    if path is None:
        raise OpenScadError(INSTALL)
    return path


def _defines(params):
    out = []
    for key, value in sorted(params.items()):
        out += ["-D", "%s=%s" % (key, json.dumps(value))]
    return out


def parse_echo(text):
    found = re.search(r'ECHO: "CHROMAWHEEL ([^"]*)"', text)
    if not found:
        problem = re.search(r"(ERROR: .*)", text)
        raise OpenScadError(problem.group(1) if problem else text.strip()[-500:])
    echo = {}
    for pair in found.group(1).split():
        key, value = pair.split("=", 1)
        try:
            echo[key] = float(value)
        except ValueError:
            echo[key] = value
    return echo


def echo(**params):
    """The model's sizes for these parameters (no geometry: a fraction of a second)."""
    folder = tempfile.mkdtemp(prefix="chromawheel-scad-")
    try:
        out = os.path.join(folder, "sizes.echo")
        run = subprocess.run([openscad(), "-o", out] + _defines(dict(params, part="base"))
                             + [SCAD], capture_output=True, text=True, timeout=120)
        text = run.stderr + (open(out).read() if os.path.exists(out) else "")
        return parse_echo(text)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def render(folder, board="pico", ring_leds=12, progress=print, **params):
    """The four parts' STL files for one build in `folder`; their paths."""
    os.makedirs(folder, exist_ok=True)
    paths = []
    for part in PARTS:
        path = os.path.join(folder, "chromawheel-%s-%d-%s.stl" % (board, ring_leds, part))
        run = subprocess.run([openscad(), "-o", path] + _defines(dict(
            params, part=part, board=board, ring_leds=ring_leds)) + [SCAD],
            capture_output=True, text=True, timeout=900)
        if run.returncode or "ERROR" in run.stderr or not os.path.exists(path):
            raise OpenScadError("%s: %s" % (part, run.stderr.strip()[-500:]))
        progress("wrote %s" % path)
        paths.append(path)
    return paths


def size_table():
    """The README's table: outer diameter and stack height for each ring and board, with the
    shipped defaults (the OLED's window and the piezo's pocket in)."""
    rows = ["| ring | outer diameter | height of the stack (base, encoder mount, ring holder, "
            "faceplate) |", "| --- | --- | --- |"]
    for leds, size in RINGS:
        heights, outer = [], None
        for board, name in BOARDS:
            e = echo(board=board, ring_leds=leds)
            outer = e["outer_d"]
            stack = e["base_h"] + e["plate_t"] + e["holder_t"] + e["face_t"]
            heights.append("%s %s mm" % (name, _mm(stack)))
        note = ": it needs a 220 mm bed, or a smaller `paper_d`" if outer > 200 else ""
        rows.append("| %d LEDs (%s) | %s mm%s | %s |" % (leds, size, _mm(outer), note,
                                                      ", ".join(heights)))
    return "\n".join(rows)


def _mm(value):
    return ("%.1f" % value).rstrip("0").rstrip(".")


def readme_with_table(text, table):
    start, end = text.index(TABLE_START), text.index(TABLE_END)
    return text[:start + len(TABLE_START)] + "\n\n" + table + "\n\n" + text[end:]


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host_tools.builds.enclosure",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--stl", metavar="DIR", help="render the four parts' STL files here")
    parser.add_argument("--board", default="pico", choices=[b for b, _ in BOARDS])
    parser.add_argument("--ring-leds", type=int, default=12, choices=[n for n, _ in RINGS])
    parser.add_argument("--readme", action="store_true",
                        help="rewrite the size table in boards/enclosure/README.md")
    args = parser.parse_args(argv)
    if not (args.stl or args.readme):
        parser.error("nothing to do: --stl DIR and/or --readme")
    try:
        if args.readme:
            with open(README, encoding="utf-8") as f:
                text = f.read()
            with open(README, "w", encoding="utf-8") as f:
                f.write(readme_with_table(text, size_table()))
            print("wrote the size table in %s" % os.path.relpath(README))
        if args.stl:
            render(args.stl, args.board, args.ring_leds)
    except OpenScadError as err:
        print("error: %s" % err, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
