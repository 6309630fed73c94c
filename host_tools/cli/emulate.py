"""`chromawheel emulate`: the firmware on a real port (MicroPython or CircuitPython) in the
emulated RP2040."""

import os
import shutil
import signal
import sys

from host_tools.cli import knob_input
from host_tools.cli.options import add_settings
from host_tools.cli.output import emit
from host_tools.device.files import board_key
from host_tools.emulator import emulate
from host_tools.errors import UserError


def register(commands, common):
    p = commands.add_parser(
        "emulate", parents=[common],
        help="run the firmware on a real port in an emulated RP2040 (MicroPython on a Pico, "
        "CircuitPython on a QT Py RP2040)",
        description="With --script: the knob and button steps on the emulated pins, and "
        "every frame decoded off the WS2812 pin written to --frames as the simulator writes "
        "it. With --port: the board's USB serial on a pseudo-terminal (for deploy, meldset "
        "flash/list and mpremote on a MicroPython board); knob steps typed here (cw 1, click, "
        "long) reach its pins. The first run deploys the firmware onto a fresh flash image "
        "(cached): over mpremote on a MicroPython board, as the CIRCUITPY drive that deploy "
        "--drive lays out on a CircuitPython one.")
    p.add_argument("--board", default="pico",
                   help="an rp2 board (a shipped name or a board file's path), or qtpy_rp2040 "
                        "(CircuitPython) (default: pico)")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--script", help="e.g. 'cw 3; click; ccw 1; double; long; wait 200'")
    where.add_argument("--port", action="store_true",
                       help="expose the emulated board's USB serial on a pseudo-terminal")
    p.add_argument("--frames", metavar="FILE", help="with --script: write frames here")
    p.add_argument("--flash", metavar="FILE",
                   help="the flash image to run and keep (default: a copy of the deployed "
                        "firmware); a new FILE: with --script, the firmware deployed onto a "
                        "fresh image (a second run powers up what the first one saved); "
                        "with --port, a MicroPython board with only MicroPython (or --uf2) "
                        "on it")
    p.add_argument("--uf2", metavar="FILE",
                   help="MicroPython boards: run this UF2 instead of the stock MicroPython "
                        "image, on a fresh flash (the firmware is deployed onto it, unless "
                        "it is frozen in, as in build_uf2.sh frozen)")
    p.add_argument("--hold-button", action="store_true",
                   help="hold the button at power-up (safe mode)")
    add_settings(p)
    p.set_defaults(run=run_emulate)


def run_emulate(args):
    progress = (lambda line: None) if args.json else (lambda line: print(line, file=sys.stderr))
    if args.settings and args.script is None:
        raise UserError("--settings goes with --script")
    if args.script is not None:
        drive = {}
        frames, console = emulate.run_script(args.script, args.frames, args.board,
                                             args.flash, args.hold_button, progress,
                                             uf2=args.uf2, drive=drive, settings=args.settings)
        faults = sum(f["faults"] for f in frames)
        result = {"frames": len(frames), "console": console, "timing_faults": faults}
        lines = console + ["%d frames%s; %d WS2812 timing faults" % (
            len(frames), " written to " + args.frames if args.frames else "", faults)]
        if emulate.is_circuitpython(emulate.load_board(args.board)):
            # What the board keeps, read back from the flash image: CircuitPython's own
            # boot_out.txt on CIRCUITPY, the firmware's records in microcontroller.nvm.
            saved = {path: data.decode("utf-8", "replace") for path, data in drive.items()
                     if path in ("settings.json", "boot_out.txt")}
            kept = {name: data.decode("utf-8", "replace")
                    for name, data in drive.pop(emulate.NVM_RECORDS, {}).items()}
            result["drive"] = saved
            result["nvm"] = kept
            lines += ["CIRCUITPY %s: %s" % (path, text.strip().replace("\n", " | "))
                      for path, text in sorted(saved.items())]
            lines += ["nvm %s: %s" % (name, text) for name, text in sorted(kept.items())]
        emit(args, result, lines)
        return 0
    return _serve(args, progress)


def _stop(signum, frame):
    raise KeyboardInterrupt


def _serve(args, progress):
    config = emulate.load_board(args.board)
    flash = args.flash
    emulate.refuse_uf2_on_kept(flash, args.uf2)
    if flash is None:
        flash = os.path.join(emulate.CACHE, "%s-port.img" % board_key(args.board))
        os.makedirs(emulate.CACHE, exist_ok=True)
        shutil.copyfile(emulate.deployed_image(args.board, progress, args.uf2), flash)
    elif not os.path.exists(flash) and emulate.is_circuitpython(config):
        emulate.deploy_onto(args.board, flash, progress)
    signal.signal(signal.SIGTERM, _stop)
    with emulate.emulated(args.board, flash, held=args.hold_button, uf2=args.uf2) as pico:
        use = ("use it like a board: mpremote connect port:%s (CircuitPython's REPL; its "
               "files are on CIRCUITPY in the flash image)" % pico.port
               if emulate.is_circuitpython(config) else
               "use it like a board: chromawheel deploy --port %s, mpremote connect port:%s"
               % (pico.port, pico.port))
        emit(args, {"port": pico.port, "flash": os.path.abspath(flash)},
             ["emulated %s on %s (flash: %s)" % (args.board, pico.port, os.path.abspath(flash)),
              use, "type knob steps here (cw 1, ccw 1, click, double, long); Ctrl-C stops"])
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
