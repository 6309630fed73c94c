"""`chromawheel sim`: the firmware in the simulator, interactive or scripted."""

import os
import sys

from host_tools import cache
from host_tools.cli.options import add_board, add_set, add_settings
from host_tools.cli.output import emit
from host_tools.device.files import board_path, build_flash, simulated_board
from host_tools.errors import UserError
from host_tools.sim import simulator, terminal

DEMO_SCRIPT = ("cw 12; click; cw 3; click; double; ccw 2; click; click; double; cw 5; "
               "long; wait 100; long; wait 300")


def register(commands, common):
    p = commands.add_parser("sim", parents=[common],
                            help="run the firmware in the simulator (MicroPython unix port)",
                            description="Without --script: the ring in the terminal, keys for "
                            "the knob and button (a non-interactive terminal gets a demo). "
                            "With --script: no terminal; every frame shown is written to "
                            "--frames as a JSON line.")
    add_board(p, "the simulated hardware", default="sim")
    add_set(p, help="a meld set to try before flashing it: a shipped set's name (jazz) or a "
            "JSON source, installed beside the default set and chosen (default: the set the "
            "flash folder has)")
    p.add_argument("--heap", help="MicroPython heap size, e.g. 48k (a small board)")
    p.add_argument("--script", help="e.g. 'cw 3; click; ccw 1; double; long; wait 200'; "
                   "with --wheels a step may name its wheel: '1: click; 2: cw 3'")
    p.add_argument("--frames", metavar="FILE", help="with --script: write frames here (with "
                   "--wheels: a folder, a file a wheel, wheelK.jsonl)")
    p.add_argument("--wheels", type=int, metavar="N",
                   help="N wheels at one table (2-4), their MIDI jacks on one bus, wheel K on "
                        "seat K with the table link on: the rings side by side, 1-4 choose "
                        "the wheel the keys act on")
    p.add_argument("--flash", metavar="DIR",
                   help="flash folder to keep between runs (interactive default: build/sim-flash;"
                        " scripted default: a fresh one)")
    p.add_argument("--hold-button", action="store_true",
                   help="hold the button at power-up (safe mode)")
    p.add_argument("--reset-cause", choices=["power", "reset"],
                   help="with --script: how the board starts, a power-up (default) or a "
                        "reset/watchdog (only then do earlier crashed boots count)")
    p.add_argument("--uptime-ms", type=int, metavar="N",
                   help="with --script: start the virtual clock as if the board had run N ms "
                        "(ticks wrap every 2**30 as on a real port)")
    p.add_argument("--wav", metavar="FILE",
                   help="with --script: write what the buzzer played as a WAV file")
    p.add_argument("--display-svg", metavar="FILE",
                   help="with --script: write the display's last picture as an SVG file")
    add_settings(p)
    p.set_defaults(run=run_sim)


def run_sim(args):
    simulated_board(args.board)
    if args.wheels is not None:
        return run_wheels(args)
    if args.script is None and (args.uptime_ms is not None or args.reset_cause is not None
                                or args.wav or args.display_svg or args.settings):
        raise UserError("--uptime-ms, --reset-cause, --wav, --display-svg and --settings go "
                        "with --script")
    if args.uptime_ms is not None and args.uptime_ms < 0:
        raise UserError("--uptime-ms %d: cannot be negative" % args.uptime_ms)
    heap = simulator.parse_heap(args.heap)
    if args.script is not None:
        frames, console = simulator.run_script(args.script, args.frames, heap, args.board,
                                               args.flash, args.hold_button,
                                               args.reset_cause or "power", args.uptime_ms or 0,
                                               args.wav, args.display_svg, args.set_path,
                                               args.settings)
        emit(args, {"frames": len(frames), "console": console},
             console + ["%d frames%s" % (len(frames),
                                          " written to " + args.frames if args.frames else "")])
        return 0
    if sys.stdin.isatty() and sys.stdout.isatty() and not args.json:
        flash = args.flash or cache("sim-flash")
        os.makedirs(flash, exist_ok=True)
        build_flash(flash, args.board, meldset=args.set_path)
        terminal.run(flash, heap, args.board)
        return 0
    frames, _ = simulator.run_script(DEMO_SCRIPT, None, heap, args.board, None,
                                     args.hold_button, meldset=args.set_path)
    if args.json:
        emit(args, frames, [])
    else:
        from hardware import board as board_file
        gamma = board_file.load(board_path(args.board))["ring"]["gamma"]
        print("No interactive terminal: a scripted demo (%s)\n" % DEMO_SCRIPT)
        terminal.demo(frames, gamma, pause=0.05)
    return 0


def run_wheels(args):
    """`--wheels N`: scripted, each wheel's frames into --frames DIR; else the rings side by
    side in the terminal."""
    from host_tools.sim import table
    if args.hold_button or args.reset_cause or args.uptime_ms is not None or args.wav or \
            args.display_svg or args.flash:
        raise UserError("--hold-button, --reset-cause, --uptime-ms, --wav, --display-svg and "
                        "--flash go with one wheel, not --wheels")
    if not 2 <= args.wheels <= table.MAX_WHEELS:
        raise UserError("--wheels %d: a table has 2 to %d wheels" % (args.wheels,
                                                                     table.MAX_WHEELS))
    heap = simulator.parse_heap(args.heap)
    if args.script is None:
        if args.settings or args.frames:
            raise UserError("--settings and --frames go with --script")
        if not (sys.stdin.isatty() and sys.stdout.isatty()) or args.json:
            raise UserError("--wheels without --script needs an interactive terminal")
        folder = cache("sim-table")
        flashes = [os.path.join(folder, "wheel%d" % (k + 1)) for k in range(args.wheels)]
        table.Table(args.wheels, args.board, heap, args.set_path, None, flashes)   # the flashes
        terminal.run_table(flashes, heap, args.board)
        return 0
    results = table.run_script(args.script, args.wheels, args.frames, args.board, heap,
                               args.set_path, args.settings)
    lines = []
    for k, (frames, console) in enumerate(results):
        lines += ["%d: %s" % (k + 1, line) for line in console]
        lines.append("%d: %d frames%s" % (k + 1, len(frames), " written to %s" % os.path.join(
            args.frames, "wheel%d.jsonl" % (k + 1)) if args.frames else ""))
    emit(args, {"wheels": [{"frames": len(f), "console": c} for f, c in results]}, lines)
    return 0
