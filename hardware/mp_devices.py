"""MicroPython devices for any port: NeoPixel ring output, pin-IRQ encoder, button pin."""

import sys

import machine
import micropython
import neopixel

from hardware.quadrature import QuadratureDecoder

# A board file's "pull" as machine.Pin's; every MicroPython encoder and button driver uses it.
PIN_PULL = {"up": machine.Pin.PULL_UP, "down": machine.Pin.PULL_DOWN, "none": None}
# Pin.irq's keywords: ports/esp32/machine_pin.c takes only handler, trigger and wake (its pin
# IRQs always run from the scheduler) and raises TypeError for hard=; rp2 and others take it.
_IRQ_KEYWORDS = {} if sys.platform == "esp32" else {"hard": True}


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


class IrqEncoder:
    """Fallback decoder: an IRQ on both edges of A and B feeds the pure decoder (hard where
    the port has hard pin IRQs; on ESP32 prefer the "pcnt" driver). The handler reads two pins
    and updates integers: it allocates nothing."""

    def __init__(self, config):
        pull = PIN_PULL[config["pull"]]
        self._a = machine.Pin(config["pin_a"], machine.Pin.IN, pull)
        self._b = machine.Pin(config["pin_b"], machine.Pin.IN, pull)
        self.decoder = QuadratureDecoder(config["pulses_per_detent"], config["reverse"],
                                         config["rest_state"])
        self.decoder.reset(self._read())
        self.wake = None                    # the port's knob_wake, set at each detent
        self._handler = self._edge          # bound once, not per interrupt
        trigger = machine.Pin.IRQ_RISING | machine.Pin.IRQ_FALLING
        self._a.irq(self._handler, trigger, **_IRQ_KEYWORDS)
        self._b.irq(self._handler, trigger, **_IRQ_KEYWORDS)

    def _read(self):
        return (self._a.value() << 1) | self._b.value()

    def _edge(self, _pin):
        self.decoder.feed((self._a.value() << 1) | self._b.value())
        if self.decoder.detents and self.wake is not None:
            self.wake.set()

    def take(self):
        state = machine.disable_irq()
        count = self.decoder.take()
        machine.enable_irq(state)
        return count


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
    def __init__(self, config):
        self._pin = machine.Pin(config["pin"], machine.Pin.IN, PIN_PULL[config["pull"]])
        self._pressed_level = 0 if config["active_low"] else 1

    def pressed(self):
        return self._pin.value() == self._pressed_level


class Watchdog:
    """machine.WDT, started only by the app (never in safe mode: it cannot be stopped)."""

    def __init__(self, timeout_ms=8000):
        self._wdt = machine.WDT(timeout=timeout_ms)

    def feed(self):
        self._wdt.feed()

