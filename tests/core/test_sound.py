"""What the buzzer plays for a meld, worked out by hand: equal temperament, A4 = 440 Hz,
f = 440 * 2**((midi - 69) / 12), rounded to whole hertz; the root in the octave C4-B4."""

from core.melds import index_of

from expect import default_set
from firmware.sound import ARPEGGIO_MS, GAP_MS, STRUM_MS, STRUMS, frequency, meld_tones


def test_reference_pitches():
    assert frequency(69) == 440          # A4
    assert frequency(57) == 220          # A3
    assert frequency(81) == 880          # A5
    assert frequency(60) == 262          # C4: 261.63
    assert frequency(61) == 277          # C#4: 277.18
    assert frequency(64) == 330          # E4: 329.63
    assert frequency(67) == 392          # G4: 392.00
    assert frequency(70) == 466          # A#4: 466.16
    assert frequency(72) == 523          # C5: 523.25


def _arpeggio(tones, n):
    return [tones[2 * i][0] for i in range(n)]


def test_c_major_triad_arpeggio_then_strum():
    ms = default_set()
    tones = meld_tones(ms, index_of(ms, "maj"), 0)
    assert _arpeggio(tones, 3) == [262, 330, 392]
    assert tones[:6] == [(262, ARPEGGIO_MS), (0, GAP_MS), (330, ARPEGGIO_MS), (0, GAP_MS),
                         (392, ARPEGGIO_MS), (0, GAP_MS)]
    assert tones[6:] == [(262, STRUM_MS), (330, STRUM_MS), (392, STRUM_MS)] * STRUMS


def test_rising_from_a_b_root_crosses_the_octave():
    # B4 = 493.88, D#5 = 622.25, F#5 = 739.99.
    ms = default_set()
    tones = meld_tones(ms, index_of(ms, "maj"), 11)
    assert _arpeggio(tones, 3) == [494, 622, 740]


def test_optional_notes_sound_and_a_ninth_is_above_the_octave():
    # C dominant ninth: C4 E4 (G4) Bb4 D5 = 262 330 392 466 587.
    ms = default_set()
    i = index_of(ms, "9")
    tones = meld_tones(ms, i, 0)
    assert _arpeggio(tones, 5) == [262, 330, 392, 466, 587]


def test_an_interval_is_its_two_notes():
    # A perfect fifth on A: A4 and E5 (659.26).
    ms = default_set()
    tones = meld_tones(ms, index_of(ms, "P5"), 9)
    assert _arpeggio(tones, 2) == [440, 659]
    assert len(tones) == 4 + 2 * STRUMS


def test_a_scale_is_a_run_up_to_its_octave_without_a_strum():
    # D major: D4 E4 F#4 G4 A4 B4 C#5 D5 = 294 330 370 392 440 494 554 587.
    ms = default_set()
    tones = meld_tones(ms, index_of(ms, "major"), 2)
    assert _arpeggio(tones, 8) == [294, 330, 370, 392, 440, 494, 554, 587]
    assert len(tones) == 16
