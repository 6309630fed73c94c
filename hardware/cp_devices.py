"""CircuitPython devices: the ring through neopixel_write (the primitive under Adafruit's
neopixel library, used directly so a frame is written from our buffer with no copy), the
encoder through rotaryio, the button through keypad (digitalio where the build lacks it); the
nvm that keeps the settings (firmware/nvm_records.py)."""

import board
import digitalio
import rotaryio
from neopixel_write import neopixel_write

from hardware.presses import EDGES, Edges


def _pin(name):
    return getattr(board, name)


class NeoPixelOutput:
    def __init__(self, ring_config):
        self._pin = digitalio.DigitalInOut(_pin(ring_config["pin"]))
        self._pin.direction = digitalio.Direction.OUTPUT

    def write(self, buf):
        neopixel_write(self._pin, buf)


class RotaryEncoder:
    def __init__(self, config):
        self._encoder = rotaryio.IncrementalEncoder(_pin(config["pin_a"]), _pin(config["pin_b"]),
                                                    divisor=config["pulses_per_detent"])
        self._sign = -1 if config["reverse"] else 1
        self._last = self._encoder.position

    def take(self):
        position = self._encoder.position
        count = position - self._last
        self._last = position
        return count * self._sign

    def moved(self):
        """Whether a detent waits for take() (nothing taken)."""
        return self._encoder.position != self._last


class PinButton:
    """The push switch. Where the build has keypad (the QT Py RP2040's 10.2.1 has), keypad.Keys
    scans the pin from the supervisor's tick interrupt (shared-module/keypad, called from
    supervisor_tick) and queues each change with its supervisor.ticks_ms: a press made while
    a pass was busy is kept, and the pass judges it on that time (`edges`, filled from the
    queue when the pass asks: KeypadEdges). Else digitalio, read at each pass (edges None)."""

    SCAN_S = 0.005            # keypad's scan interval: an edge's time to within 5 ms

    def __init__(self, config):
        self.edges = None
        self._keys = None
        low = config["active_low"]
        try:
            import keypad
        except ImportError:
            keypad = None
        # keypad's pull is the one its pressed level wants (up for a switch to ground)
        if keypad is not None and config["pull"] != ("down" if low else "up"):
            self._keys = keypad.Keys((_pin(config["pin"]),), value_when_pressed=not low,
                                     pull=config["pull"] != "none", interval=self.SCAN_S,
                                     max_events=EDGES)
            self.edges = KeypadEdges(self._keys.events, keypad.Event())
            return
        self._pin = digitalio.DigitalInOut(_pin(config["pin"]))
        self._pin.direction = digitalio.Direction.INPUT
        if config["pull"] == "up":
            self._pin.pull = digitalio.Pull.UP
        elif config["pull"] == "down":
            self._pin.pull = digitalio.Pull.DOWN
        self._pressed_level = not low

    def pressed(self):
        """The level as the edges taken so far left it (keypad owns the pin), or the pin's."""
        if self.edges is not None:
            return self.edges.down
        return self._pin.value == self._pressed_level

    def queued(self):
        """Whether keypad holds a change the pass has not taken (the loop's rest watches it)."""
        return self._keys is not None and len(self._keys.events) > 0


class KeypadEdges(Edges):
    """The edges ring, filled from keypad's event queue each time the pass asks whether an
    edge waits: each with keypad's own timestamp. The knob's count is not known at a keypad
    event (rotaryio counts apart), so the pass takes a busy pass's turns before its edges, as
    it did when it read the pin. get_into fills one Event: nothing is allocated."""

    def __init__(self, events, event):
        Edges.__init__(self)
        self._events = events
        self._event = event
        self.down = False             # the level the last edge taken from keypad left

    def waiting(self):
        event = self._event
        while self._events.get_into(event):
            self.down = event.pressed
            self.put(event.pressed, event.timestamp)
        return Edges.waiting(self)


class Watchdog:
    def __init__(self, timeout_s=8):
        import microcontroller
        import watchdog
        self._dog = microcontroller.watchdog
        self._dog.timeout = timeout_s
        self._dog.mode = watchdog.WatchDogMode.RESET

    def feed(self):
        self._dog.feed()



def nvm():
    """The chip's non-volatile bytes outside CIRCUITPY (a flash sector on an RP2040), or None."""
    import microcontroller
    return getattr(microcontroller, "nvm", None)
