"""Console text shared by the modes: spelled roots and meld notes (docs/music.md's spelling)."""

from core.notes import format_note, note_pc, pc_names
from core.spelling import other_name, root_name, spell


def root_note(ctx, pc, codes):
    """The root's name for a meld, with the user's enharmonic toggle applied."""
    root = root_name(pc, codes)
    return other_name(root) if ctx.settings["other_root_name"] else root


def meld_notes(root, codes):
    """'C E G (Bb)': every degree spelled from the root, optional ones in parentheses."""
    notes = []
    for code in codes:
        name = format_note(spell(root, code))
        notes.append("(" + name + ")" if code & 0x80 else name)
    return " ".join(notes)


def ring_names(root, codes):
    """'3:E♭ 6:G♭ 10:B♭': each degree spelled from the root as meld_notes spells it, by
    its pitch class, with the display's signs (a mode's notes(): the page's ring labels)."""
    parts = []
    for code in codes:
        note = spell(root, code)
        parts.append("%d:%s" % (note_pc(note), format_note(note, True)))
    return " ".join(parts)


def meld_title(meldset, i, root):
    """'Eb minor triad (min)'."""
    return "%s %s (%s)" % (format_note(root), meldset.meld_name(i), meldset.meld_id(i))


def short_title(meldset, i, root):
    """'Eb minor triad (min)', or without the id when it is long ('C major pentatonic'): for
    the 16-column display."""
    ident = meldset.meld_id(i)
    title = "%s %s" % (format_note(root), meldset.meld_name(i))
    return title if len(ident) > 5 else "%s (%s)" % (title, ident)


def plain_names():
    """Every plain name of the 12 notes in wheel order: C, C#, Db, D, D#, Eb ... (17), for a
    knob that picks a note by name (the name fixes the letters spelled from it)."""
    names = []
    for pc in range(12):
        names.extend(pc_names(pc))
    return names

