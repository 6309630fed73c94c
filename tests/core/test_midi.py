"""core/midi.py: the byte parser, the notes held, a meld as notes. Cases worked out by hand from
the MIDI 1.0 specification (running status, real-time bytes, note-on velocity 0, CC 64, 120,
121, 123) and docs/music.md's degrees (C4 = 60)."""

from core import midi

from expect import default_set

C4, E4, G4, C5, B3, C3 = 60, 64, 67, 72, 59, 48


def parse(data):
    """Every message as (status, data1, data2)."""
    parser = midi.Parser()
    out = []
    for byte in data:
        status = parser.feed(byte)
        if status:
            out.append((status, parser.data1, parser.data2))
    return out


def held(*messages, split=midi.NO_SPLIT):
    notes = midi.HeldNotes(split)
    for message in messages:
        notes.apply(*message)
    return notes


def on(note, velocity=100, channel=0):
    return (0x90 | channel, note, velocity)


def off(note, channel=0):
    return (0x80 | channel, note, 64)


def pedal(down):
    return (0xB0, 64, 127 if down else 0)


def mask(*pcs):
    value = 0
    for pc in pcs:
        value |= 1 << pc
    return value


# ---- the parser ---------------------------------------------------------------------------

def test_a_note_on_and_running_status():
    assert parse(b"\x90\x3c\x64") == [(0x90, 60, 100)]
    # Running status: 90 3C 64, then 40 64 and 43 64 with the same status.
    assert parse(b"\x90\x3c\x64\x40\x64\x43\x64") == [(0x90, 60, 100), (0x90, 64, 100),
                                                     (0x90, 67, 100)]


def test_real_time_bytes_between_data_bytes_change_nothing():
    # Timing clock (F8) and active sensing (FE) inside a message, and a start (FA) between two.
    assert parse(b"\x91\xf8\x3c\xfe\x64\xfa\x3c\x00") == [(0x91, 60, 100), (0x91, 60, 0)]


def test_sysex_and_system_common_end_running_status():
    # A SysEx (F0 ... F7) then data bytes with no status: skipped; a song select (F3 01) too.
    assert parse(b"\x90\x3c\x64\xf0\x7e\x01\x02\xf7\x3c\x64\xf3\x01\x80\x3c\x40") == [
        (0x90, 60, 100), (0x80, 60, 64)]


def test_one_data_byte_messages_and_a_stray_data_byte():
    # Data before any status is skipped; a program change has one data byte (data2 0).
    assert parse(b"\x3c\x64\xc2\x05\x06\xd0\x40") == [(0xC2, 5, 0), (0xC2, 6, 0), (0xD0, 64, 0)]


def test_a_status_byte_cuts_a_message_short():
    assert parse(b"\x90\x3c\x80\x3c\x40") == [(0x80, 60, 64)]


def sysex(chunks, size=8):
    """(SysEx messages handed over, channel messages, the parser) for `chunks` fed in turn."""
    parser = midi.Parser(size)
    whole = []
    parser.on_sysex = lambda data, count: whole.append(bytes(data[:count]))
    messages = []
    for chunk in chunks:
        parser.feed_all(chunk, len(chunk), lambda *m: messages.append(m))
    return whole, messages, parser


def test_a_sysex_is_handed_over_whole_with_real_time_bytes_inside_it():
    # F0 7D 01 02 03 F7, a clock (F8) and an active sensing (FE) inside: 7D 01 02 03.
    whole, messages, parser = sysex([b"\x90\x3c\x64\xf0\x7d\x01\xf8\x02\xfe\x03\xf7"
                                     b"\x90\x40\x64"])
    assert whole == [b"\x7d\x01\x02\x03"]
    assert messages == [(0x90, 60, 100), (0x90, 64, 100)] and parser.cut == 0
    assert parser.realtime == 2


def test_a_sysex_may_come_in_pieces():
    whole, _, _ = sysex([b"\xf0\x7d", b"\x01", b"\x02\xf7"])
    assert whole == [b"\x7d\x01\x02"]


def test_a_sysex_cut_in_half_is_dropped_and_counted():
    # A note-on before the F7 (a cable pulled mid-message, then a synth's note): the SysEx is
    # dropped, the note read; a second F0 before the F7 drops the first and reads the second.
    whole, messages, parser = sysex([b"\xf0\x7d\x01\x02\x90\x3c\x64\xf0\x7d\x05\xf0\x7d"
                                     b"\x06\xf7"])
    assert whole == [b"\x7d\x06"] and messages == [(0x90, 60, 100)]
    assert parser.cut == 2 and parser.too_long == 0
    # A system common byte (song select) cuts one too; an F7 alone hands nothing over.
    whole, _, parser = sysex([b"\xf0\x7d\x01\xf3\x01\xf7\xf7"])
    assert whole == [] and parser.cut == 1


def test_a_sysex_longer_than_the_buffer_is_dropped_and_counted():
    whole, messages, parser = sysex([b"\xf0" + bytes(range(9)) + b"\xf7\xf0\x01\xf7\x80\x3c\x40"],
                                    size=8)
    assert whole == [b"\x01"] and parser.too_long == 1 and parser.cut == 0
    assert messages == [(0x80, 60, 64)]


# ---- the notes held -------------------------------------------------------------------------

def test_a_triad_held_and_let_go():
    notes = held(on(C4), on(E4), on(G4))
    assert notes.mask == mask(0, 4, 7) and notes.lowest() == C4 and notes.pcs() == [0, 4, 7]
    notes.apply(*off(E4))
    assert notes.mask == mask(0, 7)
    notes.apply(*on(G4, velocity=0))              # a note-on with velocity 0 is a note-off
    assert notes.mask == mask(0) and notes.lowest() == C4


def test_the_same_pitch_class_in_two_octaves():
    notes = held(on(C3), on(C4), on(G4))
    notes.apply(*off(C4))
    assert notes.mask == mask(0, 7) and notes.lowest() == C3
    notes.apply(*off(C3))
    assert notes.mask == mask(7) and notes.lowest() == G4


def test_channels_count_as_one_instrument():
    notes = held(on(C4, channel=0), on(E4, channel=9))
    assert notes.mask == mask(0, 4)
    notes.apply(*off(C4, channel=3))
    assert notes.mask == mask(4)


def test_the_sustain_pedal_holds_what_is_let_go_until_it_comes_up():
    notes = held(on(C4), on(E4), pedal(True), off(C4), off(E4), on(G4))
    assert notes.mask == mask(0, 4, 7)
    notes.apply(*on(E4))                          # struck again while sustained
    notes.apply(0xB0, 64, 63)                     # 63: the pedal is up
    assert notes.mask == mask(4, 7) and notes.lowest() == E4
    assert not notes.pedal


def test_a_key_still_down_when_the_pedal_comes_up_keeps_sounding():
    notes = held(pedal(True), on(C4), pedal(False))
    assert notes.mask == mask(0)
    notes.apply(*off(C4))
    assert notes.mask == 0


def test_all_notes_off_and_reset_controllers():
    notes = held(on(C4), pedal(True), off(C4), on(G4))
    assert notes.apply(0xB0, 123, 0) and notes.mask == 0 and notes.lowest() == -1
    notes.apply(*on(E4))
    notes.apply(*off(E4))                         # the pedal is still down: E sounds
    assert notes.mask == mask(4)
    assert notes.apply(0xB0, 121, 0)              # reset all controllers: the pedal comes up
    assert notes.mask == 0
    notes = held(on(C4), on(E4))
    assert notes.apply(0xB0, 120, 0) and notes.mask == 0      # all sound off


def test_a_split_point_keeps_the_melody_out():
    notes = held(on(C3), on(E4), on(C5), split=C5)
    assert notes.mask == mask(0, 4) and notes.lowest() == C3
    notes.apply(*off(C5))
    assert notes.mask == mask(0, 4)
    notes.set_split(midi.NO_SPLIT)                # what was held is dropped
    assert notes.mask == 0


def test_changed_says_when_the_notes_sounding_changed():
    notes = midi.HeldNotes()
    notes.apply(0xE0, 0, 64)                      # pitch bend: nothing
    assert not notes.changed
    notes.apply(*on(C4))
    assert notes.changed
    notes.changed = False
    notes.apply(*on(C4))                          # already down
    notes.apply(*(0xB0, 64, 0))                   # the pedal up already
    assert not notes.changed
    assert notes.apply(*pedal(True)) and notes.changed      # the pedal went down
    notes.changed = False
    notes.apply(*on(C3))                          # the same pitch class, a new bass
    assert notes.changed and notes.lowest() == C3


# ---- a meld as notes ------------------------------------------------------------------------

def codes_of(ident):
    meldset = default_set()
    for i in range(meldset.count):
        if meldset.meld_id(i) == ident:
            return meldset.meld_codes(i)
    raise AssertionError("no meld " + ident)


def voiced(ident, root_pc, octave=4, optional=False):
    notes = bytearray(midi.MAX_CHORD)
    count = midi.voicing(codes_of(ident), root_pc, octave, optional, notes)
    return list(notes[:count])


def test_a_closed_voicing_from_the_root():
    assert voiced("maj", 0) == [60, 64, 67]                 # C E G
    assert voiced("min", 3) == [63, 66, 70]                 # Eb Gb Bb
    assert voiced("maj", 9, octave=3) == [57, 61, 64]       # A3 C#4 E4
    assert voiced("P8", 2) == [62, 74]                      # the octave: D4 and D5


def test_optional_positions_by_the_setting():
    # The dominant seventh's 5 is optional (docs/music.md): 1 3 (5) b7.
    assert voiced("7", 7) == [67, 71, 77]                   # G B F
    assert voiced("7", 7, optional=True) == [67, 71, 74, 77]


def test_a_ninth_is_closed_into_the_octave():
    assert voiced("maj9", 0, optional=True) == [60, 62, 64, 67, 71]      # C D E G B
    assert voiced("maj9", 0) == [60, 62, 64, 71]                         # without the (5)
    assert voiced("chromatic", 0) == list(range(60, 72))


def test_notes_above_127_are_left_out():
    assert voiced("maj", 7, octave=9) == [127]              # G9 = 127; B9 and D10 do not exist


def test_a_chord_change_ends_the_previous_chord_first():
    out = midi.ChordOut()
    assert out.stop() == 0
    n = out.change(bytes((60, 64, 67)), 3)
    assert bytes(out.messages[:n]) == bytes((0x90, 60, 100, 0x90, 64, 100, 0x90, 67, 100))
    n = out.change(bytes((62, 65, 69)), 3)
    assert bytes(out.messages[:n]) == bytes((0x80, 60, 64, 0x80, 64, 64, 0x80, 67, 64,
                                             0x90, 62, 100, 0x90, 65, 100, 0x90, 69, 100))
    n = out.stop()
    assert bytes(out.messages[:n]) == bytes((0x80, 62, 64, 0x80, 65, 64, 0x80, 69, 64))
    assert out.stop() == 0


def test_a_twelve_note_scale_fits():
    out = midi.ChordOut(channel=15)
    notes = bytes(range(60, 72))
    out.change(notes, 12)
    n = out.change(notes, 12)
    assert n == 24 * 3 and out.messages[0] == 0x8F and out.messages[36] == 0x9F
