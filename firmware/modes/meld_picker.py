"""A MELD card picked by kind and size: the knob walks the groups (intervals up to the tritone
and from the fifth, chords of 2-3, 4, 5 and 6-7 notes, scales of 5-6 and of 7 or more notes;
those of the set that hold a meld), a click opens one, the knob walks its melds, a click picks
one. A double press goes back to the groups; the mode decides what a long press does (the hand
mode: back, or "no card"). Both steps wrap around, so a card is the group's distance plus the
meld's either way: a card of the default set in 5.5 actions on average (detents and presses,
each of the deck's 84 cards once; make bench prints it), where walking the set's 60 melds took
up to 30 detents.

The ring shows the groups in their kind's colour (one sector a group, the one under the knob
full), then the meld at the root given (C by default) as on the card."""

from core import degrees

from firmware.modes.table_paint import paint_kind
from firmware.render import DIM_LEVEL, clear

# (name, kind, the fewest positions, the most; for intervals the semitones instead)
GROUPS = (("intervals m2 to TT", 0, 1, 6), ("intervals P5 to P8", 0, 7, 12),
          ("chords of 2-3 notes", 1, 2, 3), ("chords of 4 notes", 1, 4, 4),
          ("chords of 5 notes", 1, 5, 5), ("chords of 6-7 notes", 1, 6, 7),
          ("scales of 5-6 notes", 2, 5, 6), ("scales of 7-12 notes", 2, 7, 12))
ROOT_WHITE = 230


def _group(meldset, i):
    """The index in GROUPS of meld i."""
    kind = meldset.kind(i)
    codes = meldset.meld_codes(i)
    size = degrees.semitones(codes[-1]) if kind == 0 else len(codes)
    for g in range(len(GROUPS)):
        name, of_kind, low, high = GROUPS[g]
        if of_kind == kind and low <= size <= high:
            return g
    return len(GROUPS) - 1 if kind == 2 else 5 if kind == 1 else 1


def groups_of(meldset):
    """The groups the set has melds in: [(name, [meld indexes in the set's order])]."""
    found = [[] for _ in GROUPS]
    for i in range(meldset.count):
        found[_group(meldset, i)].append(i)
    return [(GROUPS[g][0], found[g], GROUPS[g][1]) for g in range(len(GROUPS)) if found[g]]


def place(groups, i):
    """(group, place in it) of meld i among groups_of()."""
    for g in range(len(groups)):
        if i in groups[g][1]:
            return g, groups[g][1].index(i)
    raise ValueError(i)


def actions_to_pick(groups, i):
    """The detents and presses from the picker's start to meld i: the group's distance, a
    click, the meld's distance in its group, a click (each the shorter way round)."""
    g, at = place(groups, i)
    melds = groups[g][1]
    return min(g, len(groups) - g) + 1 + min(at, len(melds) - at) + 1


class Picker:
    """The picker's state: `group` (None: choosing a group), `at` (the group's meld under the
    knob), `root` (where the ring shows the meld)."""

    def __init__(self, meldset, groups, root=0):
        self.meldset = meldset
        self.groups = groups
        self.root = root
        self.choice = 0           # the group under the knob
        self.group = None
        self.at = 0

    def turn(self, steps):
        if self.group is None:
            self.choice = (self.choice + steps) % len(self.groups)
        else:
            self.at = (self.at + steps) % len(self.groups[self.group][1])

    def click(self):
        """A click: the group opened (None), or the meld picked (its index)."""
        if self.group is None:
            self.group = self.choice
            self.at = 0
            return None
        return self.groups[self.group][1][self.at]

    def back(self):
        """Back to the groups: False when already there."""
        if self.group is None:
            return False
        self.group = None
        return True

    def shown(self):
        """The meld under the knob, or None while choosing a group."""
        return None if self.group is None else self.groups[self.group][1][self.at]

    def text(self):
        i = self.shown()
        if i is None:
            name, melds, _ = self.groups[self.choice]
            return "%s (%d)" % (name, len(melds))
        return "%d/%d %s" % (self.at + 1, len(self.groups[self.group][1]),
                             self.meldset.meld_id(i))

    def render(self, frame):
        clear(frame)
        i = self.shown()
        if i is None:
            for g in range(len(self.groups)):
                paint_kind(frame, g, self.groups[g][2], 255 if g == self.choice else DIM_LEVEL)
            return
        kind = self.meldset.kind(i)
        for code in self.meldset.meld_codes(i):
            pc = (self.root + degrees.semitones(code)) % 12
            paint_kind(frame, pc, kind, DIM_LEVEL if code & degrees.OPTIONAL else 255,
                       ROOT_WHITE if pc == self.root else 0)
