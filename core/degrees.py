"""Degrees: the numbers (with accidentals) printed on the meld cards.

A degree is encoded in one byte so that melds stay compact on the device:
bits 0-3 the number (1..13), bits 4-6 the alteration + 2, bit 7 "optional" (set by melds).
"""

# docs/music.md's vocabulary; '#2' is printed on no card but is accepted.
VOCABULARY = ("1", "b2", "2", "#2", "b3", "3", "4", "#4", "b5", "5", "#5", "b6", "6",
              "bb7", "b7", "7", "8", "b9", "9", "#9", "11", "#11", "13")

# Semitones of the plain (major-scale) degree 1..13; 8..13 are 1..6 an octave up.
_PLAIN_SEMITONES = (0, 2, 4, 5, 7, 9, 11, 12, 14, 16, 17, 19, 21)
_ALTER_TEXT = {-2: "bb", -1: "b", 0: "", 1: "#", 2: "##"}
OPTIONAL = 0x80


def encode(number, alter):
    return number | ((alter + 2) << 4)


def number(code):
    return code & 0x0F


def alter(code):
    return ((code >> 4) & 0x07) - 2


def is_optional(code):
    return bool(code & OPTIONAL)


def semitones(code):
    """Semitones above the root (not reduced to an octave: '9' is 14)."""
    return _PLAIN_SEMITONES[number(code) - 1] + alter(code)


def to_text(code):
    return _ALTER_TEXT[alter(code)] + str(number(code))
