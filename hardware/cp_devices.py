"""CircuitPython devices: the ring through neopixel_write (the primitive under Adafruit's
neopixel library, used directly so a frame is written from our buffer with no copy), the
encoder through rotaryio, the button through digitalio; the nvm that keeps the settings
(firmware/nvm_records.py)."""

import board
import digitalio
import rotaryio
from neopixel_write import neopixel_write


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
    def __init__(self, config):
        self._pin = digitalio.DigitalInOut(_pin(config["pin"]))
        self._pin.direction = digitalio.Direction.INPUT
        if config["pull"] == "up":
            self._pin.pull = digitalio.Pull.UP
        elif config["pull"] == "down":
            self._pin.pull = digitalio.Pull.DOWN
        self._pressed_level = not config["active_low"]

    def pressed(self):
        return self._pin.value == self._pressed_level


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
