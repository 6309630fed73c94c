"""Note names and pitch classes.

A note is a (letter, alter) pair: letter 0..6 for C D E F G A B, alter -2..2 (flats negative).
A pitch class is 0..11 with 0 = C. Spelled names matter (Cdim7 has Bbb, not A), so notes keep
their letter; the wheel and the NOTE cards only know pitch classes.
"""

LETTERS = "CDEFGAB"
NATURAL_PC = (0, 2, 4, 5, 7, 9, 11)

# Display forms (core/parse.py reads them all, plus 'x' for a double sharp).
ASCII_ACCIDENTALS = {-2: "bb", -1: "b", 0: "", 1: "#", 2: "##"}
UNICODE_ACCIDENTALS = {-2: "\U0001d12b", -1: "\u266d", 0: "", 1: "\u266f", 2: "\U0001d12a"}


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


def is_black_key(pc):
    return NATURAL_PC.count(pc % 12) == 0


def pc_names(pc):
    """Every plain name of a pitch class: one for a white key, two (sharp, flat) for a black key."""
    pc %= 12
    if not is_black_key(pc):
        return ((NATURAL_PC.index(pc), 0),)
    return ((NATURAL_PC.index(pc - 1), 1), (NATURAL_PC.index((pc + 1) % 12), -1))


def pc_label(pc):
    """A pitch class by its plain names, for a card with no spelling context: 'C#/Db', 'E'."""
    return "/".join(format_note(n) for n in pc_names(pc))
