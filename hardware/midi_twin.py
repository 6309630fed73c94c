"""The USB MIDI port's twins: the simulator's (SimMidi, on its link) and, through MidiInQueue,
the page's (hardware/web_midi.py). Imported only once the app starts MIDI, so a board whose
MIDI is off carries none of it."""

import sys

from hardware.sim import MIDI_MARK

MIDI_IN_SIZE = 256


class MidiInQueue:
    """A USB MIDI port's input, for the twins (the simulator's, the page's): what the host
    sends waits here for readinto(); a full queue drops what does not fit, as a USB port's
    buffer would. Nothing allocates."""

    def __init__(self):
        self._in = bytearray(MIDI_IN_SIZE)
        self._start = 0
        self._count = 0
        self.on_receive = None        # called when bytes came (a real port's wake)

    def receive(self, data, count=None):
        for i in range(len(data) if count is None else count):
            if self._count == MIDI_IN_SIZE:
                break
            self._in[(self._start + self._count) % MIDI_IN_SIZE] = data[i]
            self._count += 1
        if self.on_receive is not None:
            self.on_receive()

    def readinto(self, buf):
        count = min(len(buf), self._count)
        for i in range(count):
            buf[i] = self._in[(self._start + i) % MIDI_IN_SIZE]
        self._start = (self._start + count) % MIDI_IN_SIZE
        self._count -= count
        return count


class SimMidi(MidiInQueue):
    """The USB MIDI port's twin in the simulator: what the host sends (the link's `midi`
    command) waits for readinto(); what the wheel writes goes to the host on the frame
    stream."""

    def __init__(self, stream=None):
        MidiInQueue.__init__(self)
        self._out = stream or sys.stdout.buffer
        self._size = bytearray(1)

    def write(self, buf, count):
        while count:
            size = min(count, 255)
            self._size[0] = size
            self._out.write(MIDI_MARK)
            self._out.write(self._size)
            self._out.write(memoryview(buf)[:size])
            self._out.write(b"\n")
            buf = memoryview(buf)[size:]
            count -= size
