"""`chromawheel deploy` and `chromawheel vboard`: the firmware onto a board, and a virtual
board to deploy to."""

import os
import signal
import sys

from hardware import board as board_file

from host_tools import cache
from host_tools.cli import knob_input
from host_tools.cli.options import add_board, add_set
from host_tools.cli.output import emit
from host_tools.device import deploy as deploy_tools
from host_tools.device.files import board_path, build_flash, simulated_board
from host_tools.errors import UserError
from host_tools.sim.simulator import parse_heap
from host_tools.sim.vboard import VirtualBoard, lit_sectors

NAMES = ("C", "C#", "D", "Eb", "E", "F", "F#", "G", "Ab", "A", "Bb", "B")


def register(commands, common):
    p = commands.add_parser("deploy", parents=[common],
                            help="copy the firmware to a board (or the virtual board)")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--port", help="serial port of a MicroPython board, e.g. /dev/ttyACM0")
    where.add_argument("--drive", metavar="PATH",
                       help="the mounted CIRCUITPY drive of a CircuitPython board")
    add_board(p, "the board file to install (default: the one on the device)")
    add_set(p, help="a meld set to install beside the default one and use: a shipped set's "
            "name (jazz) or a JSON source")
    p.set_defaults(run=run_deploy)

    p = commands.add_parser("vboard", parents=[common],
                            help="a virtual board: MicroPython on a pseudo-terminal",
                            description="Prints its port for mpremote. Knob and button steps "
                            "typed on its standard input (cw 1, click, long, ...) reach the "
                            "simulated hardware; the ring's lit notes are printed as they "
                            "change. Stops on Ctrl-C.")
    p.add_argument("--dir", help="its flash folder (default: vboard in the tools' cache: "
                   "build/vboard in a checkout; an empty folder is a board with nothing "
                   "installed)")
    add_board(p, "the simulated hardware", default="sim")
    p.add_argument("--heap", help="MicroPython heap size, e.g. 128k")
    p.add_argument("--firmware", action="store_true",
                   help="lay the current firmware into the folder first, as if deployed")
    add_set(p, help="with --firmware: a meld set laid in beside the default one and chosen")
    p.set_defaults(run=run_vboard)


def run_deploy(args):
    progress = (lambda line: None) if args.json else print
    if args.drive:
        from host_tools.device import drive
        report = drive.deploy(args.drive, args.board, progress=progress, meldset=args.set_path)
    else:
        report = deploy_tools.deploy(args.port, args.board, progress=progress,
                                     meldset=args.set_path)
    emit(args, report, ["deployed %d of %d files (%d bytes) in %.1f s" % (
        report["sent"], report["files"], report["bytes_sent"], report["seconds"])])
    return 0


def _stop(signum, frame):
    raise KeyboardInterrupt        # SIGTERM stops the board as cleanly as Ctrl-C


def run_vboard(args):
    simulated_board(args.board)
    if args.set_path and not args.firmware:
        raise UserError("--set goes with --firmware (a deploy or meldset flash puts sets on "
                        "the virtual board otherwise)")
    args.dir = args.dir or cache("vboard")
    os.makedirs(args.dir, exist_ok=True)
    if args.firmware:
        build_flash(args.dir, args.board, meldset=args.set_path)
    board = VirtualBoard(args.dir, args.board, parse_heap(args.heap))
    port = board.start()
    emit(args, {"port": port, "flash": os.path.abspath(args.dir)},
         ["virtual board on %s (flash: %s)" % (port, os.path.abspath(args.dir)),
          "use it like a board: mpremote connect port:%s ..." % port,
          "type knob steps here (cw 1, ccw 1, click, double, long); Ctrl-C stops"])
    sys.stdout.flush()
    signal.signal(signal.SIGTERM, _stop)
    button = board_file.load(board_path(args.board))["button"]
    shown = [0]

    def show():
        while shown[0] < len(board.frames):
            wheel = board.frames[shown[0]]
            shown[0] += 1
            if not args.json:
                print("ring: %s" % " ".join(NAMES[s] for s in lit_sectors(wheel)))
    try:
        knob_input.serve(board.send, button, show)
    finally:
        board.stop()
    return 0
