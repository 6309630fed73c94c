"""Bluff the Scale at the table: the scale from degree 1, a cursor on the next degree, and the
name the letter rule gives it (the advanced variant's check; the basic game accepts both names).

Steps:
  scale  turn: the SCALE card                       click: keep it
  root   turn: degree 1, by name (C, C#, Db, D ...: the name fixes the letters of the others)
         click: keep it                              double: back to the scale
  play   click: a card was placed, the cursor moves on   turn: move the cursor back or on
         double: BLUFF was called, the scale restarts (choose degree 1 again)
When the last degree is placed the scale is complete; a click goes to the scale step: turn to
the SCALE card drawn (the deck is shuffled: the next in the set's list is no better a guess).
The ring: the scale (its colours, degree 1 full and whitened), the degrees still to come a step
under full, those already placed dim (levels apart: they read by brightness, not by hue alone),
the cursor blinking on the next degree (steady on degree 1).
The table (the step, the SCALE card, degree 1's name, the next degree) is kept in the record
store (bluff.txt, KeepsTable): it survives mode switches, reboots and power cuts; a
meld set switch starts afresh."""

from core import degrees
from core.notes import format_note, note_pc, pc_names
from core.spelling import spell

from firmware import modes
from firmware.modes.kept import KeepsTable
from firmware.modes.names import meld_notes, plain_names, short_title
from firmware.modes.table_paint import BlinkingCursor, paint_cursor
from firmware.render import DIM_LEVEL, NOTE_LEVEL, OPTIONAL_LEVEL, clear, paint_meld

SCALE = 2                 # the meld kind
STEPS = ("scale", "root", "play")


def _scale_sector(frame, pc, to, of):
    """A sector painted at level `of` (no white) repainted at level `to`: the same hue."""
    at = 3 * pc
    for c in range(3):
        frame[at + c] = frame[at + c] * to // of


class Mode(KeepsTable, BlinkingCursor, modes.Mode):

    def __init__(self, ctx):
        modes.Mode.__init__(self, ctx)
        self.position = 0
        self.names = plain_names()
        self.name_at = 0
        self.hint = None
        self.set_changed()

    def set_changed(self):
        self.scales = self.ctx.meldset.of_kind(SCALE)
        self.position %= max(1, len(self.scales))
        self.step = "scale"
        self.next = 0                       # the degree the next card goes on (an index)
        self._scale_changed()
        self.keep_state()

    # ---- the table, kept (KeepsTable) ----------------------------------------------

    def state(self):
        return bytes((STEPS.index(self.step), self.position >> 8, self.position & 255,
                      self.name_at, self.next))

    def restore(self, raw):
        """A kept table, if it fits this set (else nothing changes)."""
        if len(raw) != 5 or raw[0] >= len(STEPS) or raw[3] >= len(self.names):
            return False
        position = raw[1] << 8 | raw[2]
        if position >= len(self.scales):
            return False
        codes = self.ctx.meldset.meld_codes(self.scales[position])
        if raw[4] > len(codes):
            return False
        self.step = STEPS[raw[0]]
        self.position = position
        self.name_at, self.next = raw[3], raw[4]
        self._scale_changed()
        return True

    def _scale_changed(self):
        self.codes = self.ctx.meldset.meld_codes(self.scale) if self.scales else b""

    @property
    def scale(self):
        return self.scales[self.position] if self.scales else None

    @property
    def root(self):
        return self.names[self.name_at]

    def complete(self):
        return self.next == len(self.codes)

    # ---- events -------------------------------------------------------------------------

    def on_turn(self, steps):
        self.blink_restart(self.ctx.now)
        self.hint = None
        if self.step == "scale" and self.scales:
            self.position = (self.position + steps) % len(self.scales)
            self._scale_changed()
        elif self.step == "root":
            self.name_at = (self.name_at + steps) % len(self.names)
        elif self.step == "play":
            self.next = min(max(self.next + steps, 0), len(self.codes) - 1)

    def on_click(self):
        self.blink_restart(self.ctx.now)
        self.hint = None
        if self.step == "scale":
            if self.scales:
                self.step = "root"
        elif self.step == "root":
            self.next = 0
            self.step = "play"
        elif self.complete():
            self.step = "scale"                 # a new SCALE card: the one drawn
            self.hint = "turn to the SCALE card drawn"
        else:
            self.next += 1
        self.keep_state()

    def on_double(self):
        self.blink_restart(self.ctx.now)
        self.hint = None
        if self.step == "root":
            self.step = "scale"
        elif self.step == "play":
            self.step = "root"                  # BLUFF: the scale restarts from degree 1
        self.keep_state()

    # ---- the ring (allocates nothing) ---------------------------------------------------

    def render(self, frame):
        self.blink_on = self.blink_phase(self.ctx.now)
        if self.scale is None:
            clear(frame)
            return
        meldset = self.ctx.meldset
        root_pc = note_pc(self.root) if self.step != "scale" else 0
        paint_meld(frame, meldset.required_mask(self.scale), meldset.optional_mask(self.scale),
                   root_pc, SCALE, self.ctx.settings["colours"])
        if self.step != "play":
            return
        # Every degree is a card to play: the placed ones dim, those to come (an optional one
        # too) a step under full; degree 1 stays marked (full, whitened).
        codes = self.codes
        for k in range(1, len(codes)):
            pc = (root_pc + degrees.semitones(codes[k])) % 12
            level = OPTIONAL_LEVEL if codes[k] & degrees.OPTIONAL else NOTE_LEVEL
            _scale_sector(frame, pc, DIM_LEVEL if k < self.next else NOTE_LEVEL, level)
        if not self.complete():
            cursor = (root_pc + degrees.semitones(codes[self.next])) % 12
            if self.blink_on or cursor == root_pc:      # blinks where it is not degree 1
                paint_cursor(frame, cursor)

    # ---- the console --------------------------------------------------------------------

    def describe(self):
        if self.scale is None:
            return "bluff: this meld set has no scales"
        meldset = self.ctx.meldset
        i = self.scale
        codes = self.codes
        title = "%s (%s)" % (meldset.meld_name(i), meldset.meld_id(i))
        if self.step == "scale":
            return "bluff: SCALE card %s (click to keep)%s" % (
                title, " (%s)" % self.hint if self.hint else "")
        scale = "%s %s: %s" % (format_note(self.root), title, meld_notes(self.root, codes))
        if self.step == "root":
            return "bluff: degree 1 is %s; %s (click to keep)" % (format_note(self.root), scale)
        if self.complete():
            return ("bluff: %s; complete: the Wheel's cards are discarded (click for the next "
                    "SCALE card)" % scale)
        code = codes[self.next]
        note = spell(self.root, code)
        also = [format_note(n) for n in pc_names(note_pc(note)) if n != note]
        return "bluff: %s; degree %s (%d of %d) is %s%s" % (
            scale, degrees.to_text(code), self.next + 1, len(codes), format_note(note),
            " (basic game: %s also counts)" % " or ".join(also) if also else "")

    def display(self):
        """The panel's shorter text: the scale by name, its notes, the degree wanted next."""
        if self.scale is None or self.step == "scale":
            return self.describe()
        meldset = self.ctx.meldset
        head = "bluff: " + short_title(meldset, self.scale, self.root)
        notes = meld_notes(self.root, self.codes)
        if self.step == "root":
            return "%s; %s; degree 1 is %s" % (head, notes, format_note(self.root))
        if self.complete():
            return "%s; %s; complete: discard the Wheel" % (head, notes)
        code = self.codes[self.next]
        note = spell(self.root, code)
        also = [format_note(n) for n in pc_names(note_pc(note)) if n != note]
        return "%s; %s; degree %s (%d of %d) is %s%s" % (
            head, notes, degrees.to_text(code), self.next + 1, len(self.codes),
            format_note(note), "; basic game: also " + " or ".join(also) if also else "")
