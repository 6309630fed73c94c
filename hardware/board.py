"""Board files: one JSON file per build (pins, LED at C, direction, colour order, pulses per
detent, current budget, ...). This module checks one and fills in defaults; it imports no
hardware, so the host tools use it too.

Every problem is reported with its place: "ring.order: 'GRX' is not a colour order".
"""

import json

from hardware.ring import MAX_LEDS, supported_count

PLATFORMS = ("rp2", "esp32", "circuitpython", "sim", "web")
ENCODER_DRIVERS = {"rp2": ("pio", "irq"), "esp32": ("pcnt", "irq"),
                   "circuitpython": ("rotaryio",), "sim": ("sim",), "web": ("web",)}
COLOUR_ORDERS = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR", "RGBW", "GRBW", "BRGW", "WRGB")
PULLS = ("up", "down", "none")
# The highest GPIO number: RP2040 has GPIO 0-29; ESP32 parts go up to 48 (ESP32-S3).
GPIO_MAX = {"rp2": 29, "esp32": 48}
# Which board's header the pins are on (boards/pinouts/NAME.json) when the file names none.
# A CircuitPython board names its own (its pin names are the board's); null: no header check.
PINOUT_DEFAULTS = {"rp2": "pico", "esp32": "esp32_devkitc"}
PLATFORM_HINT = ("a Pico or another RP2040 board running MicroPython is \"rp2\", an ESP32 "
                 "\"esp32\", any board running CircuitPython \"circuitpython\"")

# Schemas are ordered (name, spec) pairs, so problems come out in the same order on every
# interpreter. spec: (kind, default or REQUIRED[, low, high]); kind is int, number, bool, text,
# name, pin, pinout, encoder, order (a colour order, in either case), section, or a tuple of
# allowed values.
REQUIRED = object()
TOP = (("board", ("name", REQUIRED)), ("title", ("text", "")),
       ("platform", (PLATFORMS, REQUIRED)), ("pinout", ("pinout", None)),
       ("ring", ("section", REQUIRED)),
       ("encoder", ("section", REQUIRED)), ("button", ("section", REQUIRED)),
       ("display", ("section", None)), ("buzzer", ("section", None)),
       ("midi", ("section", None)), ("notes", ("text", "")))
RING = (("pin", ("pin", REQUIRED)), ("count", ("int", 12, 12, MAX_LEDS)),
        ("led_at_c", ("int", 0, 0, MAX_LEDS - 1)), ("direction", (("cw", "ccw"), "cw")),
        ("order", ("order", "GRB")), ("max_ma", ("int", 400, 50, 5000)),
        ("ma_per_channel", ("int", 20, 1, 60)), ("idle_ma_per_led", ("int", 1, 0, 5)),
        ("gamma", ("number", 2.8, 1.0, 3.5)), ("min_write_gap_us", ("int", 280, 50, 10000)),
        ("max_fps", ("int", 60, 1, 120)))
ENCODER = (("driver", ("encoder", REQUIRED)), ("pin_a", ("pin", REQUIRED)),
           ("pin_b", ("pin", REQUIRED)), ("pulses_per_detent", ((4, 2, 1), 4)),
           ("direction", ((1, -1, None), None)), ("reverse", ("bool", False)),
           ("rest_state", ("int", 3, 0, 3)),
           ("pull", (PULLS, "up")), ("filter_ns", ("int", 10000, 0, 1000000)))
BUTTON = (("pin", ("pin", REQUIRED)), ("active_low", ("bool", True)), ("pull", (PULLS, "up")),
          ("debounce_ms", ("int", 50, 5, 200)), ("long_ms", ("int", 700, 300, 3000)),
          ("double_ms", ("int", 350, 100, 1000)))
# Optional parts (absent: null). The common 0.96" SSD1306 module: 128x64 (or 128x32), I2C
# address 0x3C or 0x3D (a jumper; Adafruit's 128x64 modules come at 0x3D): null, the default,
# finds it at either, a number pins one; "i2c" is the MicroPython bus id. "ma": the current it
# adds, for the power budget in the maker's guide.
DISPLAY = (("driver", (("ssd1306",), "ssd1306")), ("i2c", ("int", 0, 0, 1)),
           ("sda", ("pin", REQUIRED)), ("scl", ("pin", REQUIRED)),
           ("address", ((0x3C, 0x3D, None), None)), ("width", ((128,), 128)),
           ("height", ((64, 32), 64)), ("rotation", ((0, 180), 0)),
           ("freq", ("int", 400000, 100000, 1000000)), ("ma", ("int", 20, 0, 100)))
# A passive piezo on a PWM pin (through a 100 ohm resistor): a small capacitor, about 1 mA.
BUZZER = (("pin", ("pin", REQUIRED)), ("ma", ("int", 1, 0, 100)))
# Serial MIDI on TRS jacks (Type A): a UART at 31,250 baud, OUT through the MIDI 1.0 3.3 V
# transmitter, IN through an optocoupler. "uart": the MicroPython UART id (rp2: 0 or 1, the
# pins must be that UART's TX and RX; esp32: 1 or 2, UART0 is the console); CircuitPython
# picks the UART from the pins, so it names none. "ma": what the jacks add to the supply (the
# transmitter's 5 mA loop, the optocoupler and its pull-up).
MIDI = (("uart", ("int", None, 0, 2)), ("tx", ("pin", REQUIRED)), ("rx", ("pin", REQUIRED)),
        ("ma", ("int", 15, 0, 100)))
SECTIONS = {"ring": RING, "encoder": ENCODER, "button": BUTTON, "display": DISPLAY,
            "buzzer": BUZZER, "midi": MIDI}
# The RP2040's UART pins (datasheet 1.4.3, GPIO functions): GPIO n is UART ((n + 4) // 8) % 2,
# TX where n % 4 is 0, RX where it is 1.
UART_ROLES = {"tx": 0, "rx": 1}


class BoardError(ValueError):
    def __init__(self, problems, source=None):
        self.problems = problems
        prefix = source + ": " if source else ""
        super().__init__("\n".join(prefix + (w + ": " if w else "") + m for w, m in problems))


def _check_value(problems, where, value, spec, platform):
    problem = _value_problem(where, value, spec, platform)
    if problem:
        problems.append((where, problem))


def _value_problem(where, value, spec, platform):
    """What is wrong with one field's value, or None."""
    kind = spec[0]
    if where == "platform":
        if value not in PLATFORMS:
            return "%r is not a platform (%s): %s" % (value, ", ".join(PLATFORMS), PLATFORM_HINT)
    elif kind == "pinout":
        if value is not None and (not isinstance(value, str) or not value):
            return "expected the name of a board's pinout such as \"pico\", or null, got %r" % (
                value,)
    elif platform not in PLATFORMS and kind in ("pin", "encoder"):
        pass                                 # the platform's own problem says what to fix
    elif where == "display.address":
        if value not in kind or isinstance(value, bool):
            return "%r is not an SSD1306 address: 60 (0x3C), 61 (0x3D), or null to find it at " \
                "either" % (value,)
    elif spec[1] is None and value is None:
        pass                                 # an optional field spelled out as absent
    elif isinstance(kind, tuple):
        if value not in kind or isinstance(value, bool):
            return "%r is not one of %s" % (value, ", ".join(str(k) for k in kind))
    else:
        return _KIND_CHECKS[kind](value, spec, platform)
    return None


def _number_problem(value, spec, platform):
    ok = isinstance(value, int) or (spec[0] == "number" and isinstance(value, float))
    if not ok or isinstance(value, bool):
        return "expected a number, got %r" % (value,)
    if value < spec[2] or value > spec[3]:
        return "%r is out of range (%s to %s)" % (value, spec[2], spec[3])
    return None


def _order_problem(value, spec, platform):
    if not isinstance(value, str) or value.upper() not in COLOUR_ORDERS:
        return "%r is not one of %s" % (value, ", ".join(COLOUR_ORDERS))
    return None


def _bool_problem(value, spec, platform):
    return None if isinstance(value, bool) else "expected true or false, got %r" % (value,)


def _text_problem(value, spec, platform):
    if not isinstance(value, str) or (spec[0] == "name" and not value):
        return "expected text, got %r" % (value,)
    return None


def _pin_problem(value, spec, platform):
    if platform == "circuitpython":
        if not isinstance(value, str) or not value:
            return "expected a board pin name such as 'A0', got %r" % (value,)
    elif platform in ("sim", "web"):          # simulated pins (web: the page's)
        if value is not None and not isinstance(value, int):
            return "expected a pin number or null, got %r" % (value,)
    elif not isinstance(value, int) or isinstance(value, bool) or value < 0 or \
            value > GPIO_MAX.get(platform, 48):
        return "expected a GPIO number 0-%d, got %r" % (GPIO_MAX.get(platform, 48), value)
    return None


def _encoder_problem(value, spec, platform):
    allowed = ENCODER_DRIVERS.get(platform, ())
    if value not in allowed:
        return "%r is not an encoder driver for platform %r (%s)" % (
            value, platform, ", ".join(allowed))
    return None


_KIND_CHECKS = {"int": _number_problem, "number": _number_problem, "bool": _bool_problem,
                "text": _text_problem, "name": _text_problem, "pin": _pin_problem,
                "encoder": _encoder_problem, "order": _order_problem}


def _check_section(problems, where, obj, schema, platform):
    if not isinstance(obj, dict):
        problems.append((where, "expected an object"))
        return {}
    out = {}
    known = [name for name, _ in schema]
    for key in sorted(str(k) for k in obj if k not in known):
        problems.append(((where + "." if where else "") + key, "unknown field"))
    for key, spec in schema:
        here = (where + "." if where else "") + key
        if key not in obj:
            if spec[1] is REQUIRED:
                problems.append((here, "missing"))
            else:
                out[key] = spec[1]
            continue
        if spec[0] == "section" and obj[key] is None and spec[1] is None:
            out[key] = None                  # an optional part spelled out as absent
        elif spec[0] == "section":
            out[key] = _check_section(problems, here, obj[key], SECTIONS[key], platform)
        else:
            _check_value(problems, here, obj[key], spec, platform)
            # "grb" is GRB: the drivers and the bring-up compare the upper-case names
            out[key] = obj[key].upper() if spec[0] == "order" and isinstance(obj[key], str) \
                else obj[key]
    return out


def _pin_problems(board, platform):
    """Pins used twice, and RP2040 I2C pins on the wrong bus."""
    problems = []
    used = {}
    for section in ("ring", "encoder", "button", "display", "buzzer", "midi"):
        part = board.get(section)
        if not isinstance(part, dict):
            continue
        for field in ("pin", "pin_a", "pin_b", "sda", "scl", "tx", "rx"):
            pin = part.get(field)
            if pin is None or isinstance(pin, bool) or not isinstance(pin, (int, str)):
                continue
            where = "%s.%s" % (section, field)
            if pin in used:
                problems.append((where, "pin %r is already %s" % (pin, used[pin])))
            else:
                used[pin] = where
    display = board.get("display")
    if platform == "rp2" and isinstance(display, dict):
        bus = display.get("i2c")
        for field, offset in (("sda", 0), ("scl", 1)):
            pin = display.get(field)
            if isinstance(pin, int) and isinstance(bus, int) and pin % 4 != 2 * bus + offset:
                pins = ", ".join(str(p) for p in range(2 * bus + offset, 30, 4))
                problems.append(("display." + field, "GP%d is not an %s pin of I2C%d (%s)" % (
                    pin, field.upper(), bus, pins)))
    return problems + _midi_problems(board.get("midi"), platform)


def rp2040_uart(gpio, role):
    """The RP2040 UART whose `role` ("tx", "rx") GPIO `gpio` can carry, or None."""
    if gpio % 4 != UART_ROLES[role]:
        return None
    return (gpio + 4) // 8 % 2


def rp2040_uart_pins(uart, role):
    """The GPIOs that carry `role` of RP2040 UART `uart`: '0, 12, 16, 28'."""
    return ", ".join(str(p) for p in range(30) if rp2040_uart(p, role) == uart)


def _midi_problems(midi, platform):
    """The jacks' UART: a MicroPython UART id, and on the RP2040 that UART's TX and RX pins
    (CircuitPython's pin names are checked on the host, against the board's pinout)."""
    if not isinstance(midi, dict):
        return []
    uart = midi.get("uart")
    if platform == "circuitpython":
        if uart is not None:
            return [("midi.uart", "CircuitPython picks the UART from the pins: leave it out")]
        return []
    if platform not in ("rp2", "esp32") or (uart is not None and not isinstance(uart, int)):
        return []
    if uart is None:
        return [("midi.uart", "missing: the UART the jacks are on (%s)" % (
            "0 or 1" if platform == "rp2" else "1 or 2"))]
    if platform == "esp32":
        if uart == 0:
            return [("midi.uart", "UART0 is the console (the REPL and deploy): use 1 or 2")]
        return []
    if uart > 1:
        return [("midi.uart", "the RP2040 has UART0 and UART1, not UART%d" % uart)]
    problems = []
    for role in ("tx", "rx"):
        pin = midi.get(role)
        if isinstance(pin, int) and not isinstance(pin, bool) and \
                rp2040_uart(pin, role) != uart:
            problems.append(("midi." + role, "GP%d is not %s pin of UART%d (%s)" % (
                pin, "a TX" if role == "tx" else "an RX", uart, rp2040_uart_pins(uart, role))))
    return problems


def validate(obj, header_check=None):
    """(board with defaults filled in, problems). header_check(board) -> problems: the host's
    check of every pin against the header of the board the file's "pinout" names
    (host_tools/builds/pinouts.py; the device has no tables)."""
    problems = []
    platform = obj.get("platform") if isinstance(obj, dict) else None
    if not isinstance(obj, dict):
        return None, [("", "expected a JSON object")]
    board = _check_section(problems, "", obj, TOP, platform)
    if "pinout" not in obj:
        board["pinout"] = PINOUT_DEFAULTS.get(platform)
    problems.extend(_direction_problems(obj, board))
    if header_check is not None and board["pinout"] and not problems:
        problems.extend(header_check(board))
    encoder = board.get("encoder") or {}
    if (encoder.get("driver") == "pio" and isinstance(encoder.get("pin_a"), int)
            and encoder.get("pin_b") != encoder["pin_a"] + 1):
        problems.append(("encoder.pin_b", "the PIO decoder needs B on the GPIO after A (%d)"
                         % (encoder["pin_a"] + 1)))
    problems.extend(_pin_problems(board, platform))
    problems.extend(_ring_problems(board.get("ring")))
    return board, problems


def _direction_problems(obj, board):
    """encoder.direction (what `chromawheel bringup` writes: 1, or -1 for a knob that counts
    the other way) is encoder.reverse said as a sign; the drivers read reverse."""
    encoder, given = board.get("encoder"), obj.get("encoder")
    if not isinstance(encoder, dict) or encoder.get("direction") not in (1, -1):
        return []
    reverse = encoder["direction"] == -1
    if isinstance(given, dict) and "reverse" in given and given["reverse"] is not reverse:
        return [("encoder.direction", "%d and encoder.reverse %s disagree: keep one (direction "
                 "-1 is reverse true)" % (encoder["direction"], str(given["reverse"]).lower()))]
    encoder["reverse"] = reverse
    return []


def _ring_problems(ring):
    """A ring of LEDs the sectors map onto (hardware/ring.py), its LED at C on it."""
    if not isinstance(ring, dict) or not isinstance(ring.get("count"), int):
        return []
    count = ring["count"]
    if not supported_count(count):
        return [("ring.count", "%d LEDs: a ring of a multiple of 12 LEDs (12, 24, 36 ... %d) or "
                 "of 16 lights the 12 sectors" % (count, MAX_LEDS))]
    at_c = ring.get("led_at_c")
    if isinstance(at_c, int) and not isinstance(at_c, bool) and at_c >= count:
        return [("ring.led_at_c", "%d is not an LED of a %d-LED ring (0 to %d)"
                 % (at_c, count, count - 1))]
    return []


def parse(obj, source=None, header_check=None):
    board, problems = validate(obj, header_check)
    if problems:
        raise BoardError(problems, source)
    return board


def load(path, header_check=None):
    """Read and check a board file; BoardError names the file and every problem."""
    try:
        with open(path) as f:
            # The text read whole, then parsed: json.load reads a stream a character at a
            # time, each a call into the file system (1.5 ms more of a QT Py's power-up).
            obj = json.loads(f.read())
    except OSError as err:
        problem = "cannot read (%s)" % err
    except ValueError as err:
        problem = json_problem(err)
    else:
        return parse(obj, path, header_check)
    # Raised here, not in the handlers: MicroPython warns of chaining on `raise ... from`.
    raise BoardError([("", problem)], path)


def json_problem(err):
    """CPython says where (line, column); MicroPython only that it failed."""
    where = ""
    if getattr(err, "lineno", None):
        where = " at line %d, column %d (%s)" % (err.lineno, err.colno, err.msg)
    return ("not valid JSON%s: look for a missing comma or quote, a comma after the last "
            "item, single quotes or a comment (JSON has none)" % where)
