"""One module a port: rp2, esp32, circuitpython, sim (the MicroPython unix port in the
simulator) and web (MicroPython WebAssembly in a page). The board file's `platform` names it,
and this is the only place that reads that name. Each port module has:

    build(board) -> Hardware        the ring, the knob, the button, the clock, the record store
    display_panel(config, hw)       the OLED's panel driver (hardware.oled draws on it)
    tone_output(config, hw)         the piezo's tone driver (hardware.buzzer plays on it)
    watchdog() -> object with feed(), or None
    reset_cause() -> "power" | "reset"
    restart()                       after a fatal error
    knob_wake(callback) -> set()    where the encoder has an interrupt (its `wake`): the
                                    object it calls to have the loop's pass run at once
    midi_port(hw) -> transport      USB MIDI (readinto, write, on_receive), made by the app
                                    when the `midi` setting asks; None where the port has none
    jacks_port(hw) -> transport     serial MIDI on the board's jacks (the board file's
                                    "midi"), the same interface; None where the port has none
    i2c_scan(config) -> addresses   optional: the display's bus scanned once (address null);
                                    a port may probe only an SSD1306's two
    run_loop(loop)                  optional: runs the loop (firmware/loop.py; else
                                    firmware/async_loop.py)
    drive(loop) -> (step, pause)    optional, for async_loop: a host link driven before each
                                    pass (the simulator's and the page's; firmware/ports/sim.py)

A new port is a new module here and a board file. Its backends are imported only by it, so the
simulator never imports `machine` and a Pico never imports `rotaryio`. Used at boot
(firmware/start.py); the port module itself stays for the watchdog and restart, and this one
(Parts) until the pass has built the optional parts."""


def build(board):
    """The devices that safe mode needs, from the board's own port."""
    port = __import__("firmware.ports." + board["platform"], None, None, ["build"])
    hw = port.build(board)
    hw.port = port
    return hw


def optional_parts(hw):
    """The optional parts the board file has (the display, the buzzer), as the service that
    builds them after the app's first frame (Parts), or None when it has neither."""
    board = hw.board
    pending = [part for part in ("display", "buzzer") if board[part] is not None]
    return Parts(hw, pending) if pending else None


def add_parts(hw):
    """Every optional part built now, onto `hw` (tools and tests that want them at once)."""
    parts = optional_parts(hw)
    if parts is not None:
        parts.hand_over = lambda part, made: setattr(hw, part, made)
        parts.build_all()


class Parts:
    """The service (firmware/services.py: update(now, calm)) that builds the optional parts
    once the first frame is out, one a rested pass: the ring comes first, a knob turned
    meanwhile too, and their drivers' imports and buses (about 0.1 s on a Pico, 0.15 s on a
    QT Py) no longer hold up the power-up. Each goes to `hand_over(part, made)` (Loop.set_part,
    which makes the services that use it), None when it was left out (_optional: a console
    line, the wheel runs without it). The boot is counted long before (firmware/crashes.py),
    so a part that crashes the board this early still leads to safe mode. It lives here, with
    the boot-only code: once the parts are in, the pass lets go of it and this module goes."""

    def __init__(self, hw, pending):
        from firmware.services import RESTED  # not at the top: this module runs before
        self.rested = RESTED                     # safe mode, which needs none of it
        self.hw = hw
        self.pending = pending        # the parts still to build, first first
        self.hand_over = None         # set by the pass (firmware/loop.py)

    def update(self, now, calm):
        if calm != self.rested or not self.pending:
            return False
        self.build_next()
        return len(self.pending) > 0

    def build_next(self):
        part = self.pending.pop(0)
        make = _display if part == "display" else _buzzer
        self.hand_over(part, _optional(part, self.hw.board, self.hw, make))

    def build_all(self):
        while self.pending:
            self.build_next()


def _optional(part, board, hw, make):
    """An optional part that does not answer (unplugged, wrong address) is left out with a
    console line, never a failed boot: the ring and knob still work."""
    try:
        return make(board, hw)
    except ImportError as err:               # its driver library is not in lib/
        print("%s left out: %s (chromawheel deploy installs its driver in lib/)" % (part, err))
    except (OSError, ValueError, RuntimeError) as err:
        # ValueError: Adafruit's I2CDevice finds no device. RuntimeError: CircuitPython's
        # busio.I2C finds no pull-ups, as on a bus with nothing plugged in (its RP2040
        # common-hal/busio/I2C.c checks by default).
        print("%s not found (%s): running without it; check its wiring and the board "
              "file's \"%s\" section" % (part, err, part))
    return None


def _display(board, hw):
    from hardware.oled import TextDisplay
    config = board["display"]
    if config["address"] is None:
        config = dict(config)
        config["address"] = _display_address(hw, config)
    return TextDisplay(hw.port.display_panel(config, hw), config["width"], config["height"])


def _display_address(hw, config):
    """A board file that pins no address: an SSD1306 answers at 0x3C or 0x3D (its jumper;
    Adafruit's 128x64 modules come at 0x3D). One scan of the bus, by the port's own
    i2c_scan(config), picks it before the driver makes its own bus; a port without one (the
    simulator's and the page's twins) takes 0x3C."""
    scan = getattr(hw.port, "i2c_scan", None)
    found = scan(config) if scan is not None else ()
    return 0x3D if 0x3D in found and 0x3C not in found else 0x3C


def _buzzer(board, hw):
    from hardware.buzzer import Buzzer
    return Buzzer(hw.port.tone_output(board["buzzer"], hw))
