"""Checking NOTE cards against a meld: valid or not, and why.

Cards map one-to-one onto the meld's positions (docs/music.md): every required position takes
exactly one card of its pitch class, an optional position one card or none, and no card is
left over. Cards are a multiset of pitch classes, so the octave takes two cards of one note.
"""

from core import degrees
from core.games.carmony_table import meld_points
from core.notes import format_note, note_pc, pc_label
from core.spelling import spell


class CheckResult:
    """valid, reason ('' when valid), root (a note) and root_pc, placed (per card: pc, degree
    code or None), optional_used (codes), points, roots (every pc the cards build it at)."""

    def __init__(self, meld, cards):
        self.meld = meld
        self.cards = list(cards)
        self.valid = False
        self.reason = ""
        self.root = None
        self.root_pc = None
        self.placed = []
        self.optional_used = []
        self.points = 0
        self.roots = []


def _fit(meld, cards, root_pc):
    """Place `cards` (pcs) at root_pc: (placed, optional_used, problems)."""
    positions = [(code, (root_pc + degrees.semitones(code)) % 12) for code in meld.codes]
    taken = [False] * len(positions)
    placed = []
    extra = []
    for pc in cards:
        slot = -1
        # A required position first, so an optional one is used only when needed.
        for want_optional in (False, True):
            for k in range(len(positions)):
                code, at = positions[k]
                if (not taken[k] and at == pc
                        and degrees.is_optional(code) == want_optional):
                    slot = k
                    break
            if slot >= 0:
                break
        if slot < 0:
            placed.append((pc, None))
            extra.append(pc)
        else:
            taken[slot] = True
            placed.append((pc, positions[slot][0]))
    problems = []
    optional_used = []
    for k in range(len(positions)):
        code, at = positions[k]
        if taken[k] and degrees.is_optional(code):
            optional_used.append(code)
        elif not taken[k] and not degrees.is_optional(code):
            problems.append(("missing", code, at))
    for pc in extra:
        on_meld = False
        for _, at in positions:
            if at == pc:
                on_meld = True
        problems.append(("extra" if on_meld else "outside", None, pc))
    return placed, optional_used, problems


def _describe(meld, root, problems):
    words = []
    for what, code, pc in problems:
        if what == "missing":
            words.append("missing degree %s (%s)" % (
                degrees.to_text(code), format_note(spell(root, code))))
        elif what == "extra":
            words.append("extra card %s (its position already has a card)" % _name_at(
                meld, root, pc))
        else:
            words.append("card %s has no position in the meld" % pc_label(pc))
    return "; ".join(words)


def _name_at(meld, root, pc):
    for code in meld.codes:
        if (note_pc(root) + degrees.semitones(code)) % 12 == pc:
            return format_note(spell(root, code))
    return pc_label(pc)


def check(meld, cards, root=None):
    """Do `cards` (pitch classes) build `meld`? root: a note to insist on, else any root.

    Without a root, the reading that keeps the first card on position 1 is preferred (a
    player lays the root first), then the lowest pitch class; an invalid result explains the
    root that comes closest."""
    result = CheckResult(meld, cards)
    if not result.cards:
        result.reason = "no cards"
        return result
    if root is not None:
        candidates = [note_pc(root)]
    else:
        candidates = []
        for pc in result.cards:
            if pc not in candidates:
                candidates.append(pc)
        for pc in range(12):
            if pc not in candidates:
                candidates.append(pc)
    best = None
    for pc in candidates:
        placed, optional_used, problems = _fit(meld, result.cards, pc)
        if not problems:
            result.roots.append(pc)
        if best is None or len(problems) < len(best[3]):
            best = (pc, placed, optional_used, problems)
    result.roots.sort()
    pc, placed, optional_used, problems = best
    result.root_pc = pc
    result.root = root if root is not None else meld.root_name(pc)
    result.placed = placed
    result.optional_used = optional_used
    if problems:
        result.reason = _describe(meld, result.root, problems)
    else:
        result.valid = True
        result.points = meld_points(meld, len(result.cards))
    return result
