"""The web board's USB MIDI twin (hardware/web_pins.py has the pins' protocol): the page's MIDI
commands in (Web MIDI, or a script's note-on steps), the wheel's bytes out to the page (Web
MIDI out, the frames). Imported only once the app starts MIDI."""

import uctypes
import webpins

from hardware.midi_twin import MidiInQueue


class WebMidi(MidiInQueue):
    def __init__(self):
        MidiInQueue.__init__(self)
        self._midi = webpins.midi

    def write(self, buf, count):
        self._midi(uctypes.addressof(buf), count)
