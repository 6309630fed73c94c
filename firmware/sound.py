"""What the buzzer plays for a meld: its notes rising from the root as an arpeggio, then (for
intervals and chords) a strum, the notes rolled quickly three times, since a piezo sounds one
note at a time. A scale is played as a run up to its octave.

Pitches are equal-tempered with A4 = 440 Hz; the root sits in the octave from C4 (middle C,
261.63 Hz) to B4, and every degree sounds at its own distance above it ('9' an octave and a
step up). Frequencies are whole hertz, as PWM takes them."""

from core import degrees

ARPEGGIO_MS = 180
GAP_MS = 20              # a short rest between arpeggio notes, so repeated pitches are heard
STRUM_MS = 40
STRUMS = 3
SCALE_KIND = 2
ROOT_MIDI = 60           # C4


def frequency(midi):
    """Equal temperament, A4 (MIDI 69) = 440 Hz, rounded to whole hertz."""
    return int(440 * 2 ** ((midi - 69) / 12) + 0.5)


def meld_tones(meldset, index, root_pc):
    """[(freq_hz or 0 for a rest, ms), ...] for the meld at this root; optional notes too."""
    base = ROOT_MIDI + root_pc
    pitches = sorted(base + degrees.semitones(code) for code in meldset.meld_codes(index))
    scale = meldset.kind(index) == SCALE_KIND
    if scale and pitches[-1] - pitches[0] < 12:
        pitches.append(base + 12)                      # a run ends on the octave
    tones = []
    for midi in pitches:
        tones.append((frequency(midi), ARPEGGIO_MS))
        tones.append((0, GAP_MS))
    if not scale:
        for _ in range(STRUMS):
            for midi in pitches:
                tones.append((frequency(midi), STRUM_MS))
    return tones
