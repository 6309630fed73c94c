"""The enclosure (boards/enclosure/chromawheel.scad) through OpenSCAD: its STL files for a
build (and the knob, knob.stl), and the README's figures (boards/enclosure/README.md: the size
table, where each part sits, the bridges to print), taken from the model's own
`CHROMAWHEEL ...` echo line so the two cannot disagree.

    python -m host_tools.builds.enclosure --stl build/stl [--board pico] [--ring-leds 12]
    python -m host_tools.builds.enclosure --readme     (rewrites the README's figures)
"""

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import textwrap

from host_tools import shipped, tools

SCAD = shipped("boards", "enclosure", "chromawheel.scad")
README = shipped("boards", "enclosure", "README.md")
PARTS = ("base", "encoder_mount", "ring_holder", "faceplate")
KNOB = "knob.stl"                 # one knob for every build: the encoder's shaft sets it
BOARDS = (("pico", "Pico"), ("qtpy", "QT Py"), ("esp32", "ESP32"))
RINGS = ((12, "37 mm"), (16, "44.5 mm"), (24, "65.6 mm"), (60, "158 mm"))
# The README's blocks the model writes: (name, the function that writes it from the model)
BLOCKS = ("sizes", "positions", "bridges")
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
        run = tools.run([openscad(), "-o", out] + _defines(dict(params, part="base")) + [SCAD],
                        "openscad", 120, text=True)
        text = run.stderr + (open(out).read() if os.path.exists(out) else "")
        return parse_echo(text)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def render(folder, board="pico", ring_leds=12, progress=print, **params):
    """The four parts' STL files for one build in `folder`, and the knob (knob.stl); their
    paths."""
    os.makedirs(folder, exist_ok=True)
    paths = []
    for part in PARTS + ("knob",):
        name = KNOB if part == "knob" else "chromawheel-%s-%d-%s.stl" % (board, ring_leds, part)
        path = os.path.join(folder, name)
        run = tools.run([openscad(), "-o", path] + _defines(dict(
            params, part=part, board=board, ring_leds=ring_leds)) + [SCAD], "openscad " + part,
            900, text=True)
        if run.returncode or "ERROR" in run.stderr or not os.path.exists(path):
            raise OpenScadError("%s: %s" % (part, run.stderr.strip()[-500:]))
        progress("wrote %s" % path)
        paths.append(path)
    return paths


def clock(degrees):
    """The model's angle (anticlockwise from 3 o'clock, seen from above) as a clock hour."""
    return int(round(3 - degrees / 30.0)) % 12 or 12


def positions():
    """Where each part sits in the base, seen from above with the USB opening at 12 o'clock,
    and how far the ring can turn in its holder, from the model."""
    e = echo()
    screws = sorted(clock(float(a)) for a in str(e["screw_angles"]).split(","))
    rows = ["| what | where, seen from above (the USB opening at 12 o'clock) |",
            "| --- | --- |",
            "| the USB opening | %d o'clock |" % clock(90),
            "| the OLED's window | %d o'clock |" % clock(270),
            "| the piezo's collar | %d o'clock |" % clock(e["piezo_angle"]),
            "| the level shifter's bay | %d o'clock, beside the board |" % clock(
                e["shifter_angle"]),
            "| the channel for the capacitor and the ring's wires (through the encoder mount "
            "and the ring holder) | %d o'clock |" % clock(e["wire_angle"]),
            "| the three screws | %s o'clock |" % _and([str(h) for h in screws]),
            "| the MIDI jacks, IN and OUT (through the base's wall) | %d and %d o'clock |"
            % (clock(e["jack_in_angle"]), clock(e["jack_out_angle"]))]
    turns = ["\u00b1%s\u00b0 on the %d-LED ring" % (_mm(echo(ring_leds=leds)["chan_deg"] / 2),
                                                    leds) for leds, _ in RINGS]
    return "\n".join(rows) + "\n\n" + _wrap(
        "The ring's pads, with the capacitor and the wires soldered to them, sit in the "
        "channel, so the ring turns in its holder by no more than half the channel's width "
        "each way: %s. Which LED ends up at the 12 o'clock notch is the ring's own: bring-up "
        "learns it with the ring in its holder." % _and(turns))


def bridges():
    """The base's bridges as printed (what the slicer spans with nothing under it)."""
    e = echo()
    spans = [("the USB opening's top edge", e["bridge_usb"]),
             ("the OLED window's top edge", e["bridge_window"]),
             ("the top of the recess for the OLED's glass, behind the window",
              e["bridge_glass"])]
    spans = [(what, mm) for what, mm in spans if mm]
    return _wrap("No part needs supports. The base has %d bridges, the longest %s mm: %s. Most "
                 "printers bridge these in PLA or PETG with their default bridge settings; if "
                 "the edges sag, turn the part's fan up for bridges." % (
                     len(spans), _mm(max(mm for _, mm in spans)),
                     _and(["%s (%s mm)" % (what, _mm(mm)) for what, mm in spans])))


def _wrap(text):
    return "\n".join(textwrap.wrap(text, 96, break_on_hyphens=False))


def _and(items):
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


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


def marks(name):
    return ("<!-- %s: python -m host_tools.builds.enclosure --readme -->" % name,
            "<!-- end of %s -->" % name)


def readme_with_table(text, table, name="sizes"):
    start_mark, end_mark = marks(name)
    start, end = text.index(start_mark), text.index(end_mark)
    return text[:start + len(start_mark)] + "\n\n" + table + "\n\n" + text[end:]


def readme_with_blocks(text):
    """The README with every block the model writes brought up to date."""
    writers = {"sizes": size_table, "positions": positions, "bridges": bridges}
    for name in BLOCKS:
        text = readme_with_table(text, writers[name](), name)
    return text


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host_tools.builds.enclosure",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--stl", metavar="DIR",
                        help="render the four parts' STL files here, and the knob (knob.stl)")
    parser.add_argument("--board", default="pico", choices=[b for b, _ in BOARDS])
    parser.add_argument("--ring-leds", type=int, default=12, choices=[n for n, _ in RINGS])
    parser.add_argument("--readme", action="store_true",
                        help="rewrite the figures in boards/enclosure/README.md")
    args = parser.parse_args(argv)
    if not (args.stl or args.readme):
        parser.error("nothing to do: --stl DIR and/or --readme")
    try:
        if args.readme:
            with open(README, encoding="utf-8") as f:
                text = f.read()
            with open(README, "w", encoding="utf-8") as f:
                f.write(readme_with_blocks(text))
            print("wrote the sizes, positions and bridges in %s" % os.path.relpath(README))
        if args.stl:
            render(args.stl, args.board, args.ring_leds)
    except OpenScadError as err:
        print("error: %s" % err, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
