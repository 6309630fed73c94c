"""A CircuitPython board for the tests, on CPython: the files of a CIRCUITPY folder run as
CircuitPython runs them (boot.py, then code.py, with lib/ first on the path), with the
pinned Adafruit libraries for real (adafruit_ssd1306, adafruit_framebuf, ...) and only
CircuitPython's own modules faked, at the pins: board, digitalio, rotaryio, neopixel_write,
busio (I2C with the SSD1306 modelled on it), pwmio, supervisor, microcontroller (its nvm kept
in NVM.bin beside the drive, as the chip keeps it), watchdog, storage (the drive is read-only
for the code until boot.py remounts it, as on a board).

    python -m host_tools.emulator.circuitpy_board DRIVE PLAN.json RESULT.json

PLAN: {"end_ms": virtual ms to run, "start_ms": where the supervisor clock starts (it wraps
at 2**29), "boot": run boot.py first (a power-up; false is CircuitPython's reload after a file
copy), "oled": false for a bus with nothing on it, "events": [[at_ms, "turn", N] | [at_ms, "press"]
| [at_ms, "release"] | [at_ms, "unplug"]]} (a press at 0 is a button held at power-up;
"unplug": the OLED stops answering). Time is virtual: it moves only when the code waits
(time.sleep; a pass of the app's loop, which sleeps 0 ms, takes 1 ms), so a run gives the same
result on any machine, loaded or not. RESULT: console lines, frames ([ms, hex wire bytes]),
remounts, tones ([ms, freq, duty]), the display RAM."""

import builtins
import errno
import io
import json
import os
import sys
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
CP_PERIOD = 1 << 29


PASS_MS = 1


class Plan:
    def __init__(self, plan):
        self.end_ms = plan["end_ms"]
        self.start_ms = plan.get("start_ms", 0)
        self.events = plan.get("events", [])
        self.oled = plan.get("oled", True)
        self.virtual_ms = 0.0

    def advance(self, ms):
        self.virtual_ms += ms

    def elapsed(self):
        return int(self.virtual_ms)

    def now(self):
        return (self.start_ms + self.elapsed()) % CP_PERIOD

    def happened(self, kind):
        return any(e[1] == kind and e[0] <= self.elapsed() for e in self.events)

    def position(self):
        at = self.elapsed()
        return sum(e[2] for e in self.events if e[1] == "turn" and e[0] <= at)

    def pressed(self):
        at = self.elapsed()
        down = False
        for event in self.events:
            if event[0] <= at and event[1] in ("press", "release"):
                down = event[1] == "press"
        return down


def install(plan, result, drive):
    """Put the fake CircuitPython modules in sys.modules; return the drive's state."""
    state = {"readonly": True}
    _inputs(plan, drive)
    _system(plan, result, drive, state)
    _outputs(plan, result)
    _module("micropython", const=lambda value: value)
    # The app's loop (firmware/ports/circuitpython.py) polls with time.sleep(0) between
    # passes: a pass takes about a millisecond of an RP2040's, as the emulated QT Py measures.
    time.sleep = lambda seconds: plan.advance(seconds * 1000 if seconds else PASS_MS)
    typing_names = _module("circuitpython_typing")
    typing_names.__getattr__ = lambda name: object
    return state


def _module(name, **attrs):
    m = types.ModuleType(name)
    m.__dict__.update(attrs)
    sys.modules[name] = m
    return m


def _inputs(plan, drive):
    """board's pins, the button (digitalio) and the knob (rotaryio), played from `plan`."""
    pins = ("A0", "A1", "A2", "A3", "SDA", "SCL", "SDA1", "SCL1", "TX", "RX", "NEOPIXEL")
    _module("board", **{name: name for name in pins})
    button_pin = json.load(open(os.path.join(drive, "board.json")))["button"]["pin"]

    class Direction:
        INPUT, OUTPUT = "input", "output"

    class Pull:
        UP, DOWN = "up", "down"

    class DigitalInOut:
        def __init__(self, pin):
            self.pin = pin
            self.direction = Direction.INPUT
            self.pull = None

        @property
        def value(self):
            if self.pin == button_pin:        # active low with its pull-up
                return not plan.pressed()
            return False

        def deinit(self):
            pass

    _module("digitalio", DigitalInOut=DigitalInOut, Direction=Direction, Pull=Pull)

    class IncrementalEncoder:
        def __init__(self, a, b, divisor=4):
            self.divisor = divisor

        @property
        def position(self):
            return plan.position()

    _module("rotaryio", IncrementalEncoder=IncrementalEncoder)


def _system(plan, result, drive, state):
    """supervisor's ticks, microcontroller (reset, watchdog, nvm), storage's remount."""
    _module("supervisor", ticks_ms=plan.now)

    class Watchdog:
        timeout = None
        mode = None

        def feed(self):
            if plan.elapsed() >= plan.end_ms:
                raise KeyboardInterrupt      # the end of the run, as Ctrl-C on the console

    class ResetReason:
        POWER_ON, WATCHDOG, SOFTWARE = "power", "watchdog", "software"

    cpu = types.SimpleNamespace(reset_reason=ResetReason.POWER_ON)
    nvm = Nvm(os.path.join(os.path.dirname(os.path.abspath(drive)), NVM_FILE))
    result["nvm"] = nvm
    _module("microcontroller", cpu=cpu, ResetReason=ResetReason, watchdog=Watchdog(),
            reset=lambda: result["console"].append("(reset)"), nvm=nvm)
    _module("watchdog", WatchDogMode=types.SimpleNamespace(RESET="reset", RAISE="raise"))

    def remount(path, readonly=False, **kwargs):
        result["remounts"].append([path, readonly])
        state["readonly"] = readonly

    _module("storage", remount=remount)


def _outputs(plan, result):
    """The ring (neopixel_write), the OLED on I2C (busio, the modelled chip) and the piezo
    (pwmio), recorded in `result`."""
    def neopixel_write(pin, buf):
        result["frames"].append([plan.elapsed(), bytes(buf).hex()])

    _module("neopixel_write", neopixel_write=neopixel_write)
    sys.path.insert(0, HERE)
    from ssd1306_model import Ssd1306Chip, circuitpython_i2c
    chip = Ssd1306Chip() if plan.oled else None
    result["chip"] = chip
    bus = circuitpython_i2c(chip)

    class I2C(bus):
        def writeto(self, address, buf, *, start=0, end=None):
            if plan.happened("unplug"):
                raise OSError(errno.ETIMEDOUT, "the OLED stopped answering")
            bus.writeto(self, address, buf, start=start, end=end)

    _module("busio", I2C=I2C, SPI=type("SPI", (), {}))

    class PWMOut:
        def __init__(self, pin, duty_cycle=0, frequency=500, variable_frequency=False):
            self._duty = duty_cycle
            self.frequency = frequency

        @property
        def duty_cycle(self):
            return self._duty

        @duty_cycle.setter
        def duty_cycle(self, value):
            self._duty = value
            result["tones"].append([plan.elapsed(), self.frequency if value else 0, value])

    _module("pwmio", PWMOut=PWMOut)


class Nvm:
    """microcontroller.nvm as CircuitPython's RP2040 port has it (common-hal/nvm/ByteArray.c,
    10.2.1): one 4 KB flash sector; a write into bytes that are all erased (0xFF) is only
    programmed, any other erases the whole sector and writes it back. Kept in a file."""

    SIZE = 4096

    def __init__(self, path):
        self.path = path
        self.erases = 0
        self.data = bytearray(b"\xff" * self.SIZE)
        if os.path.exists(path):
            with open(path, "rb") as f:
                self.data[:] = f.read()

    def __len__(self):
        return self.SIZE

    def __getitem__(self, index):
        return self.data[index]

    def __setitem__(self, index, value):
        if not isinstance(index, slice) or index.step not in (None, 1):
            raise TypeError("the fake takes nvm[start:stop] = bytes")
        start, stop, _ = index.indices(self.SIZE)
        if stop - start != len(value):
            raise ValueError("Slice and value different lengths.")
        if self.data[start:stop] != b"\xff" * len(value):
            self.erases += 1
        self.data[start:stop] = value
        with open(self.path, "wb") as f:
            f.write(self.data)


NVM_FILE = "NVM.bin"


def read_only_drive(state, drive):
    """The code may not write the drive until boot.py remounts it (EROFS, as on a board)."""
    real_open, real_rename, real_remove, real_mkdir = builtins.open, os.rename, os.remove, \
        os.mkdir
    root = os.path.abspath(drive)

    def on_drive(path):
        return os.path.abspath(path).startswith(root)

    def refuse(path):
        if state["readonly"] and on_drive(path):
            raise OSError(errno.EROFS, "Read-only filesystem")

    def guarded_open(path, mode="r", *args, **kwargs):
        if any(c in mode for c in "wax+"):
            refuse(path)
        return real_open(path, mode, *args, **kwargs)

    def guarded(real):
        def call(path, *args, **kwargs):
            refuse(path)
            return real(path, *args, **kwargs)
        return call

    builtins.open = guarded_open
    os.rename, os.remove, os.mkdir = guarded(real_rename), guarded(real_remove), \
        guarded(real_mkdir)


class Console(io.TextIOBase):
    def __init__(self, lines):
        self.lines = lines
        self.partial = ""

    def write(self, text):
        self.partial += text
        while "\n" in self.partial:
            line, self.partial = self.partial.split("\n", 1)
            self.lines.append(line)
        return len(text)


def main(drive, plan_path, result_path):
    with open(plan_path) as f:
        plan = Plan(json.load(f))
    result = {"console": [], "frames": [], "remounts": [], "tones": []}
    os.chdir(drive)
    state = install(plan, result, drive)
    read_only_drive(state, drive)
    sys.path[:0] = [os.path.join(drive, "lib"), drive]
    sys.stdout = Console(result["console"])
    try:
        if json.load(open(plan_path)).get("boot", True):
            exec(compile(open("boot.py").read(), "boot.py", "exec"), {"__name__": "__main__"})
        try:
            exec(compile(open("code.py").read(), "code.py", "exec"), {"__name__": "__main__"})
        except KeyboardInterrupt:
            result["console"].append("(stopped)")
    except Exception as err:                 # what a board would print on its console
        import traceback
        result["console"].extend(traceback.format_exc().splitlines())
        result["console"].append("(crashed: %s)" % err)
    finally:
        sys.stdout = sys.__stdout__
    result["nvm_erases"] = result.pop("nvm").erases
    chip = result.pop("chip")
    if chip is not None:
        result["display_ram"] = list(chip.ram)
        result["display_on"] = chip.on
    with builtins.open(result_path, "w") as f:
        json.dump(result, f)


if __name__ == "__main__":
    main(*sys.argv[1:4])
