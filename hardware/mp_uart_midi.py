"""Serial MIDI on the jacks, on MicroPython's machine.UART (rp2, esp32): raw MIDI bytes both
ways at 31,250 baud, 8 data bits, no parity, one stop bit (MIDI 1.0), on the UART and pins the
board file names (its "midi" section, checked by hardware/board.py).

The rp2 port's UART (ports/rp2/machine_uart.c, 1.28) fills a ring buffer from its receive
interrupt and empties one into the transmit FIFO from its transmit interrupt, so neither
readinto() nor write() waits for the wire, as long as they ask for no more than is there:
readinto(buf) alone waits up to `timeout_char` (at least 1 ms) for a byte more after the
first, so a pass reads any() bytes and no more. IRQ_RXIDLE (the PL011's receive timeout: the
line quiet for 32 bit times, 1 ms, after a message) calls on_receive through
micropython.schedule, as the USB port's transfers do (hardware/mp_usb_midi.py): a message
that has just come in has a pass run at once. Reading allocates nothing; a write of part of a
buffer makes a memoryview (at event time)."""

import machine

BAUD = 31250
RX_BUFFER = 1024          # 330 ms of a full line: a pass that waits on a flash write loses none
TX_BUFFER = 256           # a chord's change (144 bytes) or a few link messages, sent meanwhile


class UartMidi:
    def __init__(self, config):
        self.uart = machine.UART(config["uart"], baudrate=BAUD, bits=8, parity=None, stop=1,
                                 tx=machine.Pin(config["tx"]), rx=machine.Pin(config["rx"]),
                                 txbuf=TX_BUFFER, rxbuf=RX_BUFFER, timeout=0)
        self.on_receive = None        # called (scheduled) when a message has come in
        self.broadcast = False        # OUT to one wheel's IN: a ring, not a bus
        if hasattr(machine.UART, "IRQ_RXIDLE"):
            self.uart.irq(self._heard, machine.UART.IRQ_RXIDLE, False)     # a soft IRQ

    def _heard(self, uart):
        if self.on_receive is not None:
            self.on_receive()

    def readinto(self, buf):
        waiting = self.uart.any()
        if not waiting:
            return 0
        return self.uart.readinto(buf, min(waiting, len(buf))) or 0

    def write(self, buf, count):
        # (the whole buffer as it is; a part through a memoryview, at event time: the stubs
        # know no write(buf, count))
        self.uart.write(buf if count == len(buf) else memoryview(buf)[:count])

    def waiting(self):
        """Bytes come in and not yet read (the loop's poll where nothing wakes it)."""
        return self.uart.any()
