"""ESP32 encoder: the PCNT peripheral through machine.Encoder (MicroPython >= 1.26), with its
glitch filter. Counting 4 // pulses_per_detent phases makes one count per detent.

With phases=1 the count moves on A's edges while B is high (ports/esp32/modules/machine.py:
A falling +1, A rising -1, held while B is low): A leading B, clockwise, counts up, as the
other drivers do. A wiggle at rest (A falls and rises again) reads +1 then -1, so with one
rest state a detent is taken only once the contacts are back at rest."""

import machine

from hardware.mp_devices import PIN_PULL


class PcntEncoder:
    def __init__(self, config, unit=0):
        if not hasattr(machine, "Encoder"):
            from hardware.board import BoardError
            raise BoardError([("encoder.driver", '"pcnt" needs machine.Encoder, which this '
                               'ESP32 lacks (no PCNT unit, as on the ESP32-C3): use "irq"')])
        pull = PIN_PULL[config["pull"]]
        self._a = machine.Pin(config["pin_a"], machine.Pin.IN, pull)
        self._b = machine.Pin(config["pin_b"], machine.Pin.IN, pull)
        ppd = config["pulses_per_detent"]
        self._rest = config["rest_state"] if ppd == 4 else None
        self._encoder = machine.Encoder(unit, self._a, self._b, phases=4 // ppd,
                                        filter_ns=config["filter_ns"])
        self._sign = -1 if config["reverse"] else 1
        self._last = self._encoder.value()

    def take(self):
        if self._rest is not None and (self._a.value() << 1 | self._b.value()) != self._rest:
            return 0                  # mid-detent: a wiggle may still come back
        value = self._encoder.value()
        count = value - self._last
        self._last = value
        return count * self._sign
