"""Degrees: the numbers (with accidentals) printed on the meld cards.

A degree is encoded in one byte so that melds stay compact on the device:
bits 0-3 the number (1..13), bits 4-6 the alteration + 2, bit 7 "optional" (set by melds).
"""

# MUSIC.md's vocabulary; '#2' is printed on no card but is accepted.
VOCABULARY = ("1", "b2", "2", "#2", "b3", "3", "4", "#4", "b5", "5", "#5", "b6", "6",
              "bb7", "b7", "7", "8", "b9", "9", "#9", "11", "#11", "13")

# Semitones of the plain (major-scale) degree 1..13; 8..13 are 1..6 an octave up.
_PLAIN_SEMITONES = (0, 2, 4, 5, 7, 9, 11, 12, 14, 16, 17, 19, 21)
_ALTER_TEXT = {-2: "bb", -1: "b", 0: "", 1: "#", 2: "##"}
_ALTER_INPUT = {"b": -1, "\u266d": -1, "#": 1, "\u266f": 1}
OPTIONAL = 0x80


class DegreeError(ValueError):
    """A degree that is not in the vocabulary."""


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


def _read(text):
    """Accidentals then a number 1..13, or None when the text has another shape."""
    alt = 0
    i = 0
    while i < len(text) and text[i] in _ALTER_INPUT:
        alt += _ALTER_INPUT[text[i]]
        i += 1
    digits = text[i:]
    if not digits or not digits.isdigit() or len(digits) > 2:
        return None
    num = int(digits)
    if num < 1 or num > 13 or alt < -2 or alt > 2 or i > 2:
        return None
    return encode(num, alt)


def parse(text):
    """'b3' -> code; raises DegreeError naming the text when it is not in the vocabulary."""
    if not isinstance(text, str):
        raise DegreeError("%r is not a degree (expected text such as 'b3')" % (text,))
    code = _read(text.strip())
    if code is None or to_text(code) not in VOCABULARY:
        raise DegreeError("%r is not a degree" % text)
    return code


def is_valid_code(code):
    """True when a byte read from a compiled meld set names a vocabulary degree."""
    num = code & 0x0F
    alt_bits = (code >> 4) & 0x07
    if num < 1 or num > 13 or alt_bits > 4:
        return False
    return to_text(code & 0x7F) in VOCABULARY
