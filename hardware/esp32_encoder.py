"""ESP32 encoder: the PCNT peripheral through machine.Encoder (MicroPython >= 1.26), with its
glitch filter. Counting 4 // pulses_per_detent phases makes one count per detent."""

import machine

from hardware.mp_devices import PIN_PULL


class PcntEncoder:
    def __init__(self, config, unit=0):
        pull = PIN_PULL[config["pull"]]
        a = machine.Pin(config["pin_a"], machine.Pin.IN, pull)
        b = machine.Pin(config["pin_b"], machine.Pin.IN, pull)
        self._encoder = machine.Encoder(unit, a, b, phases=4 // config["pulses_per_detent"],
                                        filter_ns=config["filter_ns"])
        self._sign = -1 if config["reverse"] else 1
        self._last = self._encoder.value()

    def take(self):
        value = self._encoder.value()
        count = value - self._last
        self._last = value
        return count * self._sign
