"""Reading names that people type: notes ('C#', 'Db', 'E\u266d', 'F##', 'Fx', 'Bbb', any case)
and degrees ('b3', '#11'). Host tools and meld-set sources use it; the device never parses text.
"""

from core import degrees
from core.notes import LETTERS, note_pc

_NOTE_ACCIDENTALS = {
    "#": 1, "\u266f": 1, "b": -1, "\u266d": -1,
    "x": 2, "\U0001d12a": 2, "\U0001d12b": -2, "\u266e": 0,
}
_DEGREE_ACCIDENTALS = {"b": -1, "\u266d": -1, "#": 1, "\u266f": 1}


class NoteError(ValueError):
    """A note name that cannot be read."""


def parse_note(text):
    """'C#', 'Db', 'E\u266d', 'F##', 'Fx', 'Bbb', any case -> (letter, alter)."""
    if not isinstance(text, str):
        raise NoteError("a note name must be text, not %r" % (text,))
    name = text.strip()
    if not name:
        raise NoteError("empty note name")
    letter = LETTERS.find(name[0].upper())
    if letter < 0:
        raise NoteError("%r is not a note name (the letter must be A-G)" % text)
    alter = 0
    signs = 0
    for ch in name[1:]:
        step = _NOTE_ACCIDENTALS.get(ch.lower() if ch in "BX" else ch)
        if step is None:
            raise NoteError("%r is not a note name (unknown accidental %r)" % (text, ch))
        if alter and step and (alter > 0) != (step > 0):
            raise NoteError("%r is not a note name (mixes sharps and flats)" % text)
        alter += step
        signs += 1
    if alter < -2 or alter > 2:
        raise NoteError("%r is not a note name (at most a double accidental)" % text)
    if signs > 2 or (signs == 2 and abs(alter) != 2):
        raise NoteError("%r is not a note name (too many accidentals)" % text)
    return (letter, alter)


def pc_of(text):
    """Pitch class of a note name."""
    return note_pc(parse_note(text))


class DegreeError(ValueError):
    """A degree that is not in the vocabulary."""


def _read(text):
    """Accidentals then a number 1..13, or None when the text has another shape."""
    alt = 0
    i = 0
    while i < len(text) and text[i] in _DEGREE_ACCIDENTALS:
        alt += _DEGREE_ACCIDENTALS[text[i]]
        i += 1
    digits = text[i:]
    if not digits or not digits.isdigit() or len(digits) > 2:
        return None
    num = int(digits)
    if num < 1 or num > 13 or alt < -2 or alt > 2 or i > 2:
        return None
    return degrees.encode(num, alt)


def parse_degree(text):
    """'b3' -> code; raises DegreeError naming the text when it is not in the vocabulary."""
    if not isinstance(text, str):
        raise DegreeError("%r is not a degree (expected text such as 'b3')" % (text,))
    code = _read(text.strip())
    if code is None or degrees.to_text(code) not in degrees.VOCABULARY:
        raise DegreeError("%r is not a degree" % text)
    return code
