"""USB MIDI in the app: the notes a player holds come in (the listen mode shows them), the melds
the wheel plays go out (as the buzzer plays them).

The port makes the transport (`midi_port` in firmware/ports/) once the `midi` setting asks for
it, from the app: on MicroPython that re-enumerates the USB device, so it never happens in
boot.py or in safe mode. A transport has readinto(buf) -> count and write(buf, count), raw MIDI
bytes both ways. Reading and parsing allocate nothing; a pass reads whatever has come (the
app's input step), and what the wheel plays goes out after the LEDs (services.MidiOut)."""

from core import midi

READ_SIZE = 64


class Midi:
    def __init__(self, transport, settings):
        self.transport = transport
        self.parser = midi.Parser()
        self.held = midi.HeldNotes(settings["midi_split"])
        self.chord = midi.ChordOut()
        self.direction = "off"
        self._due = 0                 # bytes of chord.messages waiting for flush()
        self._read = bytearray(READ_SIZE)
        self._notes = bytearray(midi.MAX_CHORD)
        self._apply = self.held.apply            # bound once: poll() allocates nothing
        self.follow(settings)

    @property
    def listening(self):
        return self.direction in ("in", "both")

    @property
    def sending(self):
        return self.direction in ("out", "both")

    def follow(self, settings):
        """The settings changed: the direction and the split point follow; a chord sounding
        when sending stops is ended, and notes held when listening stops are dropped."""
        direction = settings["midi"]
        if self.sending and direction not in ("out", "both"):
            self.silence()
        self.direction = direction
        if not self.listening:
            self.held.clear()
        self.held.set_split(settings["midi_split"])

    def poll(self):
        """What came in since the last pass, into the notes held (dropped when not listening:
        the port's buffer must not fill). True when the notes sounding changed."""
        buf = self._read
        count = self.transport.readinto(buf)
        while count:
            if self.listening:
                self.parser.feed_all(buf, count, self._apply)
            if count < READ_SIZE:                # all there was
                break
            count = self.transport.readinto(buf)
        changed = self.held.changed
        self.held.changed = False
        return changed

    def play(self, codes, root_pc, settings):
        """A meld's notes at a root (`codes`: its degree codes), the previous chord ended
        first; sent by flush(), after the LEDs."""
        if not self.sending:
            return
        count = midi.voicing(codes, root_pc, settings["midi_octave"],
                             settings["midi_optional"], self._notes)
        self._room()
        self._due = self.chord.change(self._notes, count, self._due)

    def silence(self):
        """The chord sounding, ended (a mode change, MIDI out turned off); sent by flush()."""
        self._room()
        self._due = self.chord.stop(self._due)

    def flush(self):
        """What play() and silence() wrote, sent."""
        if self._due:
            count = self._due
            self._due = 0
            self.transport.write(self.chord.messages, count)

    def update(self, now, calm):
        """As a service of the pass (firmware/services.py): a meld played goes out after the
        LEDs."""
        self.flush()
        return False

    def _room(self):
        if self._due + self.chord.CHANGE_SIZE > len(self.chord.messages):
            self.flush()

    def wake_with(self, port, callback):
        """MIDI in asks for a pass at once (`callback`, None: no more), where the port can
        wake the loop: the transport calls on_receive where Python may run (hardware/
        mp_usb_midi.py: scheduled after the USB task), so the pass runs there, with no second
        trip through the scheduler. (The simulator's and the page's twins are read by the
        loop.)"""
        if callback is None or getattr(port, "knob_wake", None) is not None:
            self.transport.on_receive = callback


def start(port, hw, settings, log):
    """A Midi on the port's USB MIDI transport (made once: the first time the setting turns it
    on), or None: a board without it, or a failure, is said in the log and changes nothing
    else."""
    make = getattr(port, "midi_port", None)
    if make is None:
        log("midi: this board has no USB MIDI")
        return None
    try:
        transport = make(hw)
    except Exception as err:
        log("midi: not started (%s)" % err)
        return None
    return Midi(transport, settings)
