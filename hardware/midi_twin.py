"""The MIDI ports' twins: the USB port's in the simulator (SimMidi, on its link) and, through
MidiInQueue, the page's (hardware/web_midi.py); the jacks' in the simulator (SimJacks).
Imported only once the app starts MIDI, so a board whose MIDI is off carries none of it."""

import sys

from hardware.sim import JACKS_MARK, MIDI_MARK

MIDI_IN_SIZE = 256
JACKS_IN_SIZE = 1024          # the UART's receive buffer on a board (hardware/mp_uart_midi.py)


class MidiInQueue:
    """A USB MIDI port's input, for the twins (the simulator's, the page's): what the host
    sends waits here for readinto(); a full queue drops what does not fit, as a USB port's
    buffer would. Nothing allocates."""

    def __init__(self, size=MIDI_IN_SIZE):
        self._in = bytearray(size)
        self._start = 0
        self._count = 0
        self.on_receive = None        # called when bytes came (a real port's wake)
        self.dropped = 0              # bytes that found the queue full

    def receive(self, data, count=None):
        size = len(self._in)
        for i in range(len(data) if count is None else count):
            if self._count == size:
                self.dropped += 1
                continue
            self._in[(self._start + self._count) % size] = data[i]
            self._count += 1
        if self.on_receive is not None:
            self.on_receive()

    def readinto(self, buf):
        size = len(self._in)
        count = min(len(buf), self._count)
        for i in range(count):
            buf[i] = self._in[(self._start + i) % size]
        self._start = (self._start + count) % size
        self._count -= count
        return count

    def waiting(self):
        return self._count


class SimMidi(MidiInQueue):
    """The USB MIDI port's twin in the simulator: what the host sends (the link's `midi`
    command) waits for readinto(); what the wheel writes goes to the host on the frame
    stream."""

    MARK = MIDI_MARK
    broadcast = True              # a computer between wheels: it hands each what the others say

    def __init__(self, stream=None, size=MIDI_IN_SIZE):
        MidiInQueue.__init__(self, size)
        self._out = stream or sys.stdout.buffer
        self._size = bytearray(1)

    def write(self, buf, count):
        while count:
            size = min(count, 255)
            self._size[0] = size
            self._out.write(self.MARK)
            self._out.write(self._size)
            self._out.write(memoryview(buf)[:size])
            self._out.write(b"\n")
            buf = memoryview(buf)[size:]
            count -= size


class SimJacks(SimMidi):
    """The MIDI jacks' twin in the simulator: the host's `jacks` commands arrive on MIDI IN,
    what the wheel sends on MIDI OUT goes to the host on the frame stream (JACKS_MARK). The
    simulator's wheels hear each other on a bus (host_tools/sim/table.py hands every wheel
    what each sends, at 31,250 baud), not in a ring."""

    MARK = JACKS_MARK

    def __init__(self, stream=None):
        SimMidi.__init__(self, stream, JACKS_IN_SIZE)
