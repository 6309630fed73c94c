"""Console text for the modes that read notes as melds (meld check's cards, listen's keys):
the notes named as the meld they make, and what one more note would make. A module of its
own, loaded only with those modes."""

from core import degrees
from core.notes import format_note, pc_label
from core.spelling import spell

from firmware.modes.names import meld_title, root_note

NEAR_SHOWN = 3            # one-short readings named on the console


def names_in(ctx, i, root_pc):
    """{pitch class: its name} for meld `i` at this root: the notes of cards or keys, named as
    the notes of the meld they make (docs/music.md's spelling)."""
    codes = ctx.meldset.meld_codes(i)
    root = root_note(ctx, root_pc, codes)
    names = {}
    for code in codes:
        names[(root_pc + degrees.semitones(code)) % 12] = format_note(spell(root, code))
    return names


def one_more(ctx, identifier, pcs, what):
    """'; one more card builds C added ninth (add9) with G, ... and 6 more' (`what`: 'card
    builds', 'note completes'), or '' (under two notes: nearly every interval, no help)."""
    if len(pcs) < 2:
        return ""
    near = identifier.near(pcs)
    if not near:
        return ""
    meldset = ctx.meldset
    words = []
    for i, root_pc, extra in near[:NEAR_SHOWN]:
        root = root_note(ctx, root_pc, meldset.meld_codes(i))
        words.append("%s with %s" % (meld_title(meldset, i, root), pc_label(extra)))
    more = len(near) - NEAR_SHOWN
    return "; one more %s %s%s" % (what, ", ".join(words),
                                   " and %d more" % more if more > 0 else "")
