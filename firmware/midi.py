"""MIDI in the app, on the ports the wheel has: USB MIDI and serial MIDI on its jacks. The notes
a player holds come in (the listen mode shows them), the melds the wheel plays go out (as the
buzzer plays them), on the port or ports the `midi_port` setting chooses ("usb", "jacks",
"both"; where a board has one kind only, that one); the table link (firmware/link.py) speaks
System Exclusive on the ports the `link` setting chooses.

The port makes each transport (`midi_port`, `jacks_port` in firmware/ports/) the first time
something asks for it, from the app: on MicroPython USB MIDI re-enumerates the USB device, so
it never happens in boot.py or in safe mode. A transport has readinto(buf) -> count and
write(buf, count), raw MIDI bytes both ways, and on_receive (the port's wake, where it has
one). Each port has its own parser (running status and a SysEx belong to one input). Reading
and parsing allocate nothing; a pass reads whatever has come (the app's input step), and what
the wheel plays goes out after the LEDs (the Midi is the MIDI out service)."""

from core import midi

READ_SIZE = 64
SYSEX_SIZE = 96               # the longest SysEx a port keeps whole (the table link's are less)
KINDS = ("usb", "jacks")      # the ports, as the settings name them
_MAKERS = {"usb": "midi_port", "jacks": "jacks_port"}


def available(port, board):
    """The kinds of MIDI port this board has: USB where its port has USB MIDI, the jacks where
    its board file has them too."""
    found = []
    if getattr(port, "midi_port", None) is not None:
        found.append("usb")
    if getattr(port, "jacks_port", None) is not None and board.get("midi") is not None:
        found.append("jacks")
    return found


def chosen(choice, kinds):
    """The kinds of port a setting ("usb", "jacks", "both", "off") chooses among those the
    board has, `kinds`: where it has none of them, the one it has."""
    if choice == "off":
        return ()
    wanted = tuple(k for k in kinds if choice in (k, "both"))
    return wanted or tuple(kinds[:1])


class Port:
    """A port the app has started: its transport and its parser; whether it carries the MIDI
    features (chord out, listen) and the table link; the channel messages it read and let
    go (a port that carries the link alone: a synth's notes on the line)."""

    def __init__(self, kind, transport):
        self.kind = kind
        self.transport = transport
        self.parser = midi.Parser(SYSEX_SIZE)
        self.features = False
        self.link = False
        self.skipped = 0
        self.skip = self._skip           # bound once: poll() allocates nothing

    def _skip(self, status, data1, data2):
        self.skipped += 1


class Midi:
    def __init__(self, settings):
        self.ports = []
        self.held = midi.HeldNotes(settings["midi_split"])
        self.chord = midi.ChordOut()
        self.direction = "off"
        self.feature_kinds = ()       # the kinds of port the features are on
        self.link_kinds = ()          # and the table link
        self._due = 0                 # bytes of chord.messages waiting for flush()
        self._read = bytearray(READ_SIZE)
        self._notes = bytearray(midi.MAX_CHORD)
        self._apply = self.held.apply            # bound once: poll() allocates nothing
        self._wake = None             # the app's wake, given to every transport (wake_with)

    @property
    def listening(self):
        return self.direction in ("in", "both") and bool(self.feature_kinds)

    @property
    def sending(self):
        return self.direction in ("out", "both") and bool(self.feature_kinds)

    def add(self, kind, transport):
        """A started transport joins (the app's start(), or a test's twin)."""
        port = Port(kind, transport)
        port.features = kind in self.feature_kinds
        port.link = kind in self.link_kinds
        self.ports.append(port)
        if self._wake is not None:
            transport.on_receive = self._wake
        return port

    def port(self, kind):
        for port in self.ports:
            if port.kind == kind:
                return port
        return None

    def follow(self, settings, kinds=KINDS):
        """The settings changed: the direction, the ports and the split point follow; a chord
        sounding is ended on the ports it sounds on when sending stops there, and notes held
        when listening stops are dropped. `kinds`: the kinds of port the board has."""
        direction = settings["midi"]
        feature_kinds = chosen(settings["midi_port"], list(kinds)) if direction != "off" else ()
        if self.sending and (direction not in ("out", "both")
                             or feature_kinds != self.feature_kinds):
            self.silence()
            self.flush()              # on the ports that sounded it, before they change
        self.direction = direction
        self.feature_kinds = feature_kinds
        self.link_kinds = chosen(settings["link"], list(kinds))
        for port in self.ports:
            port.features = port.kind in feature_kinds
            port.link = port.kind in self.link_kinds
        if not self.listening:
            self.held.clear()
        self.held.set_split(settings["midi_split"])

    def poll(self):
        """What came in since the last pass, on every port: channel messages into the notes
        held where the port carries the features and listening is on, SysEx to the table link
        where it carries the link (Parser.on_sysex); all read, so no port's buffer fills. True
        when the notes sounding changed."""
        for port in self.ports:
            self._poll(port)
        changed = self.held.changed
        self.held.changed = False
        return changed

    def _poll(self, port):
        buf = self._read
        count = port.transport.readinto(buf)
        sink = self._apply if port.features and self.listening else port.skip
        while count:
            port.parser.feed_all(buf, count, sink)
            if count < READ_SIZE:                # all there was
                break
            count = port.transport.readinto(buf)

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
        """What play() and silence() wrote, sent on every port that carries the features."""
        if self._due:
            count = self._due
            self._due = 0
            for port in self.ports:
                if port.features:
                    port.transport.write(self.chord.messages, count)

    def update(self, now, calm):
        """As a service of the pass (firmware/services.py): a meld played goes out after the
        LEDs."""
        self.flush()
        return False

    def waiting(self):
        """Whether a port has bytes waiting (a loop that nothing wakes polls this)."""
        for port in self.ports:
            if port.transport.waiting():
                return True
        return False

    def _room(self):
        if self._due + self.chord.CHANGE_SIZE > len(self.chord.messages):
            self.flush()

    def wake_with(self, port, callback):
        """MIDI in asks for a pass at once (`callback`, None: no more), where the port can
        wake the loop: a transport calls on_receive where Python may run (hardware/
        mp_usb_midi.py: scheduled after the USB task; hardware/mp_uart_midi.py: the UART's
        receive timeout), so the pass runs there, with no second trip through the scheduler.
        (The simulator's and the page's twins are read by the loop.)"""
        if callback is not None and getattr(port, "knob_wake", None) is None:
            return
        self._wake = callback
        for started in self.ports:
            started.transport.on_receive = callback


def needed(settings, kinds):
    """The kinds of port the settings ask for, among the board's `kinds`: the MIDI features'
    (the `midi_port` setting, while `midi` is on) and the table link's (`link`)."""
    wanted = chosen(settings["link"], kinds)
    if settings["midi"] != "off":
        wanted += tuple(k for k in chosen(settings["midi_port"], kinds) if k not in wanted)
    return wanted


def start(port, hw, settings, log):
    """A Midi with the ports the settings ask for started (each made once, by the port), or
    None when none could start: a board without them, or a failure, is said in the log and
    changes nothing else."""
    kinds = available(port, hw.board)
    if not kinds:
        log("midi: this board has no USB MIDI and no MIDI jacks")
        return None
    found = Midi(settings)
    found.follow(settings, kinds)
    ensure(found, port, hw, needed(settings, kinds), log)
    return found if found.ports else None


def ensure(found, port, hw, kinds, log):
    """The ports of `kinds` that `found` has not started yet, started now."""
    for kind in kinds:
        if found.port(kind) is not None:
            continue
        try:
            transport = getattr(port, _MAKERS[kind])(hw)
        except Exception as err:
            log("midi: %s not started (%s)" % ("USB MIDI" if kind == "usb" else "the jacks", err))
            continue
        found.add(kind, transport)
