"""MIDI for the wheel, pure: raw bytes to channel and System Exclusive messages (the one parser
of every MIDI input: USB and the jacks, notes and the table link's SysEx), the notes a player
holds (with the sustain pedal, all-notes-off and a split point), and a meld at a root as the
notes it sends.

Nothing here allocates per byte or per message: the loop feeds bytes as they come, on the
device as in the simulator. Notes are MIDI numbers, C4 (middle C) = 60.
"""

from core import degrees

NOTE_OFF = 0x80
NOTE_ON = 0x90
CONTROL_CHANGE = 0xB0
SUSTAIN = 64                  # the sustain (damper) pedal: 64-127 down, 0-63 up
ALL_SOUND_OFF = 120
RESET_CONTROLLERS = 121       # the pedal comes up
ALL_NOTES_OFF = 123
VELOCITY = 100                # the wheel's note-ons
RELEASE = 64                  # the wheel's note-off velocity (the MIDI spec's default)
NO_SPLIT = 128                # a split point above every note: all of them count
MAX_CHORD = 24                # a meld's notes: 12 positions, each could need its octave too
MESSAGE = 3                   # bytes of a note-on or note-off

# Data bytes a channel message carries, by status high nibble 0x8 .. 0xE.
_DATA_BYTES = b"\x02\x02\x02\x02\x01\x01\x02"

_DOWN = 1                     # a note's flags: its key is down ...
_SUSTAINED = 2                # ... or it was let go while the pedal held it


def octave_root(pc, octave):
    """The MIDI note of pitch class `pc` in scientific-pitch `octave` (C4 = 60)."""
    return 12 * (octave + 1) + pc


SYSEX = 0xF0                  # System Exclusive: F0, its data bytes, F7
SYSEX_END = 0xF7


class Parser:
    """Raw MIDI bytes to channel messages and System Exclusive messages. feed_all(buf, count,
    sink) calls sink(status, data1, data2) for each channel message the bytes complete (data2
    0 for a one-byte message), in one call a batch; feed(byte) returns the status byte of a
    channel message it completes (its data in data1, data2) or 0.

    Running status is kept, so a data byte after a complete message starts the next one with
    the same status. System real-time bytes (clock, active sensing, ...) may come between any
    two bytes, inside a SysEx too, and change nothing; a system common or SysEx byte ends the
    running status, and data bytes after it are skipped until the next status byte.

    A SysEx's data bytes (between F0 and F7) are kept in `sysex` (made once, `sysex_size`
    bytes) and handed whole to on_sysex(sysex, count) at its F7. One cut short (a status byte
    before its F7: a cable pulled, a power cut mid-message) is dropped and counted in `cut`;
    one longer than `sysex` is dropped and counted in `too_long`: nothing half-read goes on.
    Real-time bytes are counted in `realtime` (the table link counts a synth's clock)."""

    def __init__(self, sysex_size=0):
        self.status = 0
        self.data1 = 0
        self.data2 = 0
        self._need = 0
        self._have = 0
        self._one = bytearray(1)
        self._completed = 0
        self._catch_bound = self._catch          # bound once: feed() allocates nothing
        self.sysex = bytearray(sysex_size)
        self.sysex_count = 0          # bytes of the SysEx being read (more than fit: too long)
        self.on_sysex = None
        self.cut = 0
        self.too_long = 0
        self.realtime = 0             # real-time bytes read (a clock: 24 a beat)

    def feed_all(self, buf, count, sink):
        # Its locals and stack within 11 words (the count of data bytes kept on self): a MIDI
        # note's way to the LEDs calls it, and MicroPython allocates a bigger call frame on the
        # heap at every call (tests/host/test_call_frames.py).
        status = self.status
        i = 0
        while i < count:
            byte = buf[i]
            i += 1
            if byte >= 0xF8:                     # real time: anywhere, no effect
                self.realtime += 1
                continue
            if byte >= 0xF0:                     # system common, SysEx start or end
                status = self._system(byte, status)
                self._have = 0
            elif byte & 0x80:
                if status == SYSEX:
                    self.cut += 1                # a SysEx with no F7: dropped
                status = byte
                self._need = _DATA_BYTES[(byte >> 4) - 8]
                self._have = 0
            elif status == SYSEX:
                self._keep(byte)
            elif status:                         # (data without a status: skipped)
                if self._have == 0:
                    self.data1 = byte
                    self.data2 = 0
                else:
                    self.data2 = byte
                self._have += 1
                if self._have == self._need:
                    self._have = 0               # running status: the next byte starts anew
                    self.status = status
                    sink(status, self.data1, self.data2)
        self.status = status

    def _system(self, byte, status):
        """A system common byte (F0-F7) after `status`: the status it leaves (SYSEX inside a
        SysEx, else none)."""
        if status == SYSEX:
            if byte == SYSEX_END:
                self._end()
            else:
                self.cut += 1
        if byte == SYSEX:
            self.sysex_count = 0
            return SYSEX
        return 0

    def _keep(self, byte):
        at = self.sysex_count
        if at < len(self.sysex):
            self.sysex[at] = byte
        self.sysex_count = at + 1

    def _end(self):
        count = self.sysex_count
        if count > len(self.sysex):
            self.too_long += 1
        elif self.on_sysex is not None:
            self.on_sysex(self.sysex, count)

    def feed(self, byte):
        self._one[0] = byte
        self._completed = 0
        self.feed_all(self._one, 1, self._catch_bound)
        return self._completed

    def _catch(self, status, data1, data2):
        self._completed = status


class HeldNotes:
    """The notes sounding on the player's instrument: keys down, and keys let go while the
    sustain pedal is down, until it comes up. Notes at or above `split` are the melody and do
    not count. All channels count as one instrument.

    mask is the 12-bit set of the pitch classes sounding (bit 0: C); `changed` turns True
    when it, the lowest note or the pedal changed, and the reader clears it."""

    def __init__(self, split=NO_SPLIT):
        self._flags = bytearray(128)
        self._sounding = bytearray(12)           # sounding notes of each pitch class
        self.split = split
        self.pedal = False
        self.mask = 0
        self.changed = False

    def apply(self, status, data1, data2):
        """One channel message (a note-on with velocity 0 is a note-off); True when the
        notes sounding or the pedal changed."""
        kind = status & 0xF0
        if kind == NOTE_ON and data2:
            return self._press(data1)
        if kind == NOTE_OFF or kind == NOTE_ON:
            return self._let_go(data1)
        if kind == CONTROL_CHANGE:
            if data1 == SUSTAIN:
                return self._set_pedal(data2 >= 64)
            if data1 == ALL_NOTES_OFF or data1 == ALL_SOUND_OFF:
                return self.clear()
            if data1 == RESET_CONTROLLERS:
                return self._set_pedal(False)
        return False

    def set_split(self, split):
        """A new split point: the notes held so far are dropped (which side they were on
        changed)."""
        if split != self.split:
            self.split = split
            self.clear()

    def clear(self):
        """Nothing sounds (all-notes-off, or the player asked): True if something did."""
        had = self.mask != 0
        for note in range(128):
            self._flags[note] = 0
        for pc in range(12):
            self._sounding[pc] = 0
        self.mask = 0
        if had:
            self.changed = True
        return had

    def lowest(self):
        """The lowest note sounding (the bass), or -1."""
        flags = self._flags
        for note in range(128):
            if flags[note]:
                return note
        return -1

    def pcs(self):
        """The pitch classes sounding, from C up (allocates: for the mode's event)."""
        return [pc for pc in range(12) if self.mask >> pc & 1]

    def _press(self, note):
        if note >= self.split:
            return False
        flags = self._flags[note]
        self._flags[note] = _DOWN
        if flags:                                # sounding already (held by the pedal)
            return False
        return self._sound(note, 1)

    def _let_go(self, note):
        flags = self._flags[note]
        if not flags & _DOWN:
            return False
        if self.pedal:
            self._flags[note] = _SUSTAINED
            return False
        self._flags[note] = 0
        return self._sound(note, -1)

    def _set_pedal(self, down):
        if down == self.pedal:
            return False
        self.pedal = down
        self.changed = True
        if not down:
            for note in range(128):
                if self._flags[note] == _SUSTAINED:
                    self._flags[note] = 0
                    self._sound(note, -1)
        return True

    def _sound(self, note, change):
        """A note starts (+1) or stops (-1) sounding: the mask follows. Always True: the
        lowest note may have changed even when the pitch classes did not."""
        pc = note % 12
        count = self._sounding[pc] + change
        self._sounding[pc] = count
        if count:
            self.mask |= 1 << pc
        else:
            self.mask &= ~(1 << pc)
        self.changed = True
        return True


def voicing(codes, root_pc, octave, optional, notes):
    """A meld at a root as MIDI notes into `notes` (a bytearray of MAX_CHORD), lowest first;
    returns how many. A closed voicing: the root in `octave`, every other position in the
    octave above it, a position whose pitch class is taken already (the octave, 1 and 8) an
    octave higher. Optional positions only when `optional` is True."""
    base = octave_root(root_pc, octave)
    used = 0                                     # 24 bits: the two octaves above the root
    count = 0
    for code in codes:
        if degrees.is_optional(code) and not optional:
            continue
        step = degrees.semitones(code) % 12
        if used >> step & 1:
            step += 12
        if used >> step & 1 or base + step > 127 or count == len(notes):
            continue
        used |= 1 << step
        count += 1
    at = 0
    for step in range(24):                       # written out in order, lowest first
        if used >> step & 1:
            notes[at] = base + step
            at += 1
    return at


class ChordOut:
    """The chord the wheel sounds on `channel` (0-15): each change writes the note-offs that
    end the previous chord, then the new chord's note-ons, into one buffer made once. A
    change or a stop writes from `at` in `messages` and returns where it ended, so several
    may wait there to be sent together; one needs at most CHANGE_SIZE bytes."""

    CHANGE_SIZE = 2 * MAX_CHORD * MESSAGE

    def __init__(self, channel=0, size=2 * CHANGE_SIZE):
        self.channel = channel
        self.notes = bytearray(MAX_CHORD)        # sounding now
        self.count = 0
        self.messages = bytearray(size)

    def change(self, notes, count, at=0):
        """The chord becomes notes[:count]."""
        at = self._offs(at)
        for i in range(count):
            at = self._put(at, NOTE_ON, notes[i], VELOCITY)
            self.notes[i] = notes[i]
        self.count = count
        return at

    def stop(self, at=0):
        """Nothing sounds: the note-offs only (nothing written when nothing sounded)."""
        return self._offs(at)

    def _offs(self, at):
        for i in range(self.count):
            at = self._put(at, NOTE_OFF, self.notes[i], RELEASE)
        self.count = 0
        return at

    def _put(self, at, kind, note, velocity):
        m = self.messages
        m[at] = kind | self.channel
        m[at + 1] = note
        m[at + 2] = velocity
        return at + MESSAGE
