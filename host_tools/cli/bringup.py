"""`chromawheel bringup`: check each part on the device as it is wired, and write the board
file it learned.

With --port (MicroPython), the board is reset into maintenance (no app, no watchdog) and each
step runs on the device through its own board file and drivers (hardware/, firmware/ports):

1. the ring: C alone in white (which LED is it?), then red, green, blue on C and the next two
   sectors (which colours, which way round?): ring.led_at_c, ring.direction, ring.order;
2. the knob: turn it clockwise; the device counts the detents: encoder.direction;
3. the button: press it once; the device sees it go down and up;
4. the display: the I2C bus scanned: the address that answers (0x3C or 0x3D);
5. the buzzer: a beep (did you hear it?).

Then the board file with what was learned is written to the device (and to --output), and the
device restarts into the app. With --drive (CircuitPython: no REPL to run a step on), the same
questions are asked of what the running firmware shows, and the drive's board.json is updated.
Every question takes its answer from `ask` (the terminal, or a test reading the frames)."""

import json
import os

from hardware import board as board_file

from host_tools.cli.output import emit
from host_tools.errors import UserError

COLOURS = {"red": (255, 0, 0), "green": (0, 255, 0), "blue": (0, 0, 255)}
KNOB_DETENTS = 3
KNOB_LIMIT_MS = 20000        # device time to wait for the turn (the emulator runs ~10x slower)
REST_MS = 400                # the knob at rest this long after the turn: counted
BUTTON_LIMIT_MS = 20000

# Sent once into the raw REPL: the board's own drivers, built from its board file, with the
# knob's sign neutral so the count is the wiring's own.
SETUP = """
import json, time
from hardware import board as _board
from firmware import ports as _ports
_cfg = _board.load("board.json")
_cfg["encoder"]["reverse"] = False
_hw = _ports.build(_cfg)
_hw.ring.brightness = 64

def _paint(cells):
    f = _hw.ring.frame
    for i in range(len(f)):
        f[i] = 0
    for pc, rgb in cells:
        f[3 * pc:3 * pc + 3] = bytes(rgb)
    while not _hw.ring.show():           # held back by the latch time: again
        pass

def _knob(want, limit, rest):
    print("listening")
    total = 0
    start = last = time.ticks_ms()
    while time.ticks_diff(time.ticks_ms(), start) < limit:
        n = _hw.encoder.take()
        if n:
            total += n
            last = time.ticks_ms()
        if abs(total) >= want and time.ticks_diff(time.ticks_ms(), last) > rest:
            break
        time.sleep_ms(2)
    print(json.dumps({"detents": total}))

def _button(limit):
    print("listening")
    start = time.ticks_ms()
    down = up = False
    while time.ticks_diff(time.ticks_ms(), start) < limit and not up:
        p = _hw.button.pressed()
        down = down or p
        up = down and not p
        time.sleep_ms(5)
    print(json.dumps({"down": down, "up": up}))

def _scan():
    d = _cfg["display"]
    import machine
    i2c = machine.I2C(d["i2c"], scl=machine.Pin(d["scl"]), sda=machine.Pin(d["sda"]))
    print(json.dumps({"found": i2c.scan()}))

def _beep():
    t = _hw.port.tone_output(_cfg["buzzer"], _hw)
    t.tone(880, 32768)
    time.sleep_ms(400)
    t.tone(880, 0)
    print(json.dumps({"beeped": True}))
"""


def register(commands, common):
    p = commands.add_parser(
        "bringup", parents=[common],
        help="check each part on the device as it is wired, and write the board file",
        description="Step by step, after each part is wired, check it on the device: the "
        "ring's first LED, direction and colour order, the knob's direction, the button, the "
        "display's address, the buzzer; then write the board file it learned. --port for a "
        "MicroPython board, --drive for a CircuitPython one.")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--port", help="a MicroPython board's serial port, e.g. /dev/ttyACM0 "
                                      "(macOS /dev/cu.usbmodem..., Windows COM3)")
    where.add_argument("--drive", help="a CircuitPython board's CIRCUITPY drive")
    p.add_argument("--output", metavar="FILE.json",
                   help="also keep the board file learned here")
    p.add_argument("--yes", action="store_true",
                   help="write what was learned without asking")
    p.add_argument("--skip", action="append", default=[], metavar="PART",
                   choices=("ring", "knob", "button", "display", "buzzer"),
                   help="a part not wired yet (repeatable): ring, knob, button, display, buzzer")
    p.set_defaults(run=run)


def run(args):
    report = bring_up(port=args.port, drive=args.drive, output=args.output, yes=args.yes,
                      skip=args.skip, ask=_terminal_ask,
                      progress=(lambda line: None) if args.json else print)
    emit(args, report, ["bring-up done: %s" % ("; ".join(report["changes"]) or "no changes")])


def _terminal_ask(question, default=""):
    try:
        answer = input("%s%s " % (question, " [%s]" % default if default else ""))
    except EOFError:
        return default
    return answer.strip() or default


def _yes(answer):
    return answer.strip().lower() in ("y", "yes", "")


# -- what the answers mean (the same for --port and --drive) -----------------------------------

def learn_first_led(ring, answer):
    """The lit LED (C's) is `answer` LEDs clockwise from 12 o'clock: the LED at 12 o'clock."""
    try:
        k = int(answer)
    except ValueError:
        raise UserError("%r: the number of LEDs clockwise from 12 o'clock to the lit one "
                        "(0 if it is at 12 o'clock)" % answer)
    step = 1 if ring["direction"] == "cw" else -1
    return (ring["led_at_c"] - step * k) % ring["count"]


def learn_order(order, seen):
    """The ring's colour order, from the colours seen where red, green and blue were sent in
    `order`: the order that turns what was sent into what was seen."""
    words = [w for w in seen.replace(",", " ").lower().split() if w]
    if len(words) != 3 or any(w not in COLOURS for w in words):
        raise UserError("%r: three colours, in order: e.g. red green blue" % seen)
    base = order[:3]
    for true in board_file.COLOUR_ORDERS:
        if len(true) != 3:
            continue
        if all(_shown(base, true, COLOURS[sent]) == COLOURS[got]
               for sent, got in zip(("red", "green", "blue"), words)):
            return true + order[3:]
    raise UserError("%r: no colour order gives those colours" % seen)


def _shown(sent_order, true_order, rgb):
    """What a ring of `true_order` shows for `rgb` written in `sent_order`."""
    wire = [rgb["RGB".index(c)] for c in sent_order]
    return tuple(wire[true_order.index(c)] for c in "RGB")


def learn_direction(detents):
    if detents == 0:
        return None
    return 1 if detents > 0 else -1


# -- the steps -----------------------------------------------------------------------------------

def bring_up(port=None, drive=None, output=None, yes=False, skip=(), ask=_terminal_ask,
             progress=print):
    if port:
        return _on_port(port, output, yes, skip, ask, progress)
    return _on_drive(drive, output, yes, skip, ask, progress)


def _check(obj, where):
    from host_tools.builds import pinouts
    try:
        return board_file.parse(obj, where, pinouts.check)
    except board_file.BoardError as err:
        raise UserError(str(err))


def _read_board(data, where):
    if data is None:
        raise UserError("%s has no board.json: deploy the firmware first (chromawheel deploy)"
                        % where)
    try:
        obj = json.loads(data)
    except ValueError as err:
        raise UserError("%s: board.json: %s" % (where, board_file.json_problem(err)))
    return obj, _check(obj, "%s: board.json" % where)


def _ring_steps(obj, config, ask, progress, show):
    """C alone, then the colour test; the ring's fields learned from the answers (the
    direction first: where C's LED is counts along it)."""
    ring = config["ring"]
    changes = []
    if show is not None:                     # the device lights C alone
        show([(0, (255, 255, 255))])
        where = ask("Ring: one LED is lit white. How many LEDs clockwise from 12 o'clock is "
                    "it (0 = at 12 o'clock; with two lit, the first)?", "0")
    else:                                    # the firmware's colour test: C is the red one
        where = ask("Ring: how many LEDs clockwise from 12 o'clock is the first of the three "
                    "lit (0 = at 12 o'clock)?", "0")
    if show is not None:
        show([(0, COLOURS["red"]), (1, COLOURS["green"]), (2, COLOURS["blue"])])
    direction = ring["direction"]
    if not _yes(ask("Ring: three LEDs are lit from 12 o'clock on. Does the second sit "
                    "clockwise of the first (y/n)?", "y")):
        direction = "ccw" if ring["direction"] == "cw" else "cw"
        obj["ring"]["direction"] = direction
        changes.append("ring.direction %s -> %s" % (ring["direction"], direction))
    at_c = learn_first_led(dict(ring, direction=direction), where)
    if at_c != ring["led_at_c"]:
        obj["ring"]["led_at_c"] = at_c
        changes.insert(0, "ring.led_at_c %d -> %d" % (ring["led_at_c"], at_c))
    order = learn_order(ring["order"], ask("Ring: their colours, from 12 o'clock on "
                                           "(e.g. red green blue)?", "red green blue"))
    if order != ring["order"]:
        obj["ring"]["order"] = order
        changes.append("ring.order %s -> %s" % (ring["order"], order))
    progress("ring: %s" % ("; ".join(changes) if changes else "as the board file says"))
    return changes


def _set_direction(obj, config, detents):
    direction = learn_direction(detents)
    old = -1 if config["encoder"]["reverse"] else 1
    if direction is None or direction == old:
        return []
    obj["encoder"]["direction"] = direction
    obj["encoder"].pop("reverse", None)
    return ["encoder.direction %d -> %d" % (old, direction)]


def _finish(obj, config, changes, write, output, yes, ask, progress, where):
    """Check the learned file, show it, write it where it belongs."""
    _check(obj, "the board file learned")
    text = json.dumps(obj, indent=2, ensure_ascii=False) + "\n"
    if output:
        with open(output, "w", encoding="utf-8") as f:
            f.write(text)
        progress("wrote %s" % output)
    written = False
    if changes:
        progress("learned: " + "; ".join(changes))
        if yes or _yes(ask("Write these into the board.json on %s (y/n)?" % where, "y")):
            write(text.encode())
            written = True
            progress("wrote board.json on %s" % where)
    return {"changes": changes, "written": written, "board": obj}


def _on_port(port, output, yes, skip, ask, progress):
    from host_tools.device.target import SerialTarget
    with SerialTarget(port) as target:
        target.enter_maintenance()
        link = target.link
        obj, config = _read_board(target.read("board.json"), port)
        if config["platform"] not in ("rp2", "esp32"):
            raise UserError("%s: board.json is for platform %s; bringup --port is for "
                            "MicroPython boards (--drive for CircuitPython)"
                            % (port, config["platform"]))
        link.run(SETUP, timeout=30)
        changes, report = [], {}
        try:
            if "ring" not in skip:
                changes += _ring_steps(obj, config, ask, progress,
                                       lambda cells: link.run("_paint(%r)" % (cells,)))
                link.run("_paint([])")
            if "knob" not in skip:
                counted = _json(link.run("_knob(%d, %d, %d)" % (
                    KNOB_DETENTS, KNOB_LIMIT_MS, REST_MS), timeout=600, on_line=_prompt(
                    progress, "Knob: turn it %d clicks clockwise now." % KNOB_DETENTS)))
                report["detents"] = counted["detents"]
                if counted["detents"] == 0:
                    progress("knob: no click counted: check A and B (%s) and C to GND"
                             % _pins(config, "encoder", ("pin_a", "pin_b")))
                else:
                    learned = _set_direction(obj, config, counted["detents"])
                    changes += learned
                    progress("knob: %d clicks counted%s" % (
                        abs(counted["detents"]), ", the other way round: direction -1"
                        if learned and counted["detents"] < 0 else ""))
            if "button" not in skip:
                seen = _json(link.run("_button(%d)" % BUTTON_LIMIT_MS, timeout=600,
                                      on_line=_prompt(progress, "Button: press the knob "
                                                      "once now.")))
                report["button"] = seen["down"] and seen["up"]
                progress("button: %s" % ("pressed and released" if report["button"] else
                                         "not seen: check SW (%s) and its other leg to GND"
                                         % _pins(config, "button", ("pin",))))
            if "display" not in skip and config["display"]:
                found = _json(link.run("_scan()", timeout=60))["found"]
                report["display"] = [hex(a) for a in found]
                answers = [a for a in found if a in (0x3C, 0x3D)]
                if answers:
                    progress("display: answers at %s%s" % (hex(answers[0]), "" if
                             config["display"]["address"] in (None, answers[0]) else
                             ", not the board file's %s" % hex(config["display"]["address"])))
                    if config["display"]["address"] not in (None, answers[0]):
                        obj["display"]["address"] = answers[0]
                        changes.append("display.address -> %s" % hex(answers[0]))
                else:
                    progress("display: nothing answers at 0x3C or 0x3D: check SDA, SCL, VCC "
                             "and GND (%s)" % _pins(config, "display", ("sda", "scl")))
            if "buzzer" not in skip and config["buzzer"]:
                link.run("_beep()", timeout=30)
                report["buzzer"] = _yes(ask("Buzzer: did you hear a short beep (y/n)?", "y"))
                if not report["buzzer"]:
                    progress("buzzer: check + (%s) through the 100 ohm resistor, - to GND, and "
                             "that it is a passive piezo" % _pins(config, "buzzer", ("pin",)))
        finally:
            try:
                link.run("_paint([])")
            except UserError:
                pass
        result = _finish(obj, config, changes, lambda data: target.write("board.json", data),
                         output, yes, ask, progress, port)
        target.done()
    result.update(report)
    return result


def _prompt(progress, line):
    """Shows the step's prompt once the device says it is listening: a press made on the
    prompt is never missed because the device had not started looking."""
    return lambda said: said == "listening" and progress(line)


def _json(text):
    lines = text.strip().splitlines()
    try:
        return json.loads(lines[-1])
    except (ValueError, IndexError):
        raise UserError("unexpected answer from the device: %r" % lines[-3:])


def _pins(config, section, fields):
    return ", ".join("%s.%s %s" % (section, f, config[section][f]) for f in fields)


def _on_drive(drive, output, yes, skip, ask, progress):
    """CircuitPython: the firmware runs; the maker says what it shows."""
    path = os.path.join(drive, "board.json")
    data = open(path, "rb").read() if os.path.exists(path) else None
    obj, config = _read_board(data, drive)
    changes = []
    if "ring" not in skip:
        progress("Open the menu (long press) and choose \"colour test\": C red, the next two "
                 "sectors green and blue.")
        changes += _ring_steps(obj, config, ask, progress, None)
    if "knob" not in skip:
        answer = ask("Knob: turn it one click clockwise. Did the root move up a semitone, "
                     "C to C#/Db (y/n)?", "y")
        if not _yes(answer):
            changes += _set_direction(obj, config, -1 if not config["encoder"]["reverse"]
                                      else 1)
    if "display" not in skip and config["display"]:
        if not _yes(ask("Display: does it show the meld's name (y/n)?", "y")):
            progress("display: check its four wires or the STEMMA QT cable; the firmware looks "
                     "at 0x3C and 0x3D")
    from host_tools.device.drive import write_file
    return _finish(obj, config, changes, lambda data: write_file(drive, "board.json", data),
                   output, yes, ask, progress, drive)
