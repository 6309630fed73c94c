"""`chromawheel board ...`: list, check and draw the board files."""

import os
import sys

from hardware import board as board_file

from host_tools.builds.wiring import svg
from host_tools.cli.output import emit
from host_tools.device.files import board_names, board_path
from host_tools.errors import UserError
from host_tools.set_files import write_atomic


def register(commands, common):
    p = commands.add_parser("board", help="list, validate and draw wiring for board files")
    actions = p.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    a = actions.add_parser("list", parents=[common], help="the board files shipped")
    a.set_defaults(run=run_list)
    a = actions.add_parser("validate", parents=[common], help="check a board file")
    a.add_argument("path", help="a board file, or the name of a shipped one")
    a.set_defaults(run=run_validate)
    a = actions.add_parser("wiring", parents=[common], help="draw a board's wiring as SVG")
    a.add_argument("name", metavar="BOARD", help="a shipped board's name or a board file")
    a.add_argument("-o", "--output", metavar="FILE.svg", required=True)
    a.add_argument("--ky040", action="store_true",
                   help="the encoder as a KY-040 module (CLK, DT, SW, + and GND pins)")
    a.add_argument("--level-shifter", action="store_true",
                   help="a 74AHCT125 between the data pin and the ring (5 V data for a ring "
                        "that does not read 3.3 V)")
    a.add_argument("--breadboard", action="store_true",
                   help="the build on a breadboard instead (a board on the Pico's header)")
    a.set_defaults(run=run_wiring)
    a = actions.add_parser("faceplate", parents=[common],
                           help="a printable face for a board's ring, at 1:1 (SVG in mm)",
                           description="The 12 note labels around the ring's LEDs (C at the "
                           "LED the board file puts at C, in the ring's direction), the LEDs' "
                           "places (dark ones crossed out), the hole for the encoder's shaft, "
                           "the cut circle and a scale bar; print at 100% and put it in the "
                           "recess of the enclosure's faceplate (boards/enclosure/) or under "
                           "a translucent cover.")
    a.add_argument("name", metavar="BOARD", help="a shipped board's name or a board file")
    a.add_argument("-o", "--output", metavar="FILE.svg", required=True)
    a.add_argument("--ring-diameter", metavar="MM[,MM]",
                   help="the ring's outer diameter in mm (and its inner one), for a ring "
                        "other than Adafruit's 12, 16, 24 or 60 (a generic 50 mm ring of 16)")
    a.set_defaults(run=run_faceplate)
    a = actions.add_parser("test", parents=[common],
                           help="the colour-order test on a connected board: red, green, blue "
                                "on C, C#, D")
    a.add_argument("--port", required=True, help="serial port, e.g. /dev/ttyACM0")
    a.add_argument("--seconds", type=int, default=10, help="how long to show it (default 10)")
    a.set_defaults(run=run_test)


def load(path_or_name):
    """A board file, its pins checked against its board's header (boards/pinouts/)."""
    from host_tools.builds import pinouts
    path = path_or_name if os.path.exists(path_or_name) else board_path(path_or_name)
    try:
        return board_file.load(path, pinouts.check)
    except board_file.BoardError as err:
        raise UserError(str(err)) from err


def run_list(args):
    rows = [load(name) for name in board_names()]
    emit(args, [{"board": b["board"], "title": b["title"], "platform": b["platform"]}
                for b in rows],
         ["%-12s %-14s %s" % (b["board"], b["platform"], b["title"]) for b in rows])


def run_validate(args):
    from host_tools.builds import pinouts
    b = load(args.path)
    warnings = pinouts.warnings(b)
    for where, message in warnings:          # valid all the same: the exit status is 0
        print("warning: %s: %s: %s" % (args.path, where, message), file=sys.stderr)
    emit(args, {"path": args.path, "valid": True, "board": b,
                "warnings": ["%s: %s" % w for w in warnings]},
         ["%s: valid board file '%s' (%s)%s" % (args.path, b["board"], b["title"],
                                                ", with %d warning%s" % (
                                                    len(warnings), "" if len(warnings) == 1
                                                    else "s") if warnings else "")])


def run_wiring(args):
    b = load(args.name)
    if b["platform"] in ("sim", "web"):
        raise UserError("board %r is a simulated board: nothing to wire" % b["board"])
    if not b["pinout"]:
        raise UserError("board %r names no pinout: the picture puts each pin in its place on "
                        "a board of boards/pinouts/ (pico, esp32_devkitc, qtpy_rp2040); set "
                        "\"pinout\" to the one it is built on" % b["board"])
    if args.breadboard:
        from host_tools.builds import breadboard
        if args.ky040 or args.level_shifter:
            raise UserError("--breadboard draws the build with a bare EC11 and no level "
                            "shifter: leave out --ky040 and --level-shifter")
        if b["pinout"] != "pico":
            raise UserError("board %r: --breadboard is drawn for a board on the Pico's header "
                            "(pinout \"pico\"); the wiring picture without it fits any"
                            % b["board"])
        picture = breadboard.svg(b)
    else:
        picture = svg(b, args.ky040, args.level_shifter)
    write_atomic(args.output, picture.encode())
    emit(args, {"output": args.output}, ["wrote %s" % args.output])


def ring_diameter(text):
    """--ring-diameter: '50' or '50,37' (mm) -> 50.0 or (50.0, 37.0)."""
    if text is None:
        return None
    try:
        values = [float(v) for v in text.split(",")]
    except ValueError:
        values = []
    if len(values) not in (1, 2) or not 20 <= values[0] <= 400 or (
            len(values) == 2 and not 5 <= values[1] < values[0] - 2):
        raise UserError("--ring-diameter %s: the ring's outer diameter in mm (20 to 400), "
                        "optionally its inner one after a comma: 50 or 50,37" % text)
    return values[0] if len(values) == 1 else tuple(values)


def run_faceplate(args):
    from host_tools.builds import faceplate
    diameter = ring_diameter(args.ring_diameter)
    b = load(args.name)
    if b["platform"] == "web":
        raise UserError("board %r is the web page's: it has no ring to cover" % b["board"])
    write_atomic(args.output, faceplate.svg(b, diameter).encode())
    size = faceplate.ring_size(b["ring"]["count"], diameter)
    cut = faceplate.cut_diameter(b["ring"]["count"], diameter)
    emit(args, {"output": args.output, "leds": b["ring"]["count"], "ring_mm": list(size),
                "cut_mm": round(cut, 1)},
         ["wrote %s (for a %d-LED ring of %.1f mm; print at 100%%, cut along the dashed "
          "circle, %.1f mm; the enclosure: -D paper_d=%.1f)"
          % (args.output, b["ring"]["count"], size[0], cut, cut)])


def run_test(args):
    from host_tools.device import deploy
    if not 1 <= args.seconds <= 600:
        raise UserError("--seconds %d: 1 to 600" % args.seconds)
    report = deploy.colour_test(args.port, args.seconds,
                                progress=(lambda line: None) if args.json else print)
    emit(args, report, ["the app is running again" if report["started"] else
                        "the board did not say it started: reset it"])
