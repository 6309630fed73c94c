"""`chromawheel bringup`: check each part on the device as it is wired, and write the board
file it learned.

With --port (MicroPython), the board is reset into maintenance (no app, no watchdog) and each
step runs on the device through its own board file and drivers (hardware/, firmware/ports):

1. the ring, in its holder (the holder's notch marks 12 o'clock, its wire channel fixes how far
   the ring can turn): C alone in white (which LED is it?), then red, green, blue on C and the
   next two sectors (which colours, which way round?): ring.led_at_c, ring.direction,
   ring.order;
2. the knob: turn it three clicks clockwise; the device counts the quadrature steps, so a knob
   that counts double, half, nothing or backwards is named and its fix learned:
   encoder.pulses_per_detent, encoder.direction;
3. the button: press it once; the device sees it go down and up;
4. the display: the I2C bus scanned: the address that answers (0x3C or 0x3D);
5. the buzzer: a beep (did you hear it?).

Every pin to check is named with its place on the board (GP17 (pin 22)). What was learned is
kept on this computer first (--output, or ./bringup-BOARD.json), then written to the device,
which restarts into the app. With --drive (CircuitPython: no REPL to run a step on), the drive
is checked writable before the first question, and the same questions are asked of what the
running firmware shows: the knob's answer names what the root did (one note, two, backwards,
nothing). Every question takes its answer from `ask` (the terminal, or a test reading the
frames)."""

import json
import os
import re

from hardware import board as board_file

from host_tools.cli import bringup_learn as learn
from host_tools.cli.output import emit
from host_tools.errors import UserError
from host_tools.set_files import write_atomic

KNOB_CLICKS = 3
KNOB_LIMIT_MS = 20000        # device time to wait for the turn (the emulator runs ~10x slower)
REST_MS = 400                # at rest this long after the steps of KNOB_CLICKS PEC11R clicks
SLOW_REST_MS = 2000          # ... or this long after fewer (2 steps a click, a slow hand)
BUTTON_LIMIT_MS = 20000
COLOURS = learn.COLOURS
# the names the tests and older callers use
learn_first_led, learn_order, learn_direction = (learn.learn_first_led, learn.learn_order,
                                                 learn.learn_direction)

# Sent once into the raw REPL: the board's own drivers, built from its board file, with the
# knob's sign neutral and every quadrature step counted, so the count is the wiring's own.
SETUP = """
import json, time
from hardware import board as _board
from firmware import ports as _ports
_cfg = _board.load("board.json")
_cfg["encoder"]["reverse"] = False
_cfg["encoder"]["pulses_per_detent"] = 1
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

def _knob(asked, limit, rest, slow_rest):
    print("listening")
    total = 0
    start = last = time.ticks_ms()
    while time.ticks_diff(time.ticks_ms(), start) < limit:
        n = _hw.encoder.take()
        if n:
            total += n
            last = time.ticks_ms()
        still = time.ticks_diff(time.ticks_ms(), last)
        if abs(total) >= 4 * asked and still > rest or total and still > slow_rest:
            break
        time.sleep_ms(2)
    print(json.dumps({"steps": total}))

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
        "ring's first LED (with the ring in its holder), direction and colour order, the "
        "knob's direction and pulses per detent, the button, the display's address, the "
        "buzzer; then keep the board file it learned on this computer and write it to the "
        "board. --port for a MicroPython board, --drive for a CircuitPython one.")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--port", help="a MicroPython board's serial port, e.g. /dev/ttyACM0 "
                                      "(macOS /dev/cu.usbmodem..., Windows COM3)")
    where.add_argument("--drive", help="a CircuitPython board's CIRCUITPY drive")
    p.add_argument("--output", metavar="FILE.json",
                   help="where to keep the board file learned on this computer (default "
                        "./bringup-BOARD.json); it is kept there before anything is written "
                        "to the board")
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
        raise UserError(str(err)) from err


def _read_board(data, where):
    if data is None:
        raise UserError("%s has no board.json: deploy the firmware first (chromawheel deploy)"
                        % where)
    try:
        obj = json.loads(data)
    except ValueError as err:
        raise UserError("%s: board.json: %s" % (where, board_file.json_problem(err))) from err
    return obj, _check(obj, "%s: board.json" % where)


class LaptopCopy:
    """The board file learned, kept on this computer before anything goes to the board: a
    write to the board that fails (a drive gone read-only, a port gone) loses no answer."""

    def __init__(self, output, board):
        self.path = output or "bringup-%s.json" % re.sub(r"[^A-Za-z0-9_.-]", "_", board)

    def check(self):
        """Before the first question: can the answers be kept here?"""
        probe = os.path.join(os.path.dirname(os.path.abspath(self.path)),
                             ".%s.check" % os.path.basename(self.path))
        try:
            with open(probe, "wb"):
                pass
            os.remove(probe)
        except OSError as err:
            raise UserError("%s: cannot keep what bring-up learns there (%s): run it from a "
                            "folder you can write, or name a file with --output FILE.json"
                            % (self.path, err.strerror or err)) from err

    def save(self, text):
        write_atomic(self.path, text.encode())


def _ring_steps(obj, config, ask, progress, show):
    """C alone, then the colour test; the ring's fields learned from the answers (the
    direction first: where C's LED is counts along it). The ring sits in its holder: the
    holder's notch is 12 o'clock, and its wire channel fixes how far the ring can turn."""
    ring = config["ring"]
    changes = []
    progress("Ring: put the ring in its holder first, its wires down the channel (the "
             "enclosure's ring holder; without one, mark where the wheel's top will be): the "
             "holder's notch is 12 o'clock.")
    if show is not None:                     # the device lights C alone
        show([(0, (255, 255, 255))])
        where = ask("Ring: one LED is lit white. How many LEDs clockwise from the holder's "
                    "notch (12 o'clock) is it (0 = at the notch; with two lit, the first)?",
                    "0")
    else:                                    # the firmware's colour test: C is the red one
        where = ask("Ring: how many LEDs clockwise from the holder's notch (12 o'clock) is the "
                    "first of the three lit (0 = at the notch)?", "0")
    if show is not None:
        show([(0, COLOURS["red"]), (1, COLOURS["green"]), (2, COLOURS["blue"])])
    direction = ring["direction"]
    if not _yes(ask("Ring: three LEDs are lit from 12 o'clock on. Does the second sit "
                    "clockwise of the first (y/n)?", "y")):
        direction = "ccw" if ring["direction"] == "cw" else "cw"
        obj["ring"]["direction"] = direction
        changes.append("ring.direction %s -> %s" % (ring["direction"], direction))
    at_c = learn.learn_first_led(dict(ring, direction=direction), where)
    if at_c != ring["led_at_c"]:
        obj["ring"]["led_at_c"] = at_c
        changes.insert(0, "ring.led_at_c %d -> %d" % (ring["led_at_c"], at_c))
    order = learn.learn_order(ring["order"], ask("Ring: their colours, from 12 o'clock on "
                                                 "(e.g. red green blue)?", "red green blue"))
    if order != ring["order"]:
        obj["ring"]["order"] = order
        changes.append("ring.order %s -> %s" % (ring["order"], order))
    progress("ring: %s" % ("; ".join(changes) if changes else "as the board file says"))
    return changes


def _knob_learned(obj, config, fixes, said, progress):
    """Say what the knob did, with the pins to check when nothing moved; the fixes written
    into the board file's object; the change lines."""
    changes = learn.change_lines(config["encoder"], fixes)
    learn.apply_fixes(obj, fixes)
    if said.startswith("nothing"):
        said += ": check %s, and C to %s" % (learn.pin_places(config, "encoder",
                                                              ("pin_a", "pin_b")),
                                             learn.ground_place(config, "encoder"))
    progress("knob: %s%s" % (said, ": " + "; ".join(changes) if changes else ""))
    return changes


def _finish(obj, changes, write, keep, yes, ask, progress, where, redo):
    """Check the learned file, keep it on this computer, then write it where it belongs."""
    _check(obj, "the board file learned")
    text = json.dumps(obj, indent=2, ensure_ascii=False) + "\n"
    keep.save(text)
    progress("kept on this computer: %s" % keep.path)
    written = False
    if changes:
        progress("learned: " + "; ".join(changes))
        if yes or _yes(ask("Write these into the board.json on %s (y/n)?" % where, "y")):
            try:
                write(text.encode())
            except UserError as err:
                raise UserError("%s\nWhat bring-up learned is kept in %s: %s" % (
                    err, keep.path, redo % keep.path)) from err
            written = True
            progress("wrote board.json on %s" % where)
    return {"changes": changes, "written": written, "board": obj, "kept": keep.path}


# -- on a MicroPython board, over its serial port ------------------------------------------------

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
        keep = LaptopCopy(output, config["board"])
        keep.check()
        link.run(SETUP, timeout=30)
        changes, report = [], {}
        try:
            for part, step in PORT_STEPS:
                if part not in skip:
                    changes += step(link, obj, config, ask, progress, report)
        finally:
            try:
                link.run("_paint([])")
            except UserError:
                pass
        result = _finish(obj, changes, lambda data: target.write("board.json", data), keep,
                         yes, ask, progress, port,
                         "chromawheel deploy --port %s --board %%s puts it on the board" % port)
        target.done()
    result.update(report)
    return result


def _ring_on_port(link, obj, config, ask, progress, report):
    changes = _ring_steps(obj, config, ask, progress,
                          lambda cells: link.run("_paint(%r)" % (cells,)))
    link.run("_paint([])")
    return changes


def _knob_on_port(link, obj, config, ask, progress, report):
    counted = _json(link.run("_knob(%d, %d, %d, %d)" % (
        KNOB_CLICKS, KNOB_LIMIT_MS, REST_MS, SLOW_REST_MS), timeout=600, on_line=_prompt(
        progress, "Knob: turn it %d clicks clockwise now." % KNOB_CLICKS)))
    steps = counted["steps"]
    report["knob_steps"] = steps
    encoder = config["encoder"]                  # the detents the board file counted
    report["detents"] = int(steps / encoder["pulses_per_detent"]) * (
        -1 if encoder["reverse"] else 1)
    fixes, said = learn.learn_knob(steps, KNOB_CLICKS, config["encoder"])
    return _knob_learned(obj, config, fixes, said, progress)


def _button_on_port(link, obj, config, ask, progress, report):
    seen = _json(link.run("_button(%d)" % BUTTON_LIMIT_MS, timeout=600,
                          on_line=_prompt(progress, "Button: press the knob once now.")))
    report["button"] = seen["down"] and seen["up"]
    progress("button: %s" % ("pressed and released" if report["button"] else
                             "not seen: check %s and its other leg to %s" % (
                                 learn.pin_places(config, "button", ("pin",)),
                                 learn.ground_place(config, "button"))))
    return []


def _display_on_port(link, obj, config, ask, progress, report):
    if not config["display"]:
        return []
    found = _json(link.run("_scan()", timeout=60))["found"]
    report["display"] = [hex(a) for a in found]
    answers = [a for a in found if a in (0x3C, 0x3D)]
    if not answers:
        progress("display: nothing answers at 0x3C or 0x3D: check %s, VCC to 3.3 V and GND"
                 % learn.pin_places(config, "display", ("sda", "scl")))
        return []
    pinned = config["display"]["address"]
    if pinned in (None, answers[0]):
        progress("display: answers at %s" % hex(answers[0]))
        return []
    progress("display: answers at %s, not the board file's %s" % (hex(answers[0]), hex(pinned)))
    obj["display"]["address"] = answers[0]
    return ["display.address -> %s" % hex(answers[0])]


def _buzzer_on_port(link, obj, config, ask, progress, report):
    if not config["buzzer"]:
        return []
    link.run("_beep()", timeout=30)
    report["buzzer"] = _yes(ask("Buzzer: did you hear a short beep (y/n)?", "y"))
    if not report["buzzer"]:
        progress("buzzer: check %s through the 100 ohm resistor, - to %s, and that it is a "
                 "passive piezo" % (learn.pin_places(config, "buzzer", ("pin",)),
                                    learn.ground_place(config, "buzzer")))
    return []


PORT_STEPS = (("ring", _ring_on_port), ("knob", _knob_on_port), ("button", _button_on_port),
              ("display", _display_on_port), ("buzzer", _buzzer_on_port))


def _prompt(progress, line):
    """Shows the step's prompt once the device says it is listening: a press made on the
    prompt is never missed because the device had not started looking."""
    return lambda said: said == "listening" and progress(line)


def _json(text):
    lines = text.strip().splitlines()
    try:
        return json.loads(lines[-1])
    except (ValueError, IndexError):
        raise UserError("unexpected answer from the device: %r" % lines[-3:]) from None


# -- on a CircuitPython board, through its drive -------------------------------------------------

PROBE = ".chromawheel-bringup-check"


def _check_drive_writable(drive, progress):
    """Before the first question: can what is learned be written there? A drive the firmware
    owns (after a normal power-up) is read-only to the computer. The check's write makes
    CircuitPython reload code.py: the firmware starts again, as the questions need it."""
    from host_tools.device.drive import write_file
    try:
        write_file(drive, PROBE, b"chromawheel bringup: can this drive be written?\n")
        os.remove(os.path.join(drive, PROBE))
    except UserError as err:
        if "read-only" not in str(err):
            raise
        raise UserError(
            "%s is read-only: CircuitPython gives the drive to the firmware after a normal "
            "power-up, so what bring-up learns could not be written there, and nothing was "
            "asked. Hold the knob's button while plugging the board in (the ring shows amber "
            "quarters: safe mode), let go, and run bringup again: its first write to the "
            "drive restarts the firmware (CircuitPython reloads code.py after a change), so "
            "the ring shows what the questions ask about" % drive) from err
    except OSError as err:
        raise UserError("%s: cannot remove %s (%s)" % (drive, PROBE, err.strerror)) from err
    progress("%s can be written. CircuitPython restarts the firmware after that check: wait "
             "for the ring to show the C major triad." % drive)


def _on_drive(drive, output, yes, skip, ask, progress):
    """CircuitPython: the firmware runs; the maker says what it shows."""
    from host_tools.device.drive import check_drive, write_file
    check_drive(drive)
    path = os.path.join(drive, "board.json")
    data = open(path, "rb").read() if os.path.exists(path) else None
    obj, config = _read_board(data, drive)
    keep = LaptopCopy(output, config["board"])
    keep.check()
    _check_drive_writable(drive, progress)
    changes = []
    if "ring" not in skip:
        progress("Open the menu (long press) and choose \"colour test\": C red, the next two "
                 "sectors green and blue.")
        changes += _ring_steps(obj, config, ask, progress, None)
    if "knob" not in skip:
        facts = _knob_answer(ask)
        moved_later = "nothing" in facts and _yes(ask(
            "Knob: turn it one more click clockwise. Did the root move now (y/n)?", "n"))
        fixes, said = learn.knob_fixes(facts, moved_later, config["encoder"])
        changes += _knob_learned(obj, config, fixes, said, progress)
    if "display" not in skip and config["display"]:
        if not _yes(ask("Display: does it show the meld's name (y/n)?", "y")):
            progress("display: check its four wires or the STEMMA QT cable; the firmware looks "
                     "at 0x3C and 0x3D")
    return _finish(obj, changes, lambda data: write_file(drive, "board.json", data), keep,
                   yes, ask, progress, drive, "copy it onto the drive as board.json (%s)")


KNOB_QUESTION = ("Knob: turn it one click clockwise. What did the root do: one (up a "
                 "semitone, C to C#/Db), two (up two notes), back (down), or nothing?")


def _knob_answer(ask):
    """What the root did after a click, in the maker's words; asked again (three times at
    most) until they name it: a bare "no" says only that something was wrong."""
    question = KNOB_QUESTION
    for _ in range(3):
        answer = ask(question, "one")
        facts = learn.knob_facts(answer)
        if facts is not None:
            return facts
        question = ("Knob: %r: which was it: one, two, back (down), two back, or nothing?"
                    % answer)
    raise UserError("the knob's answer: one of one, two, back or nothing (what the root did "
                    "after one click clockwise)")
