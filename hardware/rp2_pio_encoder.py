"""RP2040 encoder: a PIO state machine watches A and B (consecutive GPIOs) and pushes every
change of the pair into its FIFO, then raises an IRQ; the handler drains the FIFO into the pure
decoder. While neopixel writes have interrupts off (~0.4 ms), changes wait in the FIFO
(8 deep, joined) instead of being lost; if it is ever full, the state machine stalls on its
push (block) and samples the pins again once there is room, so the newest state always
arrives (with noblock the change would be dropped while the program believed it sent)."""

# mypy: disable-error-code="name-defined"
# (the PIO program's words, wrap_target, mov, isr ..., exist only inside @rp2.asm_pio)

import machine
import rp2

from hardware.mp_devices import PIN_PULL
from hardware.quadrature import QuadratureDecoder


@rp2.asm_pio(in_shiftdir=rp2.PIO.SHIFT_LEFT, fifo_join=rp2.PIO.JOIN_RX)
def _watch_pair():
    # The PIO assembler's names (rp2.asm_pio gives them to the program as it runs it).
    wrap_target()
    label("sample")
    mov(isr, null)
    in_(pins, 2)
    mov(y, isr)
    jmp(x_not_y, "changed")
    jmp("sample")
    label("changed")
    mov(x, y)
    push(block)                        # a full FIFO waits: no change is lost
    irq(rel(0))
    wrap()


class PioEncoder:
    def __init__(self, config, state_machine=0):
        pull = PIN_PULL[config["pull"]]
        base = machine.Pin(config["pin_a"], machine.Pin.IN, pull)
        machine.Pin(config["pin_b"], machine.Pin.IN, pull)
        self.decoder = QuadratureDecoder(config["pulses_per_detent"], config["reverse"],
                                         config["rest_state"])
        self.decoder.reset((base.value() << 1) | machine.Pin(config["pin_b"]).value())
        self._sm = rp2.StateMachine(state_machine, _watch_pair, freq=1000000, in_base=base)
        self.wake = None                   # the port's knob_wake, set at each detent
        self._handler = self._drain
        self._sm.irq(self._handler, hard=True)
        self._sm.active(1)

    def _drain(self, sm):
        # in_(pins, 2) puts the base pin (A) in bit 0 and B in bit 1; the decoder wants A B.
        while sm.rx_fifo():
            pair = sm.get()
            self.decoder.feed(((pair & 1) << 1) | ((pair >> 1) & 1))
        if self.decoder.detents and self.wake is not None:
            self.wake.set()                    # allocates nothing: fine in a hard IRQ

    def take(self):
        # Called at every pass (a MIDI note's too): the decoder's take() worked out here, not
        # called (a call is about 15 us on the Pico), and interrupts left on when there is
        # nothing to take (a detent counted just after this is taken by the pass its wake asks
        # for).
        decoder = self.decoder
        if not decoder.detents:
            return 0
        state = machine.disable_irq()
        count = decoder.detents
        decoder.detents = 0
        machine.enable_irq(state)
        return count
