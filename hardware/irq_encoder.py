"""The fallback knob driver on MicroPython: a pin IRQ on both edges of A and B feeds the pure
decoder (hardware/quadrature.py). A board file's encoder "irq"; a module of its own, so the
boards with a hardware decoder (rp2's PIO, esp32's pcnt) do not keep its code in RAM."""

import machine

from hardware.mp_devices import IRQ_KEYWORDS, PIN_PULL
from hardware.quadrature import QuadratureDecoder


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
        self._a.irq(self._handler, trigger, **IRQ_KEYWORDS)
        self._b.irq(self._handler, trigger, **IRQ_KEYWORDS)

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
