"""Listen: the notes a MIDI keyboard holds, on the wheel, named.

With MIDI in on (the `midi` setting `in` or `both`) the ring lights the pitch classes held
(white) at once; once they are read and make a meld of the set it shows that meld, as meld
check does with cards: its colours, the root marked, optional sectors not held dim. (The
reading waits until the LEDs show the notes: settle().) The console and the display name
every meld the notes make, the one whose root is the lowest note first (so C E G played over
an E in the bass reads "C major triad (maj) with E in the bass"), or, from two notes on, what
one more note completes. The sustain pedal holds what it holds. A click forgets the notes held
(a stuck note, a keyboard unplugged mid-chord); long press opens the menu."""

from core.identify import Identifier
from core.notes import format_note, pc_label

from firmware import modes
from firmware.modes.names import meld_title, ring_names, root_note
from firmware.modes.readings import names_in, one_more
from firmware.modes.table_paint import CARD, paint_sector
from firmware.render import paint_meld


class Mode(modes.Mode, modes.LightsNotes):

    def __init__(self, ctx):
        modes.Mode.__init__(self, ctx)
        self.pcs = []                   # the pitch classes held, from the bass up
        self.bass = -1                  # the lowest note's pitch class
        self.readings = []
        self.shown = None
        self.pending = False            # notes changed, not read yet: the ring shows them white
        self.set_changed()

    def set_changed(self):
        self.identifier = Identifier(self.ctx.meldset)
        self.on_notes()
        self.settle()

    # ---- events -------------------------------------------------------------------------

    def lights_notes(self):
        return self.ctx.held_notes() is not None

    def on_notes(self):
        """Notes changed: shown white at once (render), read once the LEDs show them."""
        self.pending = True

    def settle(self):
        """Read the notes held: the melds they make. True when the ring then shows more than
        the white notes (a meld's colours)."""
        if not self.pending:
            return False
        self.pending = False
        held = self.ctx.held_notes()
        lowest = held.lowest() if held is not None else -1
        self.bass = lowest % 12 if lowest >= 0 else -1
        pcs = held.pcs() if held is not None else []
        at = pcs.index(self.bass) if pcs else 0
        self.pcs = pcs[at:] + pcs[:at]
        readings = self.identifier.exact(self.pcs) if self.pcs else []
        # The reading whose root is in the bass first; then the set's order, then the root.
        readings.sort(key=lambda r: (r[1] != self.bass, r[0], r[1]))
        self.readings = readings
        self.shown = readings[0] if readings else None
        return self.shown is not None

    def on_click(self):
        held = self.ctx.held_notes()
        if held is not None and held.clear():
            self.on_notes()
            self.settle()

    # ---- the ring (allocates nothing) ---------------------------------------------------

    def render(self, frame):
        shown = self.shown
        if shown is not None and not self.pending:
            meldset = self.ctx.meldset
            i = shown[0]
            paint_meld(frame, meldset.required_mask(i), meldset.optional_mask(i), shown[1],
                       meldset.kind(i), self.ctx.settings["colours"])
            return
        held = self.ctx.held_notes()
        mask = held.mask if held is not None else 0
        for sector in range(12):
            paint_sector(frame, sector, CARD, 255 if mask >> sector & 1 else 0)

    # ---- the console --------------------------------------------------------------------

    def notes(self):
        self.settle()
        if self.shown is None:
            return None
        i, root_pc = self.shown
        codes = self.ctx.meldset.meld_codes(i)
        return ring_names(root_note(self.ctx, root_pc, codes), codes)

    def describe(self):
        self.settle()
        held = self.ctx.held_notes()
        if held is None:
            return "listen: MIDI in is off (menu > midi: in or both)"
        head = "listen (pedal)" if held.pedal else "listen"
        if not self.pcs:
            return head + ": no notes held (play them on a MIDI keyboard)"
        if not self.readings:
            return "%s: %s: no meld%s" % (head, " ".join(pc_label(pc) for pc in self.pcs),
                                          self._near())
        words = [self._title(i, root_pc) for i, root_pc in self.readings]
        i, root_pc = self.readings[0]
        return "%s: %s: %s" % (head, self._spelled(i, root_pc), " | ".join(words))

    def display(self):
        """The panel's shorter text: the notes, then the melds by root and id ('C maj')."""
        self.settle()
        if not self.readings:
            return self.describe()
        meldset = self.ctx.meldset
        i, root_pc = self.readings[0]
        parts = ["listen: " + self._spelled(i, root_pc)]
        for i, root_pc in self.readings:
            root = root_note(self.ctx, root_pc, meldset.meld_codes(i))
            part = "%s %s" % (format_note(root), meldset.meld_id(i))
            if root_pc != self.bass:
                part += " / " + self._name_in(i, root_pc, self.bass)
            parts.append(part)
        return "; ".join(parts)

    def _title(self, i, root_pc):
        meldset = self.ctx.meldset
        title = meld_title(meldset, i, root_note(self.ctx, root_pc, meldset.meld_codes(i)))
        if root_pc != self.bass:
            title += " with %s in the bass" % self._name_in(i, root_pc, self.bass)
        return title

    def _name_in(self, i, root_pc, pc):
        return names_in(self.ctx, i, root_pc)[pc]

    def _spelled(self, i, root_pc):
        """The notes held, from the bass up, named as the notes of the meld they make."""
        names = names_in(self.ctx, i, root_pc)
        return " ".join(names[pc] for pc in self.pcs)

    def _near(self):
        return one_more(self.ctx, self.identifier, self.pcs, "note completes")
