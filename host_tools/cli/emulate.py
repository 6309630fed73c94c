"""`chromawheel emulate`: the firmware on the real rp2 port in the emulated RP2040."""

import os
import shutil
import signal
import sys

from host_tools.emulator import emulate

from host_tools.cli import knob_input
from host_tools.errors import UserError
from host_tools.cli.output import emit


def register(commands, common):
    p = commands.add_parser(
        "emulate", parents=[common],
        help="run the firmware on the real MicroPython rp2 port in an emulated RP2040",
        description="With --script: the knob and button steps on the emulated pins, and "
        "every frame decoded off the WS2812 pin written to --frames as the simulator writes "
        "it. With --port: the board's USB serial on a pseudo-terminal for deploy, meldset "
        "flash/list and mpremote; knob steps typed here (cw 1, click, long) reach its pins. "
        "The first run deploys the firmware onto a fresh flash image (cached).")
    p.add_argument("--board", default="pico", help="an rp2 board file (default: pico)")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--script", help="e.g. 'cw 3; click; ccw 1; double; long; wait 200'")
    where.add_argument("--port", action="store_true",
                       help="expose the emulated board's USB serial on a pseudo-terminal")
    p.add_argument("--frames", metavar="FILE", help="with --script: write frames here")
    p.add_argument("--flash", metavar="FILE",
                   help="the flash image to run and keep (default: a copy of the deployed "
                        "firmware; with --port and a new FILE: a board with only MicroPython)")
    p.add_argument("--hold-button", action="store_true",
                   help="hold the button at power-up (safe mode)")
    p.set_defaults(run=run_emulate)


def run_emulate(args):
    progress = (lambda line: None) if args.json else (lambda line: print(line, file=sys.stderr))
    if args.script is not None:
        if args.flash and not os.path.exists(args.flash):
            raise UserError("--flash %s: no such image (make one with --port --flash FILE, "
                            "then deploy to it)" % args.flash)
        frames, console = emulate.run_script(args.script, args.frames, args.board,
                                             args.flash, args.hold_button, progress)
        faults = sum(f["faults"] for f in frames)
        emit(args, {"frames": len(frames), "console": console, "timing_faults": faults},
             console + ["%d frames%s; %d WS2812 timing faults" % (
                 len(frames), " written to " + args.frames if args.frames else "", faults)])
        return 0
    return _serve(args, progress)


def _stop(signum, frame):
    raise KeyboardInterrupt


def _serve(args, progress):
    from host_tools.emulator.rp2040 import EmulatedPico
    config = emulate.load_board(args.board)
    flash = args.flash
    if flash is None:
        flash = os.path.join(emulate.CACHE, "%s-port.img" % args.board)
        os.makedirs(emulate.CACHE, exist_ok=True)
        shutil.copyfile(emulate.deployed_image(args.board, progress), flash)
    signal.signal(signal.SIGTERM, _stop)
    with EmulatedPico(flash, config, held=args.hold_button) as pico:
        emit(args, {"port": pico.port, "flash": os.path.abspath(flash)},
             ["emulated %s on %s (flash: %s)" % (args.board, pico.port, os.path.abspath(flash)),
              "use it like a board: chromawheel deploy --port %s, mpremote connect port:%s"
              % (pico.port, pico.port),
              "type knob steps here (cw 1, ccw 1, click, double, long); Ctrl-C stops"])
        sys.stdout.flush()
        shown = [0]

        def show():
            while shown[0] < len(pico.frames):
                frame = emulate.frames_of(pico, config["ring"], pico.frames[shown[0]][0])[0]
                shown[0] += 1
                if not args.json:
                    print("ring: %s" % " ".join(
                        str(pc) for pc in range(12) if any(frame["wheel"][pc])))
        knob_input.serve(pico.send, config["button"], show)
    return 0
