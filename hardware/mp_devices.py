"""MicroPython devices for any port: NeoPixel ring output, pin-IRQ encoder (its own module,
hardware/irq_encoder.py), button pin."""

import sys

import machine
import micropython
import neopixel

from hardware.clock import ticks_ms
from hardware.presses import Edges

# A board file's "pull" as machine.Pin's; every MicroPython encoder and button driver uses it.
PIN_PULL = {"up": machine.Pin.PULL_UP, "down": machine.Pin.PULL_DOWN, "none": None}
# Pin.irq's keywords: ports/esp32/machine_pin.c takes only handler, trigger and wake (its pin
# IRQs always run from the scheduler) and raises TypeError for hard=; rp2 and others take it.
IRQ_KEYWORDS = {} if sys.platform == "esp32" else {"hard": True}


class NeoPixelOutput:
    """Writes prepared wire bytes as MicroPython's neopixel driver does (its pin set-up and
    800 kHz timing), straight through machine.bitstream from our buffer: no copy, and no
    layer of Python calls between the knob and the wire."""

    def __init__(self, ring_config):
        np = neopixel.NeoPixel(machine.Pin(ring_config["pin"]), ring_config["count"],
                               bpp=len(ring_config["order"]))
        self._pin = np.pin
        self._timing = np.timing
        self._bitstream = machine.bitstream

    def write(self, buf):
        self._bitstream(self._pin, 0, self._timing, buf)     # 0: high then low, as neopixel


def IrqEncoder(config):  # the driver's class, where a port builds it
    """The fallback knob driver (hardware/irq_encoder.py), imported only by a board that uses
    it: a Pico's PIO driver or an ESP32's pcnt leaves its code off the heap (about 1 KB)."""
    from hardware.irq_encoder import IrqEncoder as driver
    return driver(config)


class ScheduledWake:
    """What the knob's interrupt calls (set()) to have `callback` run at once: through
    micropython.schedule, at the next bytecode boundary, even while asyncio sleeps in its poll.
    Measured on the emulated Pico, an asyncio.ThreadSafeFlag's trip through the asyncio loop
    cost about 0.4 ms more from the edge to the LEDs. Nothing here allocates (the bound method
    is made once), so set() may run in a hard interrupt."""

    def __init__(self, callback):
        self._callback = callback
        self._run_bound = self._run
        self.queued = False

    def set(self):
        if self.queued:
            return
        self.queued = True
        try:
            micropython.schedule(self._run_bound, None)
        except RuntimeError:              # the queue is full: the loop's next pass takes it
            self.queued = False

    def _run(self, _):
        self.queued = False
        self._callback()


class PinButton:
    """The push switch: read at each pass, and each of its edges stamped by a pin interrupt on
    both edges (edges: hardware/presses.py), with the time and `knob`'s detent count (the
    encoder's decoder, or None): a press made while a pass was busy is not lost. The handler
    reads the pin and the clock and stores integers: it allocates nothing."""

    def __init__(self, config, knob=None):
        self._pin = machine.Pin(config["pin"], machine.Pin.IN, PIN_PULL[config["pull"]])
        self._pressed_level = 0 if config["active_low"] else 1
        self.edges = Edges(knob)
        self._handler = self._edge          # bound once, not per interrupt
        self._pin.irq(self._handler, machine.Pin.IRQ_RISING | machine.Pin.IRQ_FALLING,
                      **IRQ_KEYWORDS)

    def _edge(self, pin):
        self.edges.put(pin.value() == self._pressed_level, ticks_ms())

    def pressed(self):
        return self._pin.value() == self._pressed_level


class Watchdog:
    """machine.WDT, started only by the app (never in safe mode: MicroPython cannot stop it).
    `clear_enable`: where the chip's watchdog can still be stopped by hand, the (address,
    bits) whose write does it (firmware/ports/rp2.py), for stop()."""

    def __init__(self, timeout_ms=8000, clear_enable=None):
        self._wdt = machine.WDT(timeout=timeout_ms)
        self._clear_enable = clear_enable

    def feed(self):
        self._wdt.feed()

    def stop(self):
        """A deliberate stop (Ctrl-C: a deploy, mpremote): the REPL after it must not be reset
        8 s later, in the middle of the host's work. A chip without a way: nothing."""
        if self._clear_enable is not None:
            address, bits = self._clear_enable
            machine.mem32[address] = bits

