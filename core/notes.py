"""Note names and pitch classes.

A note is a (letter, alter) pair: letter 0..6 for C D E F G A B, alter -2..2 (flats negative).
A pitch class is 0..11 with 0 = C. Spelled names matter (Cdim7 has Bbb, not A), so notes keep
their letter; the wheel and the NOTE cards only know pitch classes.
"""

LETTERS = "CDEFGAB"
NATURAL_PC = (0, 2, 4, 5, 7, 9, 11)

# Display forms; input accepts all of them plus 'x' for a double sharp.
ASCII_ACCIDENTALS = {-2: "bb", -1: "b", 0: "", 1: "#", 2: "##"}
UNICODE_ACCIDENTALS = {-2: "\U0001d12b", -1: "\u266d", 0: "", 1: "\u266f", 2: "\U0001d12a"}
_INPUT_ALTER = {
    "#": 1, "\u266f": 1, "b": -1, "\u266d": -1,
    "x": 2, "\U0001d12a": 2, "\U0001d12b": -2, "\u266e": 0,
}


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
        step = _INPUT_ALTER.get(ch.lower() if ch in "BX" else ch)
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


def note_pc(note):
    return (NATURAL_PC[note[0]] + note[1]) % 12


def format_note(note, unicode=False):
    """ASCII for data, JSON and the command line; Unicode for displays."""
    alter = note[1]
    table = UNICODE_ACCIDENTALS if unicode else ASCII_ACCIDENTALS
    if alter in table:
        return LETTERS[note[0]] + table[alter]
    # Beyond a double accidental (only reachable through the enharmonic toggle): repeat signs.
    sign = table[1] if alter > 0 else table[-1]
    return LETTERS[note[0]] + sign * abs(alter)


def pc_of(text):
    """Pitch class of a note name."""
    return note_pc(parse_note(text))


def is_black_key(pc):
    return NATURAL_PC.count(pc % 12) == 0


def pc_names(pc):
    """Every plain name of a pitch class: one for a white key, two (sharp, flat) for a black key."""
    pc %= 12
    if not is_black_key(pc):
        return ((NATURAL_PC.index(pc), 0),)
    return ((NATURAL_PC.index(pc - 1), 1), (NATURAL_PC.index((pc + 1) % 12), -1))
