"""Chord Poker at the table: what the chord on the Wheel still needs, and what a root change does.

Steps, each with the same three controls:
  chord   turn: the CHORD card                click: keep it       (the ring: the chord at C)
  root    turn: the root (the first NOTE)     click: keep it       double: back to the chord
  wheel   turn: a cursor                      click: a card placed on / taken off its sector
          double: preview a root change to the cursor's note (its sector must be free)
  preview turn: another new root              click: change the root   double: cancel
The ring in the wheel step: cards placed green (the root whitened), required notes still
missing orange, optional ones dim orange. In the preview, the cards that stay are green and
those that go back to the hand red. Once every required note is placed the chord is complete
(5 points); a click then starts the next chord. The rules are the engine's own
(core/games/chord_poker_table.py)."""

from core import degrees
from core.games.chord_poker_table import CHORD_POINTS, chord_sectors, going_back, is_complete
from core.notes import format_note, pc_label
from core.spelling import spell

from firmware import modes
from firmware.modes.names import meld_title, root_note, short_title
from firmware.render import (GOING, MISSING, PLACED, ROOT_WHITE, OPTIONAL_LEVEL, clear,
                             paint_cursor, paint_meld, paint_sector)

CHORD = 1                 # the meld kind


class Mode(modes.Mode):

    def __init__(self, ctx):
        modes.Mode.__init__(self, ctx)
        self.position = 0
        self.set_changed()

    def set_changed(self):
        self.chords = self.ctx.meldset.of_kind(CHORD)
        self.position %= max(1, len(self.chords))
        self.step = "chord"
        self.root = 0
        self.cursor = 0
        self.new_root = 0
        self.placed = 0                   # the sectors holding a card (a pc mask)
        self.hint = None
        self._masks()

    @property
    def chord(self):
        return self.chords[self.position] if self.chords else None

    def _masks(self):
        """The chord's sectors at the root (and at the previewed root) as absolute pc masks."""
        self.required, self.optional = self._sectors(self.root)
        self.new_required, self.new_optional = self._sectors(self.new_root)

    def _sectors(self, root):
        if self.chord is None:
            return 0, 0
        return chord_sectors(self.ctx.meldset.meld_codes(self.chord), root)

    def complete(self):
        return is_complete(self.required, self.placed)

    # ---- events -------------------------------------------------------------------------

    def on_turn(self, steps):
        self.hint = None
        if self.step == "chord" and self.chords:
            self.position = (self.position + steps) % len(self.chords)
        elif self.step == "root":
            self.root = (self.root + steps) % 12
        elif self.step == "wheel":
            self.cursor = (self.cursor + steps) % 12
        elif self.step == "preview":
            self.new_root = self._free_sector(self.new_root, steps)
        self._masks()

    def on_click(self):
        self.hint = None
        if self.step == "chord":
            if self.chords:
                self.step = "root"
        elif self.step == "root":
            self.placed = 1 << self.root        # the first NOTE card lies on its sector
            self.cursor = self.root
            self.step = "wheel"
        elif self.step == "wheel":
            if self.complete():
                self.position = (self.position + 1) % len(self.chords)
                self.step = "chord"             # the next round's CHORD card
            else:
                self._toggle()
        else:
            self._change_root()
        self._masks()

    def _toggle(self):
        pc = self.cursor
        if pc == self.root:
            self.hint = "the root stays: change the root instead"
        elif not (self.required | self.optional) >> pc & 1:
            self.hint = "%s is not in the chord: it goes to the pile" % pc_label(pc)
        else:
            self.placed ^= 1 << pc

    def _change_root(self):
        """The hand card goes on the new root's sector; cards not in the chord there go back."""
        self.root = self.new_root
        self._masks()
        self.placed &= ~going_back(self.placed, self.required, self.optional)
        self.placed |= 1 << self.root
        self.cursor = self.root
        self.step = "wheel"

    def on_double(self):
        self.hint = None
        if self.step == "root":
            self.step = "chord"
        elif self.step == "wheel":
            if self.placed >> self.cursor & 1:
                self.hint = "%s is taken: a new root needs a free sector" % pc_label(self.cursor)
            else:
                self.new_root = self.cursor
                self.step = "preview"
        elif self.step == "preview":
            self.step = "wheel"
        self._masks()

    def _free_sector(self, start, steps):
        """The next sector without a card, `steps` free sectors on (either way)."""
        pc = start
        direction = 1 if steps > 0 else -1
        for _ in range(abs(steps)):
            for _ in range(12):
                pc = (pc + direction) % 12
                if not self.placed >> pc & 1:
                    break
        return pc

    # ---- the ring (allocates nothing) ---------------------------------------------------

    def render(self, frame):
        if self.chord is None:
            clear(frame)
            return
        if self.step in ("chord", "root"):
            meldset = self.ctx.meldset
            root = self.root if self.step == "root" else 0
            paint_meld(frame, meldset.required_mask(self.chord),
                       meldset.optional_mask(self.chord), root, CHORD,
                       self.ctx.settings["colours"] == "note")
            return
        preview = self.step == "preview"
        root = self.new_root if preview else self.root
        required = self.new_required if preview else self.required
        optional = self.new_optional if preview else self.optional
        for pc in range(12):
            bit = 1 << pc
            white = ROOT_WHITE if pc == root else 0
            if pc == root and preview:
                paint_sector(frame, pc, PLACED, 255, white)      # the card the change plays
            elif self.placed >> pc & 1:
                stays = (required | optional) & bit
                paint_sector(frame, pc, PLACED if stays else GOING, 255, white)
            elif required & bit:
                paint_sector(frame, pc, MISSING, 255, 0)
            elif optional & bit:
                paint_sector(frame, pc, MISSING, OPTIONAL_LEVEL, 0)
            else:
                paint_sector(frame, pc, MISSING, 0, 0)
        paint_cursor(frame, self.new_root if preview else self.cursor)

    # ---- the console --------------------------------------------------------------------

    def describe(self):
        if self.chord is None:
            return "chord poker: this meld set has no chords"
        meldset = self.ctx.meldset
        codes = meldset.meld_codes(self.chord)
        if self.step == "chord":
            return "chord poker: CHORD card %s %s (click to keep)" % (
                meldset.meld_id(self.chord), meldset.meld_name(self.chord))
        if self.step == "root":
            root = root_note(self.ctx, self.root, codes)
            return "chord poker: root %s: %s (click to keep)" % (
                format_note(root), meld_title(meldset, self.chord, root))
        root_pc = self.new_root if self.step == "preview" else self.root
        root, placed, missing = self._notes(root_pc)
        line = "%s: on the Wheel %s; missing %s" % (
            meld_title(meldset, self.chord, root), " ".join(placed) or "nothing",
            " ".join(missing) or "nothing")
        if self.step == "preview":
            return "chord poker: root change preview to %s: %s; back to the hand %s" % (
                format_note(root), line, self._going())
        line = "chord poker: %s; cursor %s" % (line, pc_label(self.cursor))
        if self.complete():
            line += "; complete: %d points (click for the next chord)" % CHORD_POINTS
        if self.hint:
            line += " (%s)" % self.hint
        return line

    def _notes(self, root_pc):
        """(root, names on the Wheel, names still missing (optional ones in parentheses))."""
        codes = self.ctx.meldset.meld_codes(self.chord)
        root = root_note(self.ctx, root_pc, codes)
        placed = []
        missing = []
        for code in codes:
            pc = (root_pc + degrees.semitones(code)) % 12
            name = format_note(spell(root, code))
            if self.placed >> pc & 1 or (self.step == "preview" and pc == root_pc):
                placed.append(name)
            else:
                missing.append("(" + name + ")" if code & degrees.OPTIONAL else name)
        return root, placed, missing

    def _going(self):
        going = going_back(self.placed, self.new_required, self.new_optional)
        return " ".join(pc_label(pc) for pc in range(12) if going >> pc & 1) or "nothing"

    def display(self):
        """The panel's shorter text: the chord, the Wheel, what is missing, the cursor."""
        if self.chord is None or self.step in ("chord", "root"):
            return self.describe()
        root_pc = self.new_root if self.step == "preview" else self.root
        root, placed, missing = self._notes(root_pc)
        parts = [short_title(self.ctx.meldset, self.chord, root),
                 "Wheel: " + (" ".join(placed) or "-"), "missing: " + (" ".join(missing) or "-")]
        if self.step == "preview":
            return "; ".join(["root change to " + format_note(root)] + parts
                             + ["back: " + self._going()])
        if self.complete():
            parts.append("complete: %d pts" % CHORD_POINTS)
        parts.append(self.hint or "cursor " + pc_label(self.cursor))   # a hint names it
        return "; ".join(parts)
