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


_TEXT_ALTER = {"bb": -2, "b": -1, "": 0, "#": 1, "##": 2}
_code_table = None


def code_table():
    """128 bytes, one a degree code without its optional bit: 0 where no vocabulary degree has
    that code, else 1 + its semitones above the root within the octave. Made once from the 23
    vocabulary degrees: a set's check at power-up reads it instead of spelling every byte."""
    global _code_table
    if _code_table is None:
        table = bytearray(128)
        for text in VOCABULARY:
            digits = 0
            while text[digits] in "b#":
                digits += 1
            code = encode(int(text[digits:]), _TEXT_ALTER[text[:digits]])
            table[code] = 1 + semitones(code) % 12
        _code_table = table
    return _code_table


def is_valid_code(code):
    """True when a byte read from a compiled meld set names a vocabulary degree."""
    num = code & 0x0F
    alt_bits = (code >> 4) & 0x07
    if num < 1 or num > 13 or alt_bits > 4:
        return False
    return to_text(code & 0x7F) in VOCABULARY
