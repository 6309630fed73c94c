"""Spelling: the letter follows the degree number (docs/music.md, the rulebook's appendix).

Degree n takes the letter n-1 steps after the root's letter; its accidental is whatever makes
that letter sound the degree's pitch class. No fixed semitone-to-name table is used: that is the
classic source of wrong spellings (C-C# for a minor second, A for the bb7 of Cdim7).
"""

from core import degrees
from core.notes import NATURAL_PC, note_pc, pc_names


def spell(root, code):
    """The note of degree `code` above `root` (a (letter, alter) pair)."""
    letter = (root[0] + degrees.number(code) - 1) % 7
    target = (note_pc(root) + degrees.semitones(code)) % 12
    alter = (target - NATURAL_PC[letter]) % 12
    if alter > 6:
        alter -= 12
    return (letter, alter)


def spell_all(root, codes):
    return [spell(root, code) for code in codes]


def _cost(root, codes):
    doubles = 0
    accidentals = 0
    for code in codes:
        alter = spell(root, code)[1]
        if alter:
            accidentals += 1
            if alter > 1 or alter < -1:
                doubles += 1
    return (doubles, accidentals)


def root_name(pc, codes):
    """The name of a root for a meld: fewest double accidentals, then fewest accidentals;
    a tie prefers the flat name, except F# (Db, Eb, F#, Ab, Bb)."""
    names = pc_names(pc)
    if len(names) == 1:
        return names[0]
    sharp, flat = names
    sharp_cost = _cost(sharp, codes)
    flat_cost = _cost(flat, codes)
    if sharp_cost < flat_cost:
        return sharp
    if flat_cost < sharp_cost:
        return flat
    return sharp if pc % 12 == 6 else flat


def other_name(root):
    """The enharmonic toggle: the other plain name of a black-key root (white keys keep theirs)."""
    for name in pc_names(note_pc(root)):
        if name != root:
            return name
    return root
