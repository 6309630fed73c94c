"""A pure quadrature decoder for mechanical rotary encoders.

It follows the full Gray-code state sequence (00 01 11 10) and counts a detent only when the
contacts come back to a rest state with at least half a detent's worth of net movement, so:
- contact bounce (a transition and its reverse) cancels out instead of drifting;
- a reversal in the middle of a detent counts nothing;
- a missed edge (an impossible two-bit jump) is ignored and the rest state resynchronises.
It allocates nothing, so feed() may run in a hard interrupt handler.
"""

# (previous state << 2 | new state) -> 0 no change, 1 forward, 2 backward, 3 impossible jump.
# States are (A << 1) | B. Forward (clockwise, +1) is A leading B: 11 -> 01 -> 00 -> 10 -> 11,
# the way encoder datasheets draw clockwise and the way CircuitPython's rotaryio
# (shared-module/rotaryio/IncrementalEncoder.c) and ESP32's machine.Encoder count up, so one
# wiring turns the same way on every driver.
_STEP = b"\x00\x02\x01\x03\x01\x00\x03\x02\x02\x03\x00\x01\x03\x01\x02\x00"

TURNED_MASK = 0xFFFF


def turned_between(before, after):
    """Detents from one `turned` count to a later one (signed; fewer than 2**15 apart)."""
    return ((after - before + 0x8000) & TURNED_MASK) - 0x8000


class QuadratureDecoder:
    def __init__(self, pulses_per_detent=4, reverse=False, rest_state=3):
        if pulses_per_detent not in (1, 2, 4):
            raise ValueError("pulses_per_detent must be 1, 2 or 4")
        self._half = pulses_per_detent >> 1 or 1
        if pulses_per_detent == 4:
            self._rest = 1 << rest_state                 # one rest state per detent
        elif pulses_per_detent == 2:
            self._rest = (1 << 0) | (1 << 3)           # 00 and 11
        else:
            self._rest = 0x0F                          # every state
        self._sign = -1 if reverse else 1
        self._state = rest_state
        self._moved = 0       # transitions since the last rest state, signed
        self.detents = 0      # detents not yet taken, signed
        # Every detent counted so far, signed, modulo 2**16 (TURNED_MASK): a button edge is
        # stamped with it, so the loop hands a busy pass's presses and turns on in the order
        # they came (hardware/presses.py: Edges). Masked so it never outgrows a small int.
        self.turned = 0
        self.edges = 0        # transitions seen (diagnostics, benchmarks)

    def reset(self, state):
        """Start from the contacts' current state (read at power-up)."""
        self._state = state & 3
        self._moved = 0

    def feed(self, state):
        """The contacts now read `state` ((A << 1) | B)."""
        step = _STEP[(self._state << 2) | state]
        self._state = state
        if step == 0:
            return
        self.edges += 1
        if step == 1:
            self._moved += 1
        elif step == 2:
            self._moved -= 1
        if self._rest >> state & 1:
            if self._moved >= self._half:
                self.detents += self._sign
                self.turned = (self.turned + self._sign) & TURNED_MASK
            elif self._moved <= -self._half:
                self.detents -= self._sign
                self.turned = (self.turned - self._sign) & TURNED_MASK
            self._moved = 0

    def take(self):
        """Detents since the last call (positive clockwise)."""
        count = self.detents
        self.detents = 0
        return count
